import type { Ballot, DebateResults } from "../../../state/debate.js";

/** Valid ballots without self-votes (voter == voted_for, case-insensitive), and how many were removed. */
export function filterSelfVotes(ballots: Ballot[]): { kept: Ballot[]; selfVotes: number } {
  const valid = ballots.filter((b) => b.valid && b.voted_for);
  const kept = valid.filter((b) => b.voter.toLowerCase() !== b.voted_for!.toLowerCase());
  return { kept, selfVotes: valid.length - kept.length };
}

/** Votes per participant (every participant listed, zero included). */
export function tallyVotes(ballots: Ballot[], names: string[]): Record<string, number> {
  const counts = Object.fromEntries(names.map((n) => [n, 0]));
  for (const b of ballots) if (b.voted_for && b.voted_for in counts) counts[b.voted_for]++;
  return counts;
}

/**
 * The winner: most votes; a tie goes to the highest total word count over all rounds; a tie on
 * that too goes to the alphabetically first name. Says which tiebreak decided.
 */
export function resolveWinner(
  voteCounts: Record<string, number>,
  wordCounts: Record<string, number>,
): { winner: string; tiebreaker: DebateResults["tiebreaker"] } {
  const names = Object.keys(voteCounts);
  if (names.length === 0) throw new Error("resolveWinner: no participants");
  const top = Math.max(...names.map((n) => voteCounts[n]));
  const leaders = names.filter((n) => voteCounts[n] === top);
  if (leaders.length === 1) return { winner: leaders[0], tiebreaker: "none" };
  const words = (n: string) => wordCounts[n] ?? 0;
  const most = Math.max(...leaders.map(words));
  const byWords = leaders.filter((n) => words(n) === most);
  if (byWords.length === 1) return { winner: byWords[0], tiebreaker: "word_count" };
  return { winner: [...byWords].sort((a, b) => a.localeCompare(b, "en"))[0], tiebreaker: "alphabetical" };
}

/**
 * The computed results of the vote, never taken from a model. Without a single valid vote there is
 * no winner (`winner: null`): a tie of everyone at zero decided by word count or name would be a
 * verdict nobody gave.
 */
export function computeResults(ballots: Ballot[], names: string[], wordCounts: Record<string, number>): DebateResults {
  const { kept, selfVotes } = filterSelfVotes(ballots);
  const voteCounts = tallyVotes(kept, names);
  const { winner, tiebreaker } = kept.length > 0 ? resolveWinner(voteCounts, wordCounts) : { winner: null, tiebreaker: "none" as const };
  return {
    winner,
    vote_counts: voteCounts,
    tiebreaker_used: tiebreaker !== "none",
    tiebreaker,
    word_counts: Object.fromEntries(names.map((n) => [n, wordCounts[n] ?? 0])),
    total_votes: kept.length,
    self_votes_filtered: selfVotes,
    invalid_votes: ballots.filter((b) => !b.valid).length,
  };
}
