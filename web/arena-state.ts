import type { EventPayload } from "../state/events.js";
import type { ArenaEvent } from "./stream.js";
import type { CardRound } from "./card.js";
import { reduceDeliberation, type DeliberationState } from "./deliberation-state.js";
import { reducePanel, type PanelState } from "./panel-state.js";


/** A participant card. */
export interface Card {
  key: string;
  display: string;
  rounds: Record<number, CardRound>;
}

/** A /compare run: the question and one answer per participant, side by side. */
export interface CompareState {
  question: string;
  participants: { key: string; display: string }[];
  answers: Record<string, CardRound>;
  complete: boolean;
}

/** Everything the arena shows, built only from the stream's events. */
export interface ArenaState {
  /** Set for a /compare run (never together with a debate). */
  compare?: CompareState;
  /** Set for a /vote or /revise run. */
  deliberation?: DeliberationState;
  /** Set for a /deep or /council run. */
  panel?: PanelState;
  debateId?: string;
  topic: string;
  voice: boolean;
  simulated: boolean;
  participants: { key: string; display: string }[];
  cards: Record<string, Card>;
  /** Round now running (1–4), 0 before the first. */
  round: number;
  /** Rounds that have ended. */
  roundsDone: number[];
  /** Display name of the participant speaking now. */
  speaking?: string;
  votes: EventPayload<"debate_vote_result">[];
  results?: EventPayload<"debate_results">;
  /** Synthesis markdown, without the arena-data block. */
  synthesis: string;
  /** The parsed `debate-arena-data` block of the synthesis. */
  arenaData?: Record<string, unknown>;
  /** Plain chat answer (not a debate). */
  chat: string;
  error?: { message: string; code: string };
  done: boolean;
  /** Raw synthesis text as streamed, before the arena block is cut out. */
  rawSynthesis: string;
}

export const emptyArena = (): ArenaState => ({
  topic: "",
  voice: false,
  simulated: false,
  participants: [],
  cards: {},
  round: 0,
  roundsDone: [],
  votes: [],
  synthesis: "",
  chat: "",
  done: false,
  rawSynthesis: "",
});

const ARENA_BLOCK = /^```debate-arena-data\s*\n([\s\S]*?)\n```\s*\n?/;

/** Splits the streamed synthesis into its arena-data block (once complete) and the markdown after it. */
export function splitSynthesis(raw: string): { data?: Record<string, unknown>; markdown: string; pending: boolean } {
  // A stream that has so far sent only the start of the block's fence shows nothing yet.
  if ("```debate-arena-data".startsWith(raw)) return { markdown: "", pending: raw.length > 0 };
  if (!raw.startsWith("```debate-arena-data")) return { markdown: raw, pending: false };
  const m = ARENA_BLOCK.exec(raw);
  if (!m) return { markdown: "", pending: true };
  let data: Record<string, unknown> | undefined;
  try {
    data = JSON.parse(m[1]);
  } catch {
    data = undefined;
  }
  return { data, markdown: raw.slice(m[0].length), pending: false };
}

/** Progress through the debate, 0–100: three spoken rounds, the vote, then the synthesis. */
export function progress(s: ArenaState): number {
  if (s.done && s.results) return 100;
  const perRound = 100 / 5;
  const spoken = s.participants.length || 1;
  const running = s.round >= 1 && s.round <= 3 && !s.roundsDone.includes(s.round);
  const current = running ? Object.values(s.cards).filter((c) => c.rounds[s.round]?.status !== undefined && c.rounds[s.round].status !== "speaking").length / spoken : 0;
  const synthesis = s.results ? 1 : 0;
  return Math.min(99, Math.round(perRound * (s.roundsDone.length + current + synthesis)));
}

