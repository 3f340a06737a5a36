import { z } from "zod";
import { FORMAT_IDS } from "./formats.js";
import { VOTING_FORMATS } from "./leaderboard/ballots.js";
import { BIASES } from "./leaderboard/vote-biases.js";
import { UsageReportSchema } from "./usage.js";

/**
 * The REST responses the page reads, declared once in zod: the routes answer with values of these
 * types (checked by the compiler where they are built), tests check what a real server answers
 * against the schemas, and the page's client (web/api-client.ts) takes its types from them with
 * `import type`, so no zod reaches its bundle.
 */

/** What a run or conversation is: a format's, or the chat's. */
const RunKindSchema = z.enum([...FORMAT_IDS, "chat"]);

/** A stored message as `GET /api/v1/conversations/:id` answers it. */
export const StoredMessageSchema = z
  .object({
    id: z.string(),
    role: z.enum(["user", "assistant"]),
    content: z.string(),
    status: z.enum(["streaming", "complete", "error", "cancelled"]),
    error: z.string().nullable(),
    createdAt: z.string(),
    /** An answer's format (`chat` for a chat answer); `mode` is the name it is stored under (`debate` for /revise). */
    format: RunKindSchema.optional(),
    mode: z.string().optional(),
    /** An answer's full result, as its run stored it (each format's page view declares its shape). */
    result: z.unknown().optional(),
    /** What the run's model calls used and cost (runs stored before it was recorded have none). */
    usage: UsageReportSchema.optional(),
  })
  .strict();
export type StoredMessage = z.infer<typeof StoredMessageSchema>;

/** A conversation as `GET /api/v1/conversations/:id` answers it, and as an export holds it. */
export const StoredConversationSchema = z
  .object({
    id: z.string(),
    title: z.string().nullable(),
    /** Its format (`chat` for the chat's); `mode` is the name it is stored under. */
    format: RunKindSchema,
    mode: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    messages: z.array(StoredMessageSchema),
  })
  .strict();
export type StoredConversation = z.infer<typeof StoredConversationSchema>;

/** `POST /api/v1/debates/:id/input`: the run that goes on, the same or (`resumed`) a new run of its thread. */
export const InputAcceptedSchema = z.object({ run_id: z.string(), thread_id: z.string(), status: z.enum(["accepted", "resumed"]) }).strict();
export type InputAccepted = z.infer<typeof InputAcceptedSchema>;

/** `POST /api/v1/debates/:id/cancel`: stopping (the run is live here or elsewhere) or cancelled (it was waiting). */
export const CancelAcceptedSchema = z.object({ run_id: z.string(), status: z.enum(["stopping", "cancelled"]) }).strict();
export type CancelAccepted = z.infer<typeof CancelAcceptedSchema>;

/** `GET /api/v1/conversations/:id/share`: whether it has a link, since when. */
export const ShareStatusSchema = z.object({ shared: z.boolean(), createdAt: z.string().nullable() }).strict();
export type ShareStatus = z.infer<typeof ShareStatusSchema>;

/** `POST /api/v1/conversations/:id/share`: the link. */
export const ShareLinkSchema = z.object({ url: z.string(), token: z.string(), createdAt: z.string() }).strict();
export type ShareLink = z.infer<typeof ShareLinkSchema>;

/** A finding of what besides quality decides the votes, in `GET /api/v1/leaderboard`. */
const BiasFindingSchema = z
  .object({
    id: z.enum(BIASES),
    ballots: z.number(),
    observed: z.number(),
    expected: z.number(),
    p_value: z.number().nullable(),
    significant: z.boolean(),
    correlation: z.number().optional(),
  })
  .strict();

/** `GET /api/v1/leaderboard`: the models' ratings from the votes of the user's history, and the biases in the votes. */
export const LeaderboardReportSchema = z
  .object({
    filters: z.object({ format: z.enum(VOTING_FORMATS).nullable(), since: z.string().nullable() }).strict(),
    runs: z.number(),
    ballots: z.number(),
    choices: z.number(),
    simulated_ballots: z.number(),
    models: z.array(
      z
        .object({
          model: z.string(),
          /** The name people saw for the model in the runs (its participant's display name); null when the history has none. */
          display: z.string().nullable(),
          score: z.number(),
          low: z.number(),
          high: z.number(),
          wins: z.number(),
          appearances: z.number(),
        })
        .strict(),
    ),
    biases: z.array(BiasFindingSchema),
    method: z.object({ model: z.literal("luce"), prior: z.number(), resamples: z.number(), seed: z.number() }).strict(),
  })
  .strict();
export type LeaderboardReportBody = z.infer<typeof LeaderboardReportSchema>;
