import { z } from "zod";

/**
 * How much a model is asked to think before it answers: `off` (no thinking asked for and no room
 * given), `low`, `medium` or `high`. Reasoning tokens count against an answer's token cap at every
 * provider, so a model that thinks under the answer's bare budget can use it all and return an
 * empty answer: a model that reasons gets its effort's thinking room on top of the answer's budget.
 */
export const REASONING_EFFORTS = ["off", "low", "medium", "high"] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];
export const ReasoningEffortSchema = z.enum(REASONING_EFFORTS);

/** The effort of a model that reasons when neither the run nor its roster entry names one. */
export const DEFAULT_REASONING: ReasoningEffort = "low";

/** Tokens of thinking room a call gets on top of its answer's budget, per effort. */
export const THINKING_ROOM: Record<ReasoningEffort, number> = { off: 0, low: 2_000, medium: 6_000, high: 16_000 };

/**
 * The thinking room of the one retry of an answer that came back empty because its thinking used
 * the whole cap: twice the room it had, and at least the medium effort's.
 */
export function retryRoom(effort: ReasoningEffort | undefined): number {
  return Math.max(2 * THINKING_ROOM[effort ?? "off"], THINKING_ROOM.medium);
}

/**
 * Model ids that reason by default (some always): OpenAI's o-series and gpt-5 (not gpt-5-chat),
 * Grok 4 and Grok 3 mini, Gemini 2.5 and later, DeepSeek R1, QwQ and Qwen's thinking models,
 * Magistral, gpt-oss, and any id that says `thinking` or `reasoning`.
 */
const REASONERS = /(^|\/)(o\d|gpt-5(?!-chat)|grok-4|grok-3-mini|gemini-(2\.5|[3-9])|deepseek-r1|qwq|magistral|gpt-oss)|thinking|reason/i;

/** True when `model` is known to reason by default. */
export function reasonsByDefault(model: string): boolean {
  return REASONERS.test(model);
}

/**
 * The effort a call of `model` runs at: the run's, else the roster entry's, else the default for a
 * model that reasons (known by its id, or by `reasons`: it was seen reasoning), else none (the
 * model is not asked about thinking and gets no room).
 */
export function effortFor(model: string, run: ReasoningEffort | undefined, own: ReasoningEffort | undefined, reasons = false): ReasoningEffort | undefined {
  return run ?? own ?? (reasons || reasonsByDefault(model) ? DEFAULT_REASONING : undefined);
}

/** The thinking room of a call at `effort`: none without one. */
export function thinkingRoom(effort: ReasoningEffort | undefined): number {
  return effort ? THINKING_ROOM[effort] : 0;
}

/** The thinking tokens a call of `model` is expected to use at most (its effort's room), for an estimate. */
export function thinkingTokens(model: string, run: ReasoningEffort | undefined, own: ReasoningEffort | undefined): number {
  return thinkingRoom(effortFor(model, run, own));
}
