import { z } from "zod";
import { AnswerNotesShape } from "./answer-schema.js";
import { UsageReportSchema, UsageSchema } from "./usage.js";
import { CouncilResultSchema, BranchSchema, JudgeRoundSchema } from "./council.js";
import { DebateResultsSchema } from "./debate.js";
import { DebaterTurnSchema, DeepOutputSchema, ModeratorAssessmentSchema } from "./deep.js";
import { LabelMapSchema, Stage1ResponseSchema, WhoSchema } from "./deliberation.js";
import { ERROR_CODES, REASON_KEYS } from "./errors.js";
import { DEBATE_ORDERS, ROUND_TYPES, VOICE_PACINGS } from "./formats.js";
import { DebateVoteResultSchema, DebateWinnerSchema, RevisionResponseSchema, RevisionSummarySchema } from "./revise.js";
import { TiebreakerResultSchema, VoteRoundResultSchema, VoteWinnerSchema } from "./vote.js";

/**
 * The graph's custom events (snake_case, as emitted through `config.writer`) and their payloads.
 * The payload fields are those of ARCHITECTURE.md's event contract, each with `timestamp`.
 * Clients see the names in kebab-case (`kebabEventName`).
 */
const stamp = { timestamp: z.string() };

/** Who speaks in a participant event. */
const speaker = { model: z.string(), model_key: z.string(), round: z.number().int() };

/** The four round types of a debate. */
export const RoundTypeSchema = z.enum(ROUND_TYPES);
export type RoundType = z.infer<typeof RoundTypeSchema>;

/** The ids a deliberation format's start event carries (`conversationId`, `messageId`). */
const started = { conversationId: z.string(), messageId: z.string() };

