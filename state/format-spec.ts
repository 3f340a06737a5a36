/**
 * What the state layer knows of a format: its command row (the command, what it takes, its
 * participants, its thread, the options written before its question) and its cost plan. One row
 * per format, each in `state/formats/<format>.ts`; the table of them is `FORMATS` in
 * `state/formats.ts`. No zod here: the page imports it.
 */
import type { PlanContext } from "./estimate-plan.js";

/** What an option written before a question sets (`/council --debate …` → `{ debate: true }`). */
export interface FormatFlags {
  antiAnchoring?: boolean;
  debate?: boolean;
  /** /debatt, /dvoice: `sequential` (each speaker sees the round so far) or `simultaneous` (all answer at once, seeing earlier rounds only). */
  order?: DebateOrder;
  /** /dvoice: `paced` releases each speaker's text only once the previous speaker's audio starts playing. */
  voicePacing?: VoicePacing;
  /** /debatt: the person who asks takes a seat among the participants (`--with-me`). */
  withMe?: boolean;
}

/** How a debate's speakers take their turns within a round. */
export const DEBATE_ORDERS = ["sequential", "simultaneous"] as const;
export type DebateOrder = (typeof DEBATE_ORDERS)[number];

/** Whether a spoken debate's text waits for its audio (`paced`) or runs ahead of it (`off`). */
export const VOICE_PACINGS = ["off", "paced"] as const;
export type VoicePacing = (typeof VOICE_PACINGS)[number];

/** Smallest and largest number of debaters a debate accepts. */
export const MIN_PARTICIPANTS = 2;
export const MAX_PARTICIPANTS = 8;

/** A format's command row and cost plan: the rules every layer reads. */
export interface FormatSpec {
  /** The chat command that runs it. */
  command: `/${string}`;
  /** What the command is followed by: a topic to debate, a question to answer, or a claim to judge. */
  takes: "topic" | "question" | "claim";
  /** The mode its conversations are stored under, which is also its `mode` in the deliberate endpoint. */
  storedMode: string;
  /** How many participants, how many by default (else all up to `max`), and whether a model named twice is two participants. */
  participants: { min: number; max: number; byDefault?: number; duplicates: "merge" | "separate" };
  /** `chat`: it shares the chat's conversation (any message may follow it); `own`: its conversation holds only its own questions. */
  thread: "chat" | "own";
  /** Whether its conversation takes follow-up questions. */
  multiTurn: boolean;
  /** Options written before the question (`/council --debate <claim>`, `/debatt --order simultaneous <topic>`) and what each sets. */
  flags: Record<string, FormatFlags>;
  /** Rounds a request may ask for: the fewest, the default and the most. */
  rounds?: { min: number; default: number; max: number };
  /**
   * The token budget of its answers when the run sets none (`max_response_tokens`); unset: the
   * run configuration's default, 800.
   */
  answerTokens?: number;
  /** Whether its runs hold votes the leaderboard counts (its history codec then reads their ballots). */
  ballots: boolean;
  /** What its model calls are asked to do (a call's `phase`): fakes, the simulated provider and the usage by stage key on it. */
  phases: readonly string[];
  /**
   * The model calls a run makes on its usual path (every answer given, one vote, every round
   * held), for the estimate before it starts: each added through `plan`'s helpers.
   */
  plan: (plan: PlanContext) => void;
}
