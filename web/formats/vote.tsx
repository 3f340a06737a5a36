import type { ClientEvent } from "../../state/events.js";
import { FORMATS } from "../../state/formats.js";
import { SimulatedNote } from "../arena.js";
import type { FormatView, StoredRun } from "./format-view.js";
import { answered, ending, ev, firstAnswers, namesOf, type Answer, type Failure, type Panel, type Who } from "./replay.js";
import { counted, winnerDeclared, type StoredWinner, type Tally } from "./voting.js";
import { DeliberationView, type VotingSteps } from "./voting-view.js";

/** A /vote result as the history stores it. */
export interface StoredVote extends Panel {
  chairman?: Who;
  stage1: Answer[];
  stage1Failed?: Failure[];
  voteRound?: Tally & { labelToModel: Record<string, string> };
  tiebreaker?: { model: string; voteText: string; votedFor: string; responseTimeMs: number; tiedLabels?: string[]; fallback?: boolean };
  winner?: StoredWinner & { tiebreakerModel?: string };
}

/** The events of a stored /vote run; undefined for one without an answer. */
function replayVote({ id, result, question, title }: StoredRun): ClientEvent[] | undefined {
  const r = result as StoredVote;
  if (!answered(r.stage1, r.stage1Failed)) return undefined;
  const names = namesOf(r, [...r.stage1, ...(r.stage1Failed ?? []), ...(r.voteRound?.votes ?? [])]);
  const chairman = r.chairman ?? { model: r.tiebreaker?.model ?? "", display: r.tiebreaker?.model ?? "", modelKey: "chairman" };
  const events = [
    ev("vote-start", { messageId: id, mode: "vote", question, participants: names.participants, chairman, simulated: r.simulated ?? false }),
    ...firstAnswers("stage1-complete", "vote", names, r.stage1, r.stage1Failed),
  ];
  if (r.voteRound) {
    events.push(ev("vote-round-start"));
    events.push(ev("vote-round-complete", { data: { ...counted(names, r.voteRound), labelToModel: r.voteRound.labelToModel } }));
  }
  const tb = r.tiebreaker;
  if (tb) {
    events.push(ev("tiebreaker-start", { tiedLabels: tb.tiedLabels ?? r.voteRound?.tiedLabels ?? [] }));
    const { tiedLabels: _, ...chosen } = tb;
    events.push(ev("tiebreaker-complete", { data: { ...chosen, attempts: 1, fallback: tb.fallback ?? false } }));
  }
  if (r.winner) events.push(winnerDeclared(r.winner, names));
  return ending(events, Boolean(r.winner), title);
}

/** /vote's steps: the answers, the vote on them (their cards carry the labels), the chairman's tiebreak, the winner. */
const VOTE_STEPS: VotingSteps = {
  stages: [{ id: "collect", n: 1 }, { id: "vote", n: 2 }, { id: "tiebreak" }, { id: "winner" }],
  answersTitle: "dv.answers",
  votesTitle: "votes.title",
  labelsOnAnswers: true,
  afterAnswers: null,
};

/** /vote: the models answer, vote on the anonymised answers, and a chairman breaks a tie. */
export const VOTE_VIEW = {
  label: FORMATS.vote.command,
  adminGroup: "vote",
  spoken: false,
  hintOptions: null,
  replay: replayVote,
  panel: null,
  participants: (a) => a.deliberation?.participants ?? [],
  View: ({ a }) =>
    a.deliberation ? (
      <>
        {a.simulated && <SimulatedNote />}
        <DeliberationView s={a.deliberation} steps={VOTE_STEPS} ended={a.done} usage={a.usage} />
      </>
    ) : null,
} satisfies FormatView;