/** Stage 1 of a deliberation format: the answers (Stage1Response[]) and who failed. */
const Stage1CompleteSchema = z.object({
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

export const EventSchemas = {
  debate_init: z.object({
    participants: z.array(
      z.object({
        key: z.string(),
        display: z.string(),
        model: z.string(),
        oneseek: z.boolean(),
        /** True for the seat of the person who joined (`--with-me`; added): its key is `person`, its model `person`. */
        person: z.literal(true).optional(),
      }),
    ),
    topic: z.string(),
    total_rounds: z.number().int(),
    voice_mode: z.boolean(),
    debate_id: z.string(),
    simulated: z.boolean(),
    /** What the debate is expected to use and cost (added; see `POST /api/v1/estimate`). */
    estimate: UsageSchema.optional(),
    /** How the speakers take turns within a round (added): `sequential`, or `simultaneous`, where their deltas interleave. */
    order: z.enum(DEBATE_ORDERS).optional(),
    /** /dvoice (added): `paced` when each speaker's text waits until the previous speaker's audio starts playing, else `off`. */
    voice_pacing: z.enum(VOICE_PACINGS).optional(),
    /** /dvoice (added): the word limit of each spoken round, 1–3 (the voice settings'). */
    word_limits: z.array(z.number().int()).optional(),
    ...stamp,
  }),
  debate_round_start: z.object({
    round: z.number().int(),
    type: RoundTypeSchema,
    order: z.array(z.string()),
    ...stamp,
  }),
  debate_participant_start: z.object({ ...speaker, position: z.number().int(), ...stamp }),
  debate_participant_delta: z.object({ ...speaker, delta: z.string(), ...stamp }),
  debate_participant_end: z.object({
    ...speaker,
    position: z.number().int(),
    word_count: z.number().int(),
    latency_ms: z.number().int(),
    response_preview: z.string(),
    status: z.enum(["ok", "error"]),
    error: z.string().optional(),
    /** What the call used (added), when the provider said. */
    usage: UsageSchema.optional(),
    /** Added: the turn's reasoning, its sources and how it ended when it was not whole (see "Reasoning, sources and endings"). */
    ...AnswerNotesShape,
    ...stamp,
  }),
  debate_round_end: z.object({ round: z.number().int(), participant_count: z.number().int(), ...stamp }),
  debate_vote_result: z.object({
    voter: z.string(),
    voted_for: z.string(),
    motivation: z.string(),
    /** Three points for a model's vote; none for the person's (added: a person gives only the motivation). */
    bullets: z.array(z.string()).max(3),
    ...stamp,
  }),
  /**
   * A debate joined with `--with-me` waits for the person (added): their turn in a round, or their
   * vote in round 4. Answer with `POST /api/v1/debates/:id/input`; after `deadline` (epoch ms) the
   * seat is skipped. Sent again to a client that resumes the run while it still waits.
   */
  debate_awaiting_input: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("turn"), round: z.number().int(), participant: z.string(), position: z.number().int(), word_limit: z.number().int(), deadline: z.number().int(), ...stamp }),
    z.object({ kind: z.literal("vote"), round: z.literal(4), participant: z.string(), candidates: z.array(z.string()), deadline: z.number().int(), ...stamp }),
  ]),
  /** The person's seat was skipped (added): `timeout` (no answer by the deadline) or `passed` (they chose to). */
  debate_input_skipped: z.object({ kind: z.enum(["turn", "vote"]), round: z.number().int(), participant: z.string(), reason: z.enum(["timeout", "passed"]), ...stamp }),
  debate_results: DebateResultsSchema.extend(stamp),
  text_delta: z.object({ delta: z.string(), ...stamp }),
  continue_start: z.object({
    /** The run whose participant answers. */
    run_id: z.string(),
    participant: z.object({ key: z.string(), display: z.string(), model: z.string() }),
    ...stamp,
  }),
  debate_synthesis_complete: z.object({
    /** Null when not one valid vote was cast. */
    winner: z.string().nullable(),
    vote_counts: z.record(z.string(), z.number().int()),
    synthesis_length: z.number().int(),
    ...stamp,
  }),
  debate_voice_speaker: z.object({
    ...speaker,
    voice: z.string(),
    /** Sentences the answer is spoken in. */
    total_sentences: z.number().int(),
    /** Their texts, in order (as spoken: without markdown). */
    sentences: z.array(z.string()),
    /** Speech provider: `openai` or the local `espeak-ng`. */
    provider: z.string(),
    ...stamp,
  }),
  debate_voice_chunk: z.object({
    ...speaker,
    chunk_index: z.number().int(),
    /** The sentence (index into the speaker event's `sentences`) the chunk's audio begins in. */
    sentence_index: z.number().int(),
    /** Raw PCM, base64: 24 kHz, 16-bit signed little-endian, mono. */
    pcm_b64: z.string(),
    sample_rate: z.number().int(),
    bit_depth: z.number().int(),
    channels: z.number().int(),
    ...stamp,
  }),
  debate_voice_done: z.object({ ...speaker, total_bytes: z.number().int(), total_chunks: z.number().int(), ...stamp }),
  debate_voice_error: z.object({ model: z.string(), round: z.number().int(), error: z.string(), ...stamp }),
  compare_start: z.object({
    question: z.string(),
    participants: z.array(z.object({ key: z.string(), display: z.string(), model: z.string() })),
    simulated: z.boolean(),
    ...stamp,
  }),
  compare_answer_start: z.object({ model: z.string(), model_key: z.string(), ...stamp }),
  compare_answer_delta: z.object({ model: z.string(), model_key: z.string(), delta: z.string(), ...stamp }),
  compare_answer_end: z.object({
    model: z.string(),
    model_key: z.string(),
    word_count: z.number().int(),
    latency_ms: z.number().int(),
    status: z.enum(["ok", "error"]),
    error: z.string().optional(),
    /** What the call used (added), when the provider said. */
    usage: UsageSchema.optional(),
    /** Added: the answer's reasoning, its sources and how it ended when it was not whole. */
    ...AnswerNotesShape,
    ...stamp,
  }),
  compare_complete: z.object({ answered: z.number().int(), failed: z.number().int(), ...stamp }),
  /** Deliberation formats: streamed text of one model in one stage (`collect`, `vote`, `tiebreaker`, …). */
  answer_delta: z.object({ mode: z.string(), stage: z.string(), ...WhoSchema.shape, delta: z.string(), ...stamp }),
  /** Deliberation formats: the conversation's generated title. */
  title_complete: z.object({ data: z.object({ title: z.string() }), ...stamp }),
  /** Deliberation formats: the deliberation finished (the stream then ends with `done`). */
  complete: z.object({ ...stamp }),
  /** /vote: the run begins; /revise: its vote on the revised answers begins (both use this name). */
  vote_start: z.union([VoteStartSchema, z.object({ data: z.object({ revisedLabelMap: LabelMapSchema }), ...stamp }).strict()]),
  stage1_start: z.object({ ...stamp }),
  /** /vote and /deep: the answers (`failed` added: who did not answer, and why). */
  stage1_complete: Stage1CompleteSchema,
  vote_round_start: z.object({ ...stamp }),
  vote_round_complete: z.object({ data: VoteRoundResultSchema, ...stamp }),
  tiebreaker_start: z.object({ tiedLabels: z.array(z.string()), ...stamp }),
  tiebreaker_complete: z.object({ data: TiebreakerResultSchema, ...stamp }),
  /** /vote's VoteWinnerResult or /revise's DebateWinnerResult (`winnerDisplay` added to both). */
  winner_declared: z.union([
    z.object({ data: VoteWinnerSchema.strict(), ...stamp }).strict(),
    z.object({ data: DebateWinnerSchema.strict(), ...stamp }).strict(),
  ]),
  /** /revise: the run begins (`question`, `participants`, `antiAnchoring`, `simulated` added). */
  debate_start: z.object({
    ...started,
    mode: z.literal("debate"),
    question: z.string(),
    participants: z.array(WhoSchema),
    antiAnchoring: z.boolean(),
    simulated: z.boolean(),
    ...stamp,
  }),
  round1_start: z.object({ ...stamp }),
  /** /revise: the first answers (`failed` added). */
  round1_complete: Stage1CompleteSchema,
  revision_start: z.object({ data: z.object({ labelMap: LabelMapSchema }), ...stamp }),
  revision_complete: z.object({
    data: z.object({ revisions: z.array(RevisionResponseSchema.strict()), summary: RevisionSummarySchema.strict() }),
    ...stamp,
  }),
  /** /revise: the counted vote on the revised answers (`anonymityFlagged` added). */
  vote_complete: z.object({ data: DebateVoteResultSchema, ...stamp }),
  /** /deep (all its events are additions): the run begins. */
  deep_start: z.object({
    ...started,
    mode: z.literal("deep"),
    question: z.string(),
    participants: z.array(WhoSchema),
    minRounds: z.number().int(),
    maxRounds: z.number().int(),
    simulated: z.boolean(),
    ...stamp,
  }),
  /** /deep: a debate round begins; `debaters` names who is Debater A, B, … */
  deep_round_start: z.object({ round: z.number().int(), debaters: z.record(z.string(), WhoSchema), ...stamp }),
  /** /deep: a round's arguments, the moderator's assessment and the computed decision. */
  deep_round_complete: z.object({
    round: z.number().int(),
    arguments: z.array(DebaterTurnSchema.strict()),
    assessment: ModeratorAssessmentSchema.strict().nullable(),
    moderatorError: z.string().optional(),
    stop: z.boolean(),
    reason: z.enum(["converged", "all_no_change", "max_rounds", "continue", "no_arguments"]),
    ...stamp,
  }),
  /** /deep: the debate's output object, handed to the synthesis. */
  deep_output: z.object({ data: DeepOutputSchema.strict(), ...stamp }),
  /** /deep: the final answer (`fallback` when the synthesis model failed and the consensus stands in). */
  deep_synthesis_complete: z.object({ data: z.object({ synthesis: z.string(), fallback: z.boolean(), error: z.string().optional(), usage: UsageSchema.optional() }).strict(), ...stamp }),
  /** /council (all its events are additions): the run begins; each judge with its perspective. */
  council_start: z.object({
    ...started,
    mode: z.literal("council"),
    claim: z.string(),
    judges: z.array(z.object({ model: z.string(), display: z.string(), modelKey: z.string(), perspective: z.string() }).strict()),
    debate: z.boolean(),
    simulated: z.boolean(),
    ...stamp,
  }),
  /** /council: a round begins (round 2 with its branch). */
  council_round_start: z.object({ round: z.number().int(), branch: BranchSchema.optional(), ...stamp }),
  /** /council: one judge's verdict of a round, as soon as it lands. */
  council_verdict: JudgeRoundSchema.strict().extend(stamp),
  /** /council: a round's verdicts, and whether they were unanimous. */
  council_round_complete: z.object({ round: z.number().int(), verdicts: z.array(JudgeRoundSchema.strict()), unanimous: z.boolean(), ...stamp }),
  /** /council: the final verdicts per judge (round 2, or round 1 as fallback) and the consensus. */
  council_consolidation: z.object({ data: CouncilResultSchema.strict(), ...stamp }),
  /** /council: the consolidated report (`fallback` when the report model failed). */
  council_report_complete: z.object({ data: z.object({ report: z.string(), fallback: z.boolean(), error: z.string().optional(), usage: UsageSchema.optional() }).strict(), ...stamp }),
  /** A run stopped or refused: `code` for programs, `message` in English; `reason` (added) carries a refusal's values for the reader's own words. */
  error: z.object({
    message: z.string(),
    code: z.enum(ERROR_CODES),
    reason: z.object({ key: z.enum(REASON_KEYS), values: z.record(z.string(), z.union([z.string(), z.number()])) }).optional(),
    ...stamp,
  }),
} as const;

