import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { DebateVoteResult, ReviseStateType, ReviseUpdate } from "../../state/revise.js";
import { ALL_VOTES_INVALID, countBallots } from "../shared/outcomes.js";

/**
 * revise_tally: counts the votes on the revised answers and emits `vote_complete` (a
 * DebateVoteResult). No valid vote stops the run with "All votes failed to parse."
 */
export async function reviseTally(state: ReviseStateType, config: LangGraphRunnableConfig): Promise<ReviseUpdate> {
  const { votes, tally, labelToModel, anonymityFlagged } = countBallots(state);
  const result: DebateVoteResult = {
    votes,
    tallies: tally.tallies,
    revisedLabelToModel: labelToModel,
    validVoteCount: tally.validVoteCount,
    invalidVoteCount: tally.invalidVoteCount,
    isTie: tally.isTie,
    tiedLabels: tally.isTie ? tally.winners : [],
    anonymityFlagged,
  };
  emit(config, "vote_complete", { data: result });
  if (tally.validVoteCount === 0) {
    emit(config, "error", ALL_VOTES_INVALID);
    return { tally: result, error: ALL_VOTES_INVALID.message };
  }
  return { tally: result };
}
