import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { runContext, type GraphDeps } from "../../ports/node-deps.js";
import { emit } from "../../ports/emit.js";
import type { State, StateUpdate } from "../../state/graph-state.js";
import { labelToModel, reportStage1 } from "../shared/outcomes.js";
import { createLabelMap } from "../shared/labels.js";

/**
 * revise_anonymize: round 1 is in. Emits `round1_complete`, stops with `error` below two
 * answers (seed 000 §F), else labels the answers for the revision round (`revision_start`
 * with the round-1 label map).
 */
export function makeReviseAnonymize(deps: GraphDeps) {
  return async function reviseAnonymize(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
    const ctx = await runContext(deps, config);
    const { ok, stop } = reportStage1(state, config, "round1_complete");
    if (stop) return stop;
    const labels = Object.fromEntries(createLabelMap(ok.map((a) => a.key), ctx.run.seed, 1));
    emit(config, "revision_start", { data: { labelMap: labelToModel(state, labels) } });
    return { revise_round1_labels: labels };
  };
}
