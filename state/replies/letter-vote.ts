import { replyTail } from "./reply-tail.js";

/**
 * The reply of a ballot in /vote and /revise and of /vote's tiebreak: a letter vote, whose last
 * line is `VOTE: Response X`. The constants are the parts of the prompts that ask for it,
 * `parseLetterVote` reads it, `renderLetterVote` writes it (the offline provider and the test fake
 * answer with it), and `tallyLetterVotes` counts the votes.
 */

/** The vote line as the prompts show it. */
const VOTE_LINE = "VOTE: Response X";

/** The ballot's reply: reasoning allowed, the vote last. */
export const LETTER_VOTE_REPLY = `You MUST end your response with your vote in this exact format:
${VOTE_LINE}

where X is the letter of your chosen response. You may provide brief reasoning before the vote, but the last line MUST be your vote.`;

/** The tiebreak's reply: the vote line only. */
export const LETTER_VOTE_ONLY_REPLY = `Reply with ONLY:
${VOTE_LINE}`;

/** A letter vote as a model should write it: the reasoning (if any), a blank line, the vote line. */
export function renderLetterVote(label: string, reasoning?: string): string {
  return reasoning ? `${reasoning}\n\nVOTE: ${label}` : `VOTE: ${label}`;
}

/**
 * The vote parser: the LAST `VOTE: Response X` in the text (a model may discuss other votes before
 * casting its own), else the last `Response X` anywhere, else null; a long reply from its end (`replyTail`).
 */
export function parseLetterVote(text: string): string | null {
  text = replyTail(text);
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
