import { z } from "zod";
import { DebaterArgumentSchema, ModeratorAssessmentSchema, VerdictSchema } from "./deliberation.js";

/**
 * The graph's custom events (snake_case, as emitted through `config.writer`) and their payloads.
 * The payload fields are those of seed 003 §3.7 (see ARCHITECTURE.md), each with `timestamp`.
 * Clients see the names in kebab-case (`kebabEventName`).
 */
const stamp = { timestamp: z.string() };

/** Who speaks in a participant event. */
const speaker = { model: z.string(), model_key: z.string(), round: z.number().int() };

/** The four round types of seed §1. */
export const RoundTypeSchema = z.enum(["introduction", "argument", "deepening", "voting"]);
export type RoundType = z.infer<typeof RoundTypeSchema>;

/** The ids a seed format's start event carries (the seeds' `conversationId`, `messageId`). */
const started = { conversationId: z.string(), messageId: z.string() };

/** Who a seed-format payload is about (camelCase, as the seeds write it). */
const who = { model: z.string(), display: z.string(), modelKey: z.string() };
const WhoSchema = z.object(who);

const Stage1ResponseSchema = z.object({ model: z.string(), response: z.string(), responseTimeMs: z.number().int(), display: z.string(), modelKey: z.string() });

/** Seed 001 VoteResponse. */
const VoteResponseSchema = z.object({
  ...who,
  voteText: z.string(),
  votedFor: z.string().nullable(),
  responseTimeMs: z.number().int(),
  error: z.string().optional(),
  anonymityBreach: z.array(z.string()),
});

const LabelMapSchema = z.record(z.string(), z.string());

/** A counted vote (seed 001 VoteRoundResult, seed 000 DebateVoteResult), without its label map. */
const counted = {
  votes: z.array(VoteResponseSchema),
  tallies: z.record(z.string(), z.number().int()),
  validVoteCount: z.number().int(),
  invalidVoteCount: z.number().int(),
  isTie: z.boolean(),
  tiedLabels: z.array(z.string()),
  anonymityFlagged: z.number().int(),
};
const RevisionDecisionSchema = z.enum(["REVISE", "STAND", "MERGE"]);

