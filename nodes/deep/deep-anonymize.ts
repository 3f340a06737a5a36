import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { NodeDeps } from "../../ports/node-deps.js";
import type { DeepStateType, DeepUpdate } from "../../state/deep.js";
import { createLabelMap } from "../shared/labels.js";
import { reportStage1 } from "../shared/outcomes.js";
import { debaterLabel, debatersOf } from "./lib/debaters.js";

/**
 * deep_anonymize: stage 1 is in (`stage1_complete`). Below two answers the run stops with
 * `error`; otherwise the answers are shuffled and named Debater A, B, C… and round 1 starts.
 */
export function makeDeepAnonymize(deps: NodeDeps) {
  return async function deepAnonymize(state: DeepStateType, config: LangGraphRunnableConfig): Promise<DeepUpdate> {
    const ctx = await deps.context(config);
    const { ok, stop } = reportStage1(state, config, "stage1_complete");
    if (stop) return stop;
    const labels = Object.fromEntries(
      createLabelMap(
        ok.map((a) => a.key),
        ctx.run.seed,
        1,
        debaterLabel,
      ),
    );
    emit(config, "deep_round_start", { round: 1, debaters: debatersOf({ members: state.members, labels }) });
    return { labels, round: 1 };
  };
}
