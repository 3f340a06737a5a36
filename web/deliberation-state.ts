import type { RevisionResponse, RevisionSummary } from "../state/revise.js";
import { notesFields } from "../state/answer.js";
import type { CardRound } from "./card.js";
import type { ClientEvent } from "../state/events.js";

type Who = { key: string; display: string; model: string };

/** A counted vote, from /vote's `vote-round-complete` or /revise's `vote-complete`. */
export interface CountedVote {
  votes: { display: string; modelKey: string; voteText: string; votedFor: string | null; error?: string; anonymityBreach: string[] }[];
  tallies: Record<string, number>;
  /** Label → model id of the answers voted on. */
  labelToModel: Record<string, string>;
  validVoteCount: number;
  invalidVoteCount: number;
  isTie: boolean;
  tiedLabels: string[];
  anonymityFlagged: number;
}

/** The declared winner of either format. */
export interface Winner {
  winnerLabel: string;
  winnerDisplay: string;
  winnerResponse: string;
  voteCount: number;
  totalVotes: number;
  tiebroken: boolean;
  /** /revise: the winner's decision (null when it could not be read). */
  winnerDecision?: RevisionResponse["decision"];
  tiebreakerMethod?: "alphabetical";
}

/** A /vote or /revise run as the page shows it, built only from its events. */
export interface DeliberationState {
  mode: "vote" | "revise";
  question: string;
  participants: Who[];
  /** /vote: the tiebreaking chairman. */
  chairman?: Who;
  antiAnchoring?: boolean;
  /** Stage 1: each model's answer as it streams, by participant key. */
  answers: Record<string, CardRound>;
  /** /revise: each model's revision text as it streams, by participant key. */
  revising: Record<string, string>;
  revisions?: RevisionResponse[];
  revisionSummary?: RevisionSummary;
  /** Each voter's reasoning as it streams, by participant key. */
  ballots: Record<string, string>;
  stage: "collect" | "revision" | "vote" | "tiebreak" | "winner" | "complete";
  vote?: CountedVote;
  tiedLabels?: string[];
  tiebreaker?: { model: string; voteText: string; votedFor: string; fallback: boolean };
  winner?: Winner;
  title?: string;
}

/** Display name of the model behind a label of the counted vote. */
export function displayOfLabel(d: DeliberationState, label: string): string | undefined {
  const model = d.vote?.labelToModel[label];
  return [...d.participants, ...(d.chairman ? [d.chairman] : [])].find((p) => p.model === model)?.display;
}

const who = (p: { modelKey: string; display: string; model: string }): Who => ({ key: p.modelKey, display: p.display, model: p.model });

/**
 * Applies one event to a /vote or /revise run. `vote-start` and `debate-start`
 * begin one; the formats' other events update it; anything else leaves it as it is
 * (the same object).
 */
export function reduceDeliberation(s: DeliberationState | undefined, e: ClientEvent): DeliberationState | undefined {
  const fresh = { answers: {}, revising: {}, ballots: {}, stage: "collect" as const };
  if (e.event === "vote-start" && !("data" in e.data))
    return { mode: "vote", question: e.data.question, participants: e.data.participants.map(who), chairman: who(e.data.chairman), ...fresh };
  if (e.event === "debate-start")
    return { mode: "revise", question: e.data.question, participants: e.data.participants.map(who), antiAnchoring: e.data.antiAnchoring, ...fresh };
  if (!s) return s;
  switch (e.event) {
    case "answer-delta": {
      if (e.data.mode !== s.mode) return s;
      if (e.data.stage === "collect") {
        const prev = s.answers[e.data.modelKey] ?? { text: "", status: "speaking" as const };
        return { ...s, answers: { ...s.answers, [e.data.modelKey]: { ...prev, text: prev.text + e.data.delta } } };
      }
      if (e.data.stage === "revision") return { ...s, revising: { ...s.revising, [e.data.modelKey]: (s.revising[e.data.modelKey] ?? "") + e.data.delta } };
      if (e.data.stage === "vote") return { ...s, ballots: { ...s.ballots, [e.data.modelKey]: (s.ballots[e.data.modelKey] ?? "") + e.data.delta } };
      return s;
    }
    case "stage1-complete":
    case "round1-complete": {
      const answers = { ...s.answers };
      for (const r of e.data.data) answers[r.modelKey] = { text: r.response, status: "ok", latencyMs: r.responseTimeMs, ...notesFields(r) };
      for (const f of e.data.failed) answers[f.modelKey] = { text: "", status: "error", error: f.error };
      return { ...s, answers };
    }
    case "revision-start":
      return { ...s, stage: "revision" };
    case "revision-complete":
      return { ...s, revisions: e.data.data.revisions, revisionSummary: e.data.data.summary };
    case "vote-round-start":
    case "vote-start":
      return { ...s, stage: "vote" };
    case "vote-round-complete":
      return { ...s, vote: e.data.data };
    case "vote-complete":
      return { ...s, vote: { ...e.data.data, labelToModel: e.data.data.revisedLabelToModel } };
    case "tiebreaker-start":
      return { ...s, stage: "tiebreak", tiedLabels: e.data.tiedLabels };
    case "tiebreaker-complete":
      return { ...s, tiebreaker: e.data.data };
    case "winner-declared":
      return { ...s, stage: "winner", winner: e.data.data };
    case "title-complete":
      return { ...s, title: e.data.data.title };
    case "complete":
      return { ...s, stage: "complete" };
    default:
      return s;
  }
}
