/**
 * The vote parser: the LAST `VOTE: Response X` in the text (a model may discuss other votes before
 * casting its own), else the last `Response X` anywhere, else null.
 */
export function parseLetterVote(text: string): string | null {
  const voteMatches = [...text.matchAll(/VOTE:\s*Response\s+([A-Z])/gi)];
  if (voteMatches.length > 0) return `Response ${voteMatches[voteMatches.length - 1][1].toUpperCase()}`;
  const fallbackMatches = [...text.matchAll(/Response\s+([A-Z])\b/gi)];
  if (fallbackMatches.length > 0) return `Response ${fallbackMatches[fallbackMatches.length - 1][1].toUpperCase()}`;
  return null;
}

/** The outcome of counting label votes. */
export interface LetterTally {
  tallies: Record<string, number>;
  validVoteCount: number;
  invalidVoteCount: number;
  /** Labels with the most votes (one unless tied; none without a valid vote). */
  winners: string[];
  isTie: boolean;
}

/**
 * Counts label votes: a vote counts when it names a label of the map; anything else (null, or
 * a label that does not exist, e.g. "Response F" of A–D) is invalid. Winners hold the most votes.
 */
export function tallyLetterVotes(votes: readonly { votedFor: string | null }[], labels: ReadonlySet<string>): LetterTally {
  const tallies: Record<string, number> = {};
  let valid = 0;
  for (const vote of votes) {
    if (vote.votedFor && labels.has(vote.votedFor)) {
      tallies[vote.votedFor] = (tallies[vote.votedFor] ?? 0) + 1;
      valid++;
    }
  }
  const maxVotes = Math.max(...Object.values(tallies), 0);
  const winners = Object.entries(tallies)
    .filter(([, count]) => count === maxVotes)
    .map(([label]) => label)
    .sort();
  return { tallies, validVoteCount: valid, invalidVoteCount: votes.length - valid, winners, isTie: winners.length > 1 };
}
