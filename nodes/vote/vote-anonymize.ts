import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { NodeDeps } from "../../ports/node-deps.js";
import type { VoteStateType, VoteUpdate } from "../../state/vote.js";
import { createLabelMap } from "../shared/labels.js";
import { reportStage1 } from "../shared/outcomes.js";

/**
 * vote_anonymize: stage 1 is in. Emits `stage1_complete` (with who failed), stops with `error`
 * when fewer than two answered, else draws a fresh shuffled label map for the vote and emits
 * `vote_round_start`.
 */
export function makeVoteAnonymize(deps: NodeDeps) {
  return async function voteAnonymize(state: VoteStateType, config: LangGraphRunnableConfig): Promise<VoteUpdate> {
    const ctx = await deps.context(config);
    const { ok, stop } = reportStage1(state, config, "stage1_complete");
    if (stop) return stop;
    const labels = createLabelMap(
      ok.map((a) => a.key),
      ctx.run.seed,
      1,
    );
    emit(config, "vote_round_start", {});
    return { labels: Object.fromEntries(labels) };
  };
}
