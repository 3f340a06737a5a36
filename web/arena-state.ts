import type { EventPayload } from "../state/events.js";
import type { ClientEvent, ClientPayload } from "../state/events.js";
import { withNotes, type CardRound } from "./card.js";
import type { Reason } from "../state/errors.js";
import type { FormatId } from "../state/formats.js";
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

/**
 * What a debate waits for from the person who joined it: the `debate-awaiting-input` event, or
 * (`deadline` absent) the question of a debate that stopped while it waited, which their answer resumes.
 */
export type Awaiting =
  ClientPayload<"debate-awaiting-input"> extends infer T ? (T extends unknown ? Omit<T, "deadline" | "timestamp"> & { deadline?: number } : never) : never;

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
  /** The seat of the person who joined the debate (`--with-me`), by key. */
  person?: string;
  /** What the debate waits for from the person now, until their turn or vote (or its skip) arrives. */
  awaiting?: Awaiting;
  cards: Record<string, Card>;
  /** Round now running (1–4), 0 before the first. */
  round: number;
  /** Rounds that have ended. */
  roundsDone: number[];
  /** Display names of the participants writing now (several at once in a simultaneous round). */
  speaking: string[];
  votes: EventPayload<"debate_vote_result">[];
  results?: EventPayload<"debate_results">;
  /** Synthesis markdown, without the arena-data block. */
  synthesis: string;
  /** The parsed `debate-arena-data` block of the synthesis. */
  arenaData?: Record<string, unknown>;
  /** Plain chat answer (not a debate). */
  chat: string;
  /** A follow-up to one participant of a finished run: who answers. */
  continuing?: { key: string; display: string };
  error?: { message: string; code: string; reason?: Reason };
  /** Set when the run was taken up again by another server (`run-resumed`): how many times it ran. */
  resumed?: number;
  /** What the run's model calls used and cost (the `usage` event before `done`). */
  usage?: ClientPayload<"usage">;
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
  speaking: [],
  votes: [],
  synthesis: "",
  chat: "",
  done: false,
  rawSynthesis: "",
});

/**
 * The format of the run an arena holds, told by the part of the state its events filled (its view
 * is the format's, `web/formats/`); undefined for a chat answer.
 */
export function formatOfRun(a: ArenaState): FormatId | undefined {
  if (a.deliberation) return a.deliberation.mode;
  if (a.panel) return a.panel.kind;
  if (a.compare) return "compare";
  if (a.debateId) return a.voice ? "dvoice" : "debatt";
  return undefined;
}

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

