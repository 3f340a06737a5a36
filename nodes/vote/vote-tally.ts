import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { VoteRoundResult } from "../../state/deliberation.js";
import type { State, StateUpdate } from "../../state/graph-state.js";
import { ALL_VOTES_INVALID, countBallots } from "../shared/outcomes.js";

/**
 * vote_tally: counts the votes (seed 001 tallyVotes) and emits `vote_round_complete`. When no
 * vote parsed, the run stops with `error` "All votes failed to parse." (seed 001 §F).
 */
export async function voteTally(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
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
    return { vote_round: round, deliberation_error: ALL_VOTES_INVALID.message };
  }
  return { vote_round: round };
}
