import { notesFields } from "../../state/answer.js";
import type { ClientEvent } from "../../state/events.js";
import type { RankAggregate, RankingResponse } from "../../state/rank.js";
import type { CardRound } from "../card.js";
import { memberOf, type Member, type RunPanel } from "./format-view.js";

/** A /rank run as the page shows it, built only from its events: the answers, each model's ranking, the council's ranking, the chairman's answer. */
export interface RankState {
  kind: "rank";
  question: string;
  participants: Member[];
  chairman: Member;
  /** Each model's answer as it streams, by participant key. */
  answers: Record<string, CardRound>;
  /** The labels every model ranks, once the answers are anonymised. */
  labels: string[];
  /** Each ranking's text while it streams, by ranker key (gone once the ranking lands). */
  ranking: Record<string, string>;
  /** Each ranking as it landed, by ranker key. */
  rankings: Record<string, RankingResponse>;
  aggregate?: RankAggregate;
  /** The chairman's answer as it streams, then the run's answer (the top-ranked one when the chairman failed). */
  final: string;
  /** Set when the chairman failed and the top-ranked answer stands in: whose it is, and why. */
  fallback?: { display: string; error: string };
  title?: string;
  complete: boolean;
}

/** How the page follows a /rank run: `rank-start` begins it. */
export const RANK_PANEL: RunPanel<RankState> = {
  kind: "rank",
  start: (e) => (e.event === "rank-start" ? startRank(e) : undefined),
  reduce: reduceRank,
};

/** A new /rank run from its `rank-start`. */
function startRank(e: Extract<ClientEvent, { event: "rank-start" }>): RankState {
  const d = e.data;
  return {
    kind: "rank",
    question: d.question,
    participants: d.participants.map(memberOf),
    chairman: memberOf(d.chairman),
    answers: {},
    labels: [],
    ranking: {},
    rankings: {},
    final: "",
    complete: false,
  };
}

/** Applies one of /rank's events to its run (its title and completion are the panels' shared events); anything else leaves it as it is. */
function reduceRank(s: RankState, e: ClientEvent): RankState {
  switch (e.event) {
    case "answer-delta": {
      if (e.data.mode !== "rank") return s;
      const key = e.data.modelKey;
      if (e.data.stage === "chairman") return { ...s, final: s.final + e.data.delta };
      if (e.data.stage === "ranking") return { ...s, ranking: { ...s.ranking, [key]: (s.ranking[key] ?? "") + e.data.delta } };
      if (e.data.stage !== "collect") return s;
      const prev = s.answers[key] ?? { text: "", status: "speaking" as const };
      return { ...s, answers: { ...s.answers, [key]: { ...prev, text: prev.text + e.data.delta } } };
    }
    case "stage1-complete": {
      const answers = { ...s.answers };
      for (const r of e.data.data) answers[r.modelKey] = { text: r.response, status: "ok", latencyMs: r.responseTimeMs, ...notesFields(r) };
      for (const f of e.data.failed) answers[f.modelKey] = { text: "", status: "error", error: f.error };
      return { ...s, answers };
    }
    case "rank-rankings-start":
      return { ...s, labels: e.data.labels };
    case "rank-ranking": {
      const { [e.data.data.modelKey]: _streamed, ...ranking } = s.ranking;
      return { ...s, ranking, rankings: { ...s.rankings, [e.data.data.modelKey]: e.data.data } };
    }
    case "rank-aggregate":
      return { ...s, aggregate: e.data.data };
    case "rank-final": {
      const f = e.data.data;
      return { ...s, final: f.answer, ...(f.fallback ? { fallback: { display: f.display, error: f.error ?? "" } } : {}) };
    }
    default:
      return s;
  }
}
