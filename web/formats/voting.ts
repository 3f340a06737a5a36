import type { ClientEvent } from "../../state/events.js";
import { ev, type Names } from "./replay.js";

/** What /vote and /revise share in the history: the counted vote on anonymised answers and the declared winner. */

/** One stored vote. */
type Ballot = {
  model: string;
  modelKey: string;
  voteText: string;
  votedFor: string | null;
  responseTimeMs: number;
  error?: string;
  anonymityBreach?: string[];
};

/** A stored counted vote (without its label map, which each format stores under its own name). */
export type Tally = {
  votes: Ballot[];
  tallies: Record<string, number>;
  validVoteCount: number;
  invalidVoteCount: number;
  isTie: boolean;
  tiedLabels: string[];
};

/** A stored winner; `winnerKey` names its participant (runs stored before it have only the model). */
export type StoredWinner = {
  winnerLabel: string;
  winnerModel: string;
  winnerKey?: string;
  winnerResponse: string;
  voteCount: number;
  totalVotes: number;
  tiebroken: boolean;
};

/** A counted vote as `vote-round-complete` and `vote-complete` carry it (without the label map). */
export function counted(names: Names, t: Tally) {
  const votes = t.votes.map((b) => ({ ...b, display: names.who(b.modelKey, b.model).display, anonymityBreach: b.anonymityBreach ?? [] }));
  const { tallies, validVoteCount, invalidVoteCount, isTie, tiedLabels } = t;
  return { votes, tallies, validVoteCount, invalidVoteCount, isTie, tiedLabels, anonymityFlagged: votes.filter((v) => v.anonymityBreach.length > 0).length };
}

/** The `winner-declared` event of a stored winner, named as its participant. */
export function winnerDeclared({ winnerKey, ...winner }: StoredWinner, names: Names): ClientEvent {
  return ev("winner-declared", { data: { ...winner, winnerDisplay: names.displayOf(winnerKey, winner.winnerModel) } });
}