/** snake_case event names emitted by the graph. */
export type EventName = keyof typeof EventSchemas;
/** The payload of an event, including its timestamp. */
export type EventPayload<N extends EventName> = z.infer<(typeof EventSchemas)[N]>;
/** Omit over each member of a union (plain Omit would keep only the members' common keys). */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** What a node passes to `emit`: the payload without the timestamp, which emit adds. */
export type EventInput<N extends EventName> = DistributiveOmit<EventPayload<N>, "timestamp">;
/** One custom stream chunk as written through `config.writer`. */
export interface GraphEvent<N extends EventName = EventName> {
  event: N;
  data: EventPayload<N>;
}

/**
 * The schema of a client event (kebab-case name) that refuses extra fields, or undefined for a
 * name neither the graph nor the stream sends. Tests hold every payload to it.
 */
export function strictEventSchema(kebabName: string): z.ZodType | undefined {
  const name = kebabName.replace(/-/g, "_");
  const schema = (EventSchemas as Record<string, z.ZodType>)[name] ?? (StreamEventSchemas as Record<string, z.ZodType>)[name];
  // The union members are declared strict already.
  return schema instanceof z.ZodObject ? schema.strict() : schema;
}

/** The events the stream itself adds around the graph's: the run's ids first, `done` last. */
export const StreamEventSchemas = {
  /** The conversation and the run, before anything else (resume with the run id). */
  metadata: z.object({ thread_id: z.string(), run_id: z.string(), ...stamp }),
  /**
   * What the run's model calls used and cost, in all, by participant and by stage (a run that
   * made no model call sends none), just before `done`. `cost_usd` adds up the costs that are
   * known; `unpriced_calls` counts the calls whose cost is not (no price for the model, or a call
   * that failed before its provider said).
   */
  usage: UsageReportSchema.extend({ budget_usd: z.number().optional(), simulated: z.boolean(), ...stamp }),
  /** The last event of every stream. */
  done: z.object({ ...stamp }),
} as const;