/** Stage 1 of a seed format: the answers (seed Stage1Response[]) and who failed. */
const Stage1CompleteSchema = z.object({
  data: z.array(Stage1ResponseSchema),
  failed: z.array(z.object({ ...who, error: z.string() })),
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

const winnerCommon = {
  winnerLabel: z.string(),
  winnerModel: z.string(),
  winnerResponse: z.string(),
  voteCount: z.number().int(),
  totalVotes: z.number().int(),
  tiebroken: z.boolean(),
  winnerDisplay: z.string(),
};
/** Seed 001 VoteWinnerResult. */
const VoteWinnerSchema = z.object({ ...winnerCommon, tiebreakerModel: z.string().optional() }).strict();
/** Seed 000 DebateWinnerResult. */
const DebateWinnerSchema = z.object({ ...winnerCommon, winnerDecision: RevisionDecisionSchema.nullable(), tiebreakerMethod: z.literal("alphabetical").optional() }).strict();

/** A /deep debater's turn of a round. */
const DebaterTurnSchema = z
  .object({
    round: z.number().int(),
    label: z.string(),
    modelKey: z.string(),
    display: z.string(),
    model: z.string(),
    status: z.enum(["ok", "error"]),
    argument: DebaterArgumentSchema.strict().optional(),
    responseTimeMs: z.number().int(),
    error: z.string().optional(),
  })
  .strict();

/** A /council judge's verdict of one round. */
const JudgeRoundSchema = z
  .object({
    round: z.union([z.literal(1), z.literal(2)]),
    modelKey: z.string(),
    display: z.string(),
    model: z.string(),
    perspective: z.string(),
    status: z.enum(["ok", "error", "timeout"]),
    verdict: VerdictSchema.strict().optional(),
    restatement: z.string().optional(),
    changeJustification: z.string().optional(),
    unjustifiedChange: z.boolean().optional(),
    text: z.string(),
    responseTimeMs: z.number().int(),
    error: z.string().optional(),
  })
  .strict();

export const EventSchemas = {
  debate_init: z.object({
    participants: z.array(
      z.object({ key: z.string(), display: z.string(), model: z.string(), oneseek: z.boolean() }),
    ),
    topic: z.string(),
    total_rounds: z.number().int(),
    voice_mode: z.boolean(),
    debate_id: z.string(),
    simulated: z.boolean(),
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
    ...stamp,
  }),
  debate_round_end: z.object({ round: z.number().int(), participant_count: z.number().int(), ...stamp }),
  debate_vote_result: z.object({
    voter: z.string(),
    voted_for: z.string(),
    motivation: z.string(),
    bullets: z.array(z.string()).length(3),
    ...stamp,
  }),
  debate_results: z.object({
    winner: z.string(),
    vote_counts: z.record(z.string(), z.number().int()),
    tiebreaker_used: z.boolean(),
    /** Which tiebreak decided: none, total word count, or alphabetical order. */
    tiebreaker: z.enum(["none", "word_count", "alphabetical"]),
    word_counts: z.record(z.string(), z.number().int()),
    total_votes: z.number().int(),
    self_votes_filtered: z.number().int(),
    /** Ballots that named nobody, were empty or did not parse. */
    invalid_votes: z.number().int(),
    ...stamp,
  }),
  text_delta: z.object({ delta: z.string(), ...stamp }),
  debate_synthesis_complete: z.object({
    winner: z.string(),
    vote_counts: z.record(z.string(), z.number().int()),
    synthesis_length: z.number().int(),
    ...stamp,
  }),
  debate_voice_speaker: z.object({
    ...speaker,
    voice: z.string(),
    /** Sentences the answer is spoken in. */
    total_sentences: z.number().int(),
    /** Speech provider: `openai` or the local `espeak-ng`. */
    provider: z.string(),
    ...stamp,
  }),
  debate_voice_chunk: z.object({
    ...speaker,
    chunk_index: z.number().int(),
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
    ...stamp,
  }),
  compare_complete: z.object({ answered: z.number().int(), failed: z.number().int(), ...stamp }),
  /** Seed formats: streamed text of one model in one stage (`collect`, `vote`, `tiebreaker`, …). */
  answer_delta: z.object({ mode: z.string(), stage: z.string(), ...who, delta: z.string(), ...stamp }),
  /** Seed formats: the conversation's generated title. */
  title_complete: z.object({ data: z.object({ title: z.string() }), ...stamp }),
  /** Seed formats: the deliberation finished (the stream then ends with `done`). */
  complete: z.object({ ...stamp }),
  /** Seed 001: a /vote begins; seed 000: /revise's vote on the revised answers begins (same name). */
  vote_start: z.union([VoteStartSchema, z.object({ data: z.object({ revisedLabelMap: LabelMapSchema }), ...stamp }).strict()]),
  stage1_start: z.object({ ...stamp }),
  /** Seed 001: the answers (`failed` added: who did not answer, and why). */
  stage1_complete: Stage1CompleteSchema,
  vote_round_start: z.object({ ...stamp }),
  vote_round_complete: z.object({
    data: z.object({
      ...counted,
      labelToModel: LabelMapSchema,
    }),
    ...stamp,
  }),
  tiebreaker_start: z.object({ tiedLabels: z.array(z.string()), ...stamp }),
  tiebreaker_complete: z.object({
    data: z.object({
      model: z.string(),
      voteText: z.string(),
      votedFor: z.string(),
      responseTimeMs: z.number().int(),
      attempts: z.number().int(),
      fallback: z.boolean(),
    }),
    ...stamp,
  }),
  /** Seed 001 VoteWinnerResult or seed 000 DebateWinnerResult (`winnerDisplay` added to both). */
  winner_declared: z.union([
    z.object({ data: VoteWinnerSchema, ...stamp }).strict(),
    z.object({ data: DebateWinnerSchema, ...stamp }).strict(),
  ]),
  /** Seed 000: a /revise begins (`question`, `participants`, `antiAnchoring`, `simulated` added). */
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
  /** Seed 000: the first answers (`failed` added). */
  round1_complete: Stage1CompleteSchema,
  revision_start: z.object({ data: z.object({ labelMap: LabelMapSchema }), ...stamp }),
  revision_complete: z.object({
    data: z.object({
      revisions: z.array(
        z.object({
          ...who,
          decision: RevisionDecisionSchema.nullable(),
          reasoning: z.string().nullable(),
          originalResponse: z.string(),
          revisedResponse: z.string(),
          originalWordCount: z.number().int(),
          revisedWordCount: z.number().int(),
          responseTimeMs: z.number().int(),
          parseSuccess: z.boolean(),
          revisionText: z.string(),
          restatement: z.string().optional(),
          error: z.string().optional(),
        }).strict(),
      ),
      summary: z.object({ totalModels: z.number().int(), revised: z.number().int(), stood: z.number().int(), merged: z.number().int(), parseFailed: z.number().int() }).strict(),
    }),
    ...stamp,
  }),
  /** Seed 000 DebateVoteResult (`anonymityFlagged` added). */
  vote_complete: z.object({
    data: z.object({
      ...counted,
      revisedLabelToModel: LabelMapSchema,
    }),
    ...stamp,
  }),
  /** /deep (seed 004, which names no events): the run begins. */
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
    arguments: z.array(DebaterTurnSchema),
    assessment: ModeratorAssessmentSchema.strict().nullable(),
    moderatorError: z.string().optional(),
    stop: z.boolean(),
    reason: z.enum(["converged", "all_no_change", "max_rounds", "continue", "no_arguments"]),
    ...stamp,
  }),
  /** /deep: seed 004's output object, handed to the synthesis. */
  deep_output: z.object({
    data: z.object({
      mode: z.literal("deep"),
      rounds_completed: z.number().int(),
      final_stances: z.array(z.object({ debater: z.string(), stance: z.string(), confidence: z.number(), revised_position: z.string() }).strict()),
      convergence_status: z.object({
        agreement_score: z.number().nullable(),
        new_points_ratio: z.number().nullable(),
        consensus_answer: z.string().nullable(),
        remaining_disagreements: z.array(z.string()),
      }).strict(),
      debate_log: z.array(z.string()),
    }).strict(),
    ...stamp,
  }),
  /** /deep: the final answer (`fallback` when the synthesis model failed and the consensus stands in). */
  deep_synthesis_complete: z.object({ data: z.object({ synthesis: z.string(), fallback: z.boolean(), error: z.string().optional() }).strict(), ...stamp }),
  /** /council (seed 002, which names no events): the run begins; each judge with its perspective. */
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
  council_round_start: z.object({ round: z.number().int(), branch: z.enum(["agreed", "disagreed"]).optional(), ...stamp }),
  /** /council: one judge's verdict of a round, as soon as it lands. */
  council_verdict: JudgeRoundSchema.extend(stamp),
  /** /council: a round's verdicts, and whether they were unanimous. */
  council_round_complete: z.object({ round: z.number().int(), verdicts: z.array(JudgeRoundSchema), unanimous: z.boolean(), ...stamp }),
  /** /council: the final verdicts per judge (round 2, or round 1 as fallback) and the consensus. */
  council_consolidation: z.object({
    data: z.object({
      verdicts: z.array(VerdictSchema.extend({ modelKey: z.string(), display: z.string(), perspective: z.string(), source: z.enum(["round1", "round2"]) }).strict()),
      counts: z.object({ PASS: z.number().int(), WARN: z.number().int(), FAIL: z.number().int() }).strict(),
      consensus: z.enum(["PASS", "WARN", "FAIL"]),
      unanimous: z.boolean(),
      round2: z.enum(["skipped", "complete", "partial", "failed"]),
      branch: z.enum(["agreed", "disagreed"]).optional(),
      note: z.string().optional(),
    }).strict(),
    ...stamp,
  }),
  /** /council: the consolidated report (`fallback` when the report model failed). */
  council_report_complete: z.object({ data: z.object({ report: z.string(), fallback: z.boolean(), error: z.string().optional() }).strict(), ...stamp }),
  error: z.object({ message: z.string(), code: z.string(), ...stamp }),
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
 * name the graph does not emit. Tests hold every payload to it.
 */
export function strictEventSchema(kebabName: string): z.ZodType | undefined {
  const schema = (EventSchemas as Record<string, z.ZodType>)[kebabName.replace(/-/g, "_")];
  // The union members are declared strict already.
  return schema instanceof z.ZodObject ? schema.strict() : schema;
}
