import { z } from "zod";
import { AnswerNotesShape } from "../answer-schema.js";
import { UsageSchema } from "../usage.js";
import { stamp } from "./shared.js";

/** The events of /compare: the answers, each streamed, side by side. */
export const COMPARE_EVENTS = {
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
} as const;
