import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { runContext, type GraphDeps } from "../../ports/node-deps.js";
import { emit } from "../../ports/emit.js";
import type { State, StateUpdate } from "../../state/graph-state.js";
import { reportStage1 } from "../shared/outcomes.js";
import { createLabelMap } from "../shared/labels.js";

/**
 * vote_anonymize: stage 1 is in. Emits `stage1_complete` (with who failed), stops with `error`
 * when fewer than two answered (seed 001 §F), else draws a fresh shuffled label map for the
 * vote and emits `vote_round_start`.
 */
export function makeVoteAnonymize(deps: GraphDeps) {
  return async function voteAnonymize(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
    const ctx = await runContext(deps, config);
    const { ok, stop } = reportStage1(state, config, "stage1_complete");
    if (stop) return stop;
    const labels = createLabelMap(ok.map((a) => a.key), ctx.run.seed, 1);
    emit(config, "vote_round_start", {});
    return { deliberation_labels: Object.fromEntries(labels) };
  };
}
