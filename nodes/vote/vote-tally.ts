import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { VoteRoundResult, VoteStateType, VoteUpdate } from "../../state/vote.js";
import { ALL_VOTES_INVALID, countBallots } from "../shared/outcomes.js";

/**
 * vote_tally: counts the votes and emits `vote_round_complete`. When no vote parsed, the run
 * stops with `error` "All votes failed to parse.".
 */
export async function voteTally(state: VoteStateType, config: LangGraphRunnableConfig): Promise<VoteUpdate> {
  const { votes, tally, labelToModel, anonymityFlagged } = countBallots(state);
  const round: VoteRoundResult = {
    votes,
    tallies: tally.tallies,
    labelToModel,
    validVoteCount: tally.validVoteCount,
    invalidVoteCount: tally.invalidVoteCount,
    isTie: tally.isTie,
    tiedLabels: tally.isTie ? tally.winners : [],
    anonymityFlagged,
  };
  emit(config, "vote_round_complete", { data: round });
  if (tally.validVoteCount === 0) {
    emit(config, "error", ALL_VOTES_INVALID);
    return { tally: round, error: ALL_VOTES_INVALID.message };
  }
  return { tally: round };
}
