import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { NodeDeps } from "../../ports/node-deps.js";
import { emit } from "../../ports/emit.js";
import { labelToModel } from "../../state/deliberation.js";
import type { ReviseStateType, ReviseUpdate } from "../../state/revise.js";
import { reportStage1 } from "../shared/outcomes.js";
import { createLabelMap } from "../shared/labels.js";

/**
 * revise_anonymize: round 1 is in. Emits `round1_complete`, stops with `error` below two
 * answers, else labels the answers for the revision round (`revision_start` with the round-1
 * label map).
 */
export function makeReviseAnonymize(deps: NodeDeps) {
  return async function reviseAnonymize(state: ReviseStateType, config: LangGraphRunnableConfig): Promise<ReviseUpdate> {
    const ctx = await deps.context(config);
    const { ok, stop } = reportStage1(state, config, "round1_complete");
    if (stop) return stop;
    const labels = Object.fromEntries(
      createLabelMap(
        ok.map((a) => a.key),
        ctx.run.seed,
        1,
      ),
    );
    emit(config, "revision_start", { data: { labelMap: labelToModel(state, labels) } });
    return { round1_labels: labels };
  };
}
