import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../graph/events.js";
import type { VoteRoundResult } from "../state/deliberation.js";
import type { State, StateUpdate } from "../state/graph-state.js";
import { tallyLetterVotes } from "./letter-vote.js";

/**
 * vote_tally: counts the votes (seed 001 tallyVotes) and emits `vote_round_complete`. When no
 * vote parsed, the run stops with `error` "All votes failed to parse." (seed 001 §F).
 */
export async function voteTally(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
  const order = new Map(state.deliberation_participants.map((p, i) => [p.key, i]));
  const votes = [...state.vote_ballots].sort((a, b) => order.get(a.modelKey)! - order.get(b.modelKey)!);
  const byKey = new Map(state.deliberation_participants.map((p) => [p.key, p]));
  const labels = state.deliberation_labels;
  const tally = tallyLetterVotes(votes, new Set(Object.keys(labels)));
  const round: VoteRoundResult = {
    votes,
    tallies: tally.tallies,
    labelToModel: Object.fromEntries(Object.entries(labels).map(([label, key]) => [label, byKey.get(key)!.model])),
    validVoteCount: tally.validVoteCount,
    invalidVoteCount: tally.invalidVoteCount,
    isTie: tally.isTie,
    tiedLabels: tally.isTie ? tally.winners : [],
    anonymityFlagged: votes.filter((v) => v.anonymityBreach.length > 0).length,
  };
  emit(config, "vote_round_complete", { data: round });
  if (tally.validVoteCount === 0) {
    const message = "All votes failed to parse.";
    emit(config, "error", { code: "all_votes_invalid", message });
    return { vote_round: round, deliberation_error: message };
  }
  return { vote_round: round };
}
