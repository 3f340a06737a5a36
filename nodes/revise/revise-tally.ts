import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { DebateVoteResult } from "../../state/deliberation.js";
import type { State, StateUpdate } from "../../state/graph-state.js";
import { ALL_VOTES_INVALID, countBallots } from "../shared/outcomes.js";

/**
 * revise_tally: counts the votes on the revised answers and emits `vote_complete` (seed 000
 * DebateVoteResult). No valid vote stops the run with "All votes failed to parse." (§F).
 */
export async function reviseTally(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
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
    return { revise_vote: result, deliberation_error: ALL_VOTES_INVALID.message };
  }
  return { revise_vote: result };
}
