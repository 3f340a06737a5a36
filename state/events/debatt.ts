import { z } from "zod";
import { AnswerNotesShape } from "../answer-schema.js";
import { UsageSchema } from "../usage.js";
import { DebateResultsSchema } from "../debate.js";
import { DEBATE_ORDERS, VOICE_PACINGS } from "../formats.js";
import { RoundTypeSchema, speaker, stamp } from "./shared.js";

/** The events of a debate (/debatt and /dvoice): its participants, rounds, turns, votes, results, synthesis and voice. */
export const DEBATT_EVENTS = {
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
    z.object({
      kind: z.literal("turn"),
      round: z.number().int(),
      participant: z.string(),
      position: z.number().int(),
      word_limit: z.number().int(),
      deadline: z.number().int(),
      ...stamp,
    }),
    z.object({ kind: z.literal("vote"), round: z.literal(4), participant: z.string(), candidates: z.array(z.string()), deadline: z.number().int(), ...stamp }),
  ]),
  /** The person's seat was skipped (added): `timeout` (no answer by the deadline) or `passed` (they chose to). */
  debate_input_skipped: z.object({
    kind: z.enum(["turn", "vote"]),
    round: z.number().int(),
    participant: z.string(),
    reason: z.enum(["timeout", "passed"]),
    ...stamp,
  }),
  debate_results: DebateResultsSchema.extend(stamp),
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
} as const;
