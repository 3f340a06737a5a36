import type { EventPayload } from "../state/events.js";
import type { ArenaEvent, CardRound } from "./arena-state.js";

type Who = { key: string; display: string; model: string };

/** A /vote run as the page shows it, built only from its events (seed 001 §E "UI Display"). */
export interface VoteState {
  question: string;
  participants: Who[];
  chairman: Who;
  /** Stage 1: each model's answer as it streams, by participant key. */
  answers: Record<string, CardRound>;
  /** Stage 2: each voter's reasoning as it streams, by participant key. */
  ballots: Record<string, string>;
  stage: "collect" | "vote" | "tiebreak" | "winner" | "complete";
  round?: EventPayload<"vote_round_complete">["data"];
  tiedLabels?: string[];
  tiebreaker?: EventPayload<"tiebreaker_complete">["data"];
  winner?: EventPayload<"winner_declared">["data"];
  title?: string;
}

/** Display name of the model behind a label, once the vote round has revealed the labels. */
export function displayOfLabel(v: VoteState, label: string): string | undefined {
  const model = v.round?.labelToModel[label];
  return [...v.participants, v.chairman].find((p) => p.model === model)?.display;
}

/**
 * Applies one event to the /vote state. `vote-start` begins it; the other /vote events update
 * it; anything else leaves it as it is (the same object).
 */
export function reduceVote(v: VoteState | undefined, e: ArenaEvent): VoteState | undefined {
  const d = e.data as Record<string, any>;
  if (e.event === "vote-start") {
    const who = (p: { modelKey: string; display: string; model: string }): Who => ({ key: p.modelKey, display: p.display, model: p.model });
    return { question: d.question, participants: d.participants.map(who), chairman: who(d.chairman), answers: {}, ballots: {}, stage: "collect" };
  }
  if (!v) return v;
  switch (e.event) {
    case "answer-delta": {
      if (d.mode !== "vote") return v;
      if (d.stage === "collect") {
        const prev = v.answers[d.modelKey] ?? { text: "", status: "speaking" as const };
        return { ...v, answers: { ...v.answers, [d.modelKey]: { ...prev, text: prev.text + d.delta } } };
      }
      if (d.stage === "vote") return { ...v, ballots: { ...v.ballots, [d.modelKey]: (v.ballots[d.modelKey] ?? "") + d.delta } };
      return v;
    }
    case "stage1-complete": {
      const answers = { ...v.answers };
      for (const r of d.data) answers[r.modelKey] = { text: r.response, status: "ok", latencyMs: r.responseTimeMs };
      for (const f of d.failed) answers[f.modelKey] = { text: "", status: "error", error: f.error };
      return { ...v, answers };
    }
    case "vote-round-start":
      return { ...v, stage: "vote" };
    case "vote-round-complete":
      return { ...v, round: d.data };
    case "tiebreaker-start":
      return { ...v, stage: "tiebreak", tiedLabels: d.tiedLabels };
    case "tiebreaker-complete":
      return { ...v, tiebreaker: d.data };
    case "winner-declared":
      return { ...v, stage: "winner", winner: d.data };
    case "title-complete":
      return { ...v, title: d.data.title };
    case "complete":
      return { ...v, stage: "complete" };
    default:
      return v;
  }
}