/** `debate_round_start` → `debate-round-start`, as a type. */
export type Kebab<S extends string> = S extends `${infer A}_${infer B}` ? `${A}-${Kebab<B>}` : S;

/**
 * The kebab-case names made so far. Every event of a run shares its name's one string: a name made
 * anew per event is a string of its own (a concatenation, about 175 bytes), and a live debate
 * keeps thousands of events.
 */
const kebabNames = new Map<string, string>();

/** The client-facing name of an event: `debate_round_start` → `debate-round-start`. */
export function kebabEventName<N extends string>(name: N): Kebab<N> {
  let kebab = kebabNames.get(name);
  if (kebab === undefined) kebabNames.set(name, (kebab = name.replace(/_/g, "-")));
  return kebab as Kebab<N>;
}

type AllSchemas = typeof EventSchemas & typeof StreamEventSchemas;

/** An event as clients receive it: its kebab-case name and its payload, typed by the name. */
export type ClientEvent = { [N in keyof AllSchemas & string]: { event: Kebab<N>; data: z.infer<AllSchemas[N]> } }[keyof AllSchemas & string];

/** A client event's kebab-case name. */
export type ClientEventName = ClientEvent["event"];

/** The payload of the client event `name`. */
export type ClientPayload<N extends ClientEventName> = Extract<ClientEvent, { event: N }>["data"];
