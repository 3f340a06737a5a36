import { z } from "zod";
import { LabelMapSchema, Stage1ResponseSchema, WhoSchema } from "../deliberation.js";
import { ROUND_TYPES } from "../formats.js";
import { DebateWinnerSchema } from "../revise.js";
import { VoteWinnerSchema } from "../vote.js";

/**
 * What the formats' events share: the timestamp, a speaker, the ids a deliberation's start
 * carries, its first answers, and the events several formats send alike.
 */
/** Every payload's time of emission. */
export const stamp = { timestamp: z.string() };

/** Who speaks in a participant event. */
export const speaker = { model: z.string(), model_key: z.string(), round: z.number().int() };

/** The four round types of a debate. */
export const RoundTypeSchema = z.enum(ROUND_TYPES);
export type RoundType = z.infer<typeof RoundTypeSchema>;

/** The ids a deliberation format's start event carries (`conversationId`, `messageId`). */
export const started = { conversationId: z.string(), messageId: z.string() };

/** Stage 1 of a deliberation format: the answers (Stage1Response[]) and who failed. */
export const Stage1CompleteSchema = z.object({
  data: z.array(Stage1ResponseSchema),
  failed: z.array(z.object({ ...WhoSchema.shape, error: z.string() })),
  ...stamp,
});

const VoteStartSchema = z
  .object({
    ...started,
    mode: z.literal("vote"),
    question: z.string(),
    participants: z.array(WhoSchema),
    chairman: WhoSchema,
    simulated: z.boolean(),
    ...stamp,
  })
  .strict();

/** What the deliberation formats (/vote, /revise, /deep, /council) all send. */
export const DELIBERATION_EVENTS = {
  /** Deliberation formats: streamed text of one model in one stage (`collect`, `vote`, `tiebreaker`, …). */
  answer_delta: z.object({ mode: z.string(), stage: z.string(), ...WhoSchema.shape, delta: z.string(), ...stamp }),
  /**
   * Deliberation formats: one model's text in one stage has ended (after its last `answer_delta`):
   * `status` `ok`, or `error` with why; `response_time_ms` since it was asked. Parallel answers end
   * one by one, before their stage's `…-complete` event carries them all.
   */
  answer_end: z.object({
    mode: z.string(),
    stage: z.string(),
    ...WhoSchema.shape,
    status: z.enum(["ok", "error"]),
    error: z.string().optional(),
    responseTimeMs: z.number().int(),
    ...stamp,
  }),
  /** Deliberation formats: the conversation's generated title. */
  title_complete: z.object({ data: z.object({ title: z.string() }), ...stamp }),
  /** Deliberation formats: the deliberation finished (the stream then ends with `done`). */
  complete: z.object({ ...stamp }),
} as const;

/** What /vote and /revise both send: their votes on labelled answers. */
export const LABELLED_VOTE_EVENTS = {
  /** /vote: the run begins; /revise: its vote on the revised answers begins (both use this name). */
  vote_start: z.union([VoteStartSchema, z.object({ data: z.object({ revisedLabelMap: LabelMapSchema }), ...stamp }).strict()]),
  vote_round_start: z.object({ ...stamp }),
  /** /vote's VoteWinnerResult or /revise's DebateWinnerResult (`winnerDisplay` added to both). */
  winner_declared: z.union([
    z.object({ data: VoteWinnerSchema.strict(), ...stamp }).strict(),
    z.object({ data: DebateWinnerSchema.strict(), ...stamp }).strict(),
  ]),
} as const;

/** A deliberation's first answers (/vote, /deep). */
export const STAGE1_EVENTS = {
  stage1_start: z.object({ ...stamp }),
  /** /vote and /deep: the answers (`failed` added: who did not answer, and why). */
  stage1_complete: Stage1CompleteSchema,
} as const;