/** Applies one event to the arena (pure: returns a new state). */
export function reduce(s: ArenaState, e: ArenaEvent): ArenaState {
  const d = e.data as Record<string, any>;
  const card = (key: string) => s.cards[key];
  const withRound = (key: string, round: number, patch: Partial<CardRound>): ArenaState => {
    const c = card(key);
    if (!c) return s;
    const prev = c.rounds[round] ?? { text: "", status: "speaking" as const };
    return { ...s, cards: { ...s.cards, [key]: { ...c, rounds: { ...c.rounds, [round]: { ...prev, ...patch } } } } };
  };
  switch (e.event) {
    case "debate-init": {
      const participants = (d.participants as { key: string; display: string }[]).map((p) => ({ key: p.key, display: p.display }));
      return {
        ...emptyArena(),
        debateId: d.debate_id,
        topic: d.topic,
        voice: d.voice_mode,
        simulated: d.simulated,
        participants,
        cards: Object.fromEntries(participants.map((p) => [p.key, { ...p, rounds: {} }])),
      };
    }
    case "debate-round-start":
      return { ...s, round: d.round };
    case "debate-round-end":
      return { ...s, roundsDone: [...new Set([...s.roundsDone, d.round as number])], speaking: undefined };
    case "debate-participant-start":
      return { ...withRound(d.model_key, d.round, { text: "", status: "speaking" }), speaking: d.model };
    case "debate-participant-delta": {
      const c = card(d.model_key);
      return withRound(d.model_key, d.round, { text: (c?.rounds[d.round]?.text ?? "") + d.delta });
    }
    case "debate-participant-end":
      return {
        ...withRound(d.model_key, d.round, { status: d.status, wordCount: d.word_count, latencyMs: d.latency_ms, error: d.error }),
        speaking: s.speaking === d.model ? undefined : s.speaking,
      };
    case "debate-vote-result":
      return { ...s, votes: [...s.votes, d as EventPayload<"debate_vote_result">] };
    case "debate-results":
      return { ...s, results: d as EventPayload<"debate_results">, roundsDone: [...new Set([...s.roundsDone, 4])] };
    case "text-delta": {
      if (!s.debateId) return { ...s, chat: s.chat + d.delta };
      const rawSynthesis = s.rawSynthesis + d.delta;
      const split = splitSynthesis(rawSynthesis);
      return { ...s, rawSynthesis, synthesis: split.markdown, arenaData: split.data ?? s.arenaData };
    }
    case "compare-start": {
      const participants = (d.participants as { key: string; display: string }[]).map((p) => ({ key: p.key, display: p.display }));
      return { ...s, simulated: d.simulated, compare: { question: d.question, participants, answers: {}, complete: false } };
    }
    case "compare-answer-start":
    case "compare-answer-delta":
    case "compare-answer-end": {
      if (!s.compare) return s;
      const prev = s.compare.answers[d.model_key] ?? { text: "", status: "speaking" as const };
      const next: CardRound =
        e.event === "compare-answer-delta"
          ? { ...prev, text: prev.text + d.delta }
          : e.event === "compare-answer-end"
            ? { ...prev, status: d.status, wordCount: d.word_count, latencyMs: d.latency_ms, error: d.error }
            : prev;
      return { ...s, compare: { ...s.compare, answers: { ...s.compare.answers, [d.model_key]: next } } };
    }
    case "compare-complete":
      return s.compare ? { ...s, compare: { ...s.compare, complete: true } } : s;
    case "error":
      return { ...s, error: { message: d.message, code: d.code } };
    case "done":
      return { ...s, done: true, speaking: undefined };
    default: {
      // The seed formats keep their own state; their start events carry `simulated`.
      const simulated = typeof d.simulated === "boolean" ? d.simulated : s.simulated;
      const deliberation = reduceDeliberation(s.deliberation, e);
      if (deliberation !== s.deliberation) return { ...s, deliberation, simulated };
      const panel = reducePanel(s.panel, e);
      return panel === s.panel ? s : { ...s, panel, simulated };
    }
  }
}