/** Applies one event to the arena (pure: returns a new state). */
export function reduce(s: ArenaState, e: ClientEvent): ArenaState {
  const card = (key: string) => s.cards[key];
  /** A card's answer in a round, patched (and, given the end event, with that event's notes in place of any it had). */
  const withRound = (key: string, round: number, patch: Partial<CardRound>, end?: unknown): ArenaState => {
    const c = card(key);
    if (!c) return s;
    const prev = c.rounds[round] ?? { text: "", status: "speaking" as const };
    const next = { ...prev, ...patch };
    return { ...s, cards: { ...s.cards, [key]: { ...c, rounds: { ...c.rounds, [round]: end === undefined ? next : withNotes(next, end) } } } };
  };
  switch (e.event) {
    case "debate-init": {
      const participants = (e.data.participants as { key: string; display: string }[]).map((p) => ({ key: p.key, display: p.display }));
      const person = e.data.participants.find((p) => p.person)?.key;
      return {
        ...emptyArena(),
        ...(person ? { person } : {}),
        debateId: e.data.debate_id,
        topic: e.data.topic,
        voice: e.data.voice_mode,
        simulated: e.data.simulated,
        participants,
        cards: Object.fromEntries(participants.map((p) => [p.key, { ...p, rounds: {} }])),
      };
    }
    case "debate-round-start":
      return { ...s, round: e.data.round };
    case "debate-round-end":
      return { ...s, roundsDone: [...new Set([...s.roundsDone, e.data.round])], speaking: [] };
    case "debate-participant-start":
      return {
        ...withRound(e.data.model_key, e.data.round, { text: "", status: "speaking" }),
        speaking: [...s.speaking.filter((n) => n !== e.data.model), e.data.model],
        awaiting: e.data.model_key === s.person ? undefined : s.awaiting,
      };
    case "debate-awaiting-input":
      return { ...s, awaiting: e.data };
    case "debate-input-skipped":
      return {
        ...(e.data.kind === "turn" && s.person ? withRound(s.person, e.data.round, { text: "", status: "error", skipped: e.data.reason }) : s),
        awaiting: undefined,
      };
    case "debate-participant-delta": {
      const c = card(e.data.model_key);
      return withRound(e.data.model_key, e.data.round, { text: (c?.rounds[e.data.round]?.text ?? "") + e.data.delta });
    }
    case "debate-participant-end":
      return {
        ...withRound(
          e.data.model_key,
          e.data.round,
          { status: e.data.status, wordCount: e.data.word_count, latencyMs: e.data.latency_ms, error: e.data.error },
          e.data,
        ),
        speaking: s.speaking.filter((n) => n !== e.data.model),
      };
    case "debate-vote-result":
      return { ...s, votes: [...s.votes, e.data], awaiting: e.data.voter === s.awaiting?.participant ? undefined : s.awaiting };
    case "debate-results":
      return { ...s, results: e.data, roundsDone: [...new Set([...s.roundsDone, 4])] };
    case "continue-start":
      return { ...s, continuing: e.data.participant };
    case "text-delta": {
      if (!s.debateId) return { ...s, chat: s.chat + e.data.delta };
      const rawSynthesis = s.rawSynthesis + e.data.delta;
      const split = splitSynthesis(rawSynthesis);
      return { ...s, rawSynthesis, synthesis: split.markdown, arenaData: split.data ?? s.arenaData };
    }
    case "compare-start": {
      const participants = (e.data.participants as { key: string; display: string }[]).map((p) => ({ key: p.key, display: p.display }));
      return { ...s, simulated: e.data.simulated, compare: { question: e.data.question, participants, answers: {}, complete: false } };
    }
    case "compare-answer-start":
    case "compare-answer-delta":
    case "compare-answer-end": {
      if (!s.compare) return s;
      const prev = s.compare.answers[e.data.model_key] ?? { text: "", status: "speaking" as const };
      const next: CardRound =
        e.event === "compare-answer-delta"
          ? { ...prev, text: prev.text + e.data.delta }
          : e.event === "compare-answer-end"
            ? withNotes({ ...prev, status: e.data.status, wordCount: e.data.word_count, latencyMs: e.data.latency_ms, error: e.data.error }, e.data)
            : // An answer's start begins its text: a run taken up again after its server died asks it anew.
              { text: "", status: "speaking" as const };
      return { ...s, compare: { ...s.compare, answers: { ...s.compare.answers, [e.data.model_key]: next } } };
    }
    case "compare-complete":
      return s.compare ? { ...s, compare: { ...s.compare, complete: true } } : s;
    case "error":
      return { ...s, error: { message: e.data.message, code: e.data.code, ...(e.data.reason ? { reason: e.data.reason } : {}) } };
    case "usage":
      return { ...s, usage: e.data };
    case "run-resumed":
      return { ...s, resumed: e.data.attempt };
    case "done":
      return { ...s, done: true, speaking: [], awaiting: undefined };
    default: {
      // The deliberation formats keep their own state; their start events carry `simulated`.
      const simulated = "simulated" in e.data && typeof e.data.simulated === "boolean" ? e.data.simulated : s.simulated;
      const deliberation = reduceDeliberation(s.deliberation, e);
      if (deliberation !== s.deliberation) return { ...s, deliberation, simulated };
      const panel = reducePanel(s.panel, e);
      return panel === s.panel ? s : { ...s, panel, simulated };
    }
  }
}
