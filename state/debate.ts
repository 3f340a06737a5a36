import { z } from "zod";
import type { AnswerNotes } from "./answer.js";
import type { Participant } from "./participants.js";

/** The vote every participant must return in round 4. */
export const VoteSchema = z.object({
  voted_for: z.string().trim().min(1, "voted_for is empty"),
  short_motivation: z.string().max(200, "short_motivation is over 200 characters"),
  three_bullets: z.array(z.string()).length(3, "three_bullets must hold exactly 3 items"),
});
export type Vote = z.infer<typeof VoteSchema>;

/** One participant's ballot as kept in state; invalid ones are kept (not emitted) for the record. */
export interface Ballot {
  voter: string;
  voter_key: string;
  /** Display name of the participant voted for, mapped onto the roster; null if invalid. */
  voted_for: string | null;
  motivation: string;
  bullets: string[];
  valid: boolean;
  /** Why an invalid ballot was dropped (parse error, unknown name, timeout, …). */
  invalid_reason?: string;
}

/** One participant turn of rounds 1–3, ok or failed, with its reasoning, sources and a cut ending when it had them. */
export interface Turn extends AnswerNotes {
  round: number;
  position: number;
  key: string;
  display: string;
  status: "ok" | "error";
  /** What a failed turn streamed before it failed (an ok turn's text is in the round responses). */
  partial_text?: string;
  word_count: number;
  latency_ms: number;
  error?: string;
}

/** The computed outcome of the vote (never taken from a model); the payload of `debate-results`. */
export const DebateResultsSchema = z.object({
  /** Who won; null when no valid vote was cast (every ballot failed, or only voted for its own voter). */
  winner: z.string().nullable(),
  vote_counts: z.record(z.string(), z.number().int()),
  tiebreaker_used: z.boolean(),
  /** Which tiebreak decided: none (no tie, or no winner), total word count, or alphabetical order. */
  tiebreaker: z.enum(["none", "word_count", "alphabetical"]),
  word_counts: z.record(z.string(), z.number().int()),
  total_votes: z.number().int(),
  self_votes_filtered: z.number().int(),
  /** Ballots that named nobody, were empty or did not parse. */
  invalid_votes: z.number().int(),
});
export type DebateResults = z.infer<typeof DebateResultsSchema>;

/** The model's analysis of the debate: the part of the convergence result it writes. */
export const ConvergenceAnalysisSchema = z.object({
  merged_summary: z.string(),
  overlap_score: z.coerce.number().min(0).max(1),
  agreements: z.array(z.string()).default([]),
  disagreements: z.array(z.string()).default([]),
  conflicts: z.array(z.record(z.string(), z.string())).default([]),
  comparative_summary: z.string().default(""),
});
export type ConvergenceAnalysis = z.infer<typeof ConvergenceAnalysisSchema>;

/** Convergence as kept in state: the computed results plus the model's analysis when it worked. */
export interface Convergence extends DebateResults {
  analysis: ConvergenceAnalysis | null;
  /** Why the analysis is missing, when it is. */
  analysis_error?: string;
}

/** A debate's status, in life-cycle order (plus `error` for a debate that could not go on). */
export type DebateStatus = "initializing" | "round_1" | "round_2" | "round_3" | "voting" | "results" | "synthesis" | "complete" | "error";

/** The three spoken rounds with their word limits. */
export const ROUNDS = [
  { round: 1, type: "introduction", words: 300 },
  { round: 2, type: "argument", words: 500 },
  { round: 3, type: "deepening", words: 500 },
] as const;
/** Rounds 1–3 plus the vote. */
export const TOTAL_ROUNDS = 4;

/**
 * What a simultaneous round's turn carries through `Send`: the speaker, its place in the round's
 * order, and the debate as it stood when the round opened (every earlier round, none of this one).
 */
export interface TurnTask {
  speaker: Participant;
  round: number;
  position: number;
  /** The topic as the speakers read it (with any material that came with it). */
  topic: string;
  /** The topic as typed (its language is the voice's); absent in a task saved before it was carried. */
  asked?: string;
  participants: Participant[];
  responses: Record<number, Record<string, string>>;
  /** Word limit of each spoken round. */
  word_limits: number[];
  voice_mode: boolean;
  debate_id: string | null;
}

/** What a vote task carries through `Send`: the voter and the debate so far. */
export interface VoteTask {
  voter: Participant;
  participants: Participant[];
  topic: string;
  /** The debate as voters see it: every answer already cut to the context's length (so each task carries only what its prompt shows), each round's order. */
  debate: { orders: Record<number, string[]>; responses: Record<number, Record<string, string>>; simultaneous: boolean; wordLimits: number[] };
  /** Epoch ms by which the whole vote round must be done. */
  deadline: number;
}
