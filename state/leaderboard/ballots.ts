import { FORMAT_IDS, FORMATS, type FormatId } from "../formats.js";

/**
 * A vote as the leaderboard reads it from the history: who voted, what it could choose from (in
 * the order it was shown or spoken) and what it chose. Every format that votes gives these: the
 * /debatt and /dvoice vote (round 4), the /vote ballots, the /revise ballots and /rank's rankings
 * (each a series of choices).
 */

/** A format whose runs hold votes (its row says `ballots: true`). */
export type VotingFormat = { [K in FormatId]: (typeof FORMATS)[K]["ballots"] extends true ? K : never }[FormatId];

/** The formats whose runs hold votes, in the formats' order. */
export const VOTING_FORMATS = FORMAT_IDS.filter((id): id is VotingFormat => FORMATS[id].ballots);

/** One answer a voter could choose. */
export interface Candidate {
  /** The model that wrote it. */
  model: string;
  /** Where it was in what the voter read: its place among the labels, or when it spoke in the last round (0 first). */
  position: number;
  /** Its length in words (a debater's words over all rounds); null when the history cannot tell (a model that gave two of the answers). */
  words: number | null;
}

/** One vote. */
export interface Ballot {
  format: VotingFormat;
  /** The run it was cast in. */
  runId: string;
  /** When the run started (ISO 8601). */
  at: string;
  /** The voter's model. */
  voter: string;
  /** The model of the answer it chose. */
  chosen: string;
  /** Where the chosen answer was (its candidate's `position`): a model may have given two answers. */
  chosenPosition: number;
  /** What it could choose from, in the order it read them (a /debatt voter's own turns are not among them). */
  candidates: Candidate[];
  /** Whether the voter knew who wrote what: /debatt names the speakers; an anonymous ballot whose text named a model broke it. */
  namesKnown: boolean;
  /** Whether the run's models were the offline simulation. */
  simulated: boolean;
}

/**
 * A model's vendor: the part of its id before the first `/` (OpenRouter's `openai/gpt-5` →
 * `openai`), or, in an id without one, the part before the first `-`, `:` or `.` (`gpt-4o` → `gpt`).
 */
export function vendorOf(model: string): string {
  const slash = model.indexOf("/");
  return (slash > 0 ? model.slice(0, slash) : model.split(/[-:.]/)[0]).toLowerCase();
}
