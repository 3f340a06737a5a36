import { z } from "zod";

/**
 * A follow-up to one participant of a finished run: who it is, what the run was asked, and what
 * it said there. The run service reads it from the history; the graph answers the follow-up with
 * that participant's model, which goes on from its own words.
 */
export const ContinuationSchema = z.object({
  /** The run it continues (its id). */
  run_id: z.string(),
  participant: z.object({ key: z.string(), display: z.string(), model: z.string() }),
  /** The run's format, as stored (`vote`, `debatt`, …). */
  format: z.string(),
  /** What the run was asked. */
  question: z.string(),
  /** What the participant said in the run, in order (its answers, turns, revisions, arguments, verdicts). */
  said: z.array(z.string()),
  /** The follow-ups to it since, each with its answer, in order. */
  follow_ups: z.array(z.object({ question: z.string(), answer: z.string() })),
});
export type Continuation = z.infer<typeof ContinuationSchema>;
