import { Annotation } from "@langchain/langgraph";
import { z } from "zod";
import { appended, replace } from "./channels.js";
import { answerChannels, deliberationChannels, finalTextChannels, WhoSchema, type CollectedAnswer } from "./deliberation.js";
import type { Participant } from "./participants.js";
import { UsageSchema } from "./usage.js";
import { MOA } from "./formats/moa.js";

/**
 * /moa's payloads and state: the proposers' answers layer by layer (the first layer's are the
 * run's `answers`, as every deliberation format's) and the aggregator's final answer.
 */

/** /moa's own options (its definition adds the per-call timeout): how many layers, and who aggregates. */
export const MoaOptionsSchema = z.object({
  layers: z
    .number()
    .int()
    .min(MOA.rounds.min)
    .max(MOA.rounds.max)
    .optional()
    .describe(
      `How many layers, the aggregator's included (${MOA.rounds.min}–${MOA.rounds.max}, default ${MOA.rounds.default}: two layers of proposers, then the aggregator)`,
    ),
  aggregator: z
    .string()
    .min(1, "aggregator is empty")
    .max(64)
    .optional()
    .describe("The aggregator who writes the final answer (roster key, name or model id; default: the internal model)"),
});

/** A proposer's answer in a layer after the first (it read the layer before's answers as references). */
export interface MoaProposal extends CollectedAnswer {
  /** Its layer, 2 or more (layer 1 holds the first answers). */
  layer: number;
}

/** The run's answer: the aggregator's, or (`fallback`) the last layer's first answer when the aggregator failed. */
export const MoaFinalSchema = z.object({
  answer: z.string(),
  /** Who wrote it: the aggregator, or on a fallback the proposer whose answer stands in. */
  ...WhoSchema.shape,
  fallback: z.boolean(),
  /** Why the aggregator failed, on a fallback. */
  error: z.string().optional(),
  /** The layer whose answers it read as references. */
  layer: z.number().int(),
  /** How many references it read. */
  references: z.number().int(),
  responseTimeMs: z.number().int(),
  /** What the aggregator's call used, when the provider said. */
  usage: UsageSchema.optional(),
});
export type MoaFinal = z.infer<typeof MoaFinalSchema>;

/**
 * The /moa subgraph's state: the keys it shares with the top graph, the panel's, the first answers
 * and its own. Its nodes see nothing of the other formats.
 */
export const MoaState = Annotation.Root({
  ...deliberationChannels,
  ...answerChannels,
  ...finalTextChannels,
  /** The aggregator, who writes the final answer. */
  aggregator: replace<Participant | null>(() => null),
  /** How many layers, the aggregator's included. */
  layers: replace<number>(() => 3),
  /** The last layer whose answers are in (0 before the first). */
  layer: replace<number>(() => 0),
  /** The answers of the layers after the first, one update per proposer and layer. */
  proposals: appended<MoaProposal>(),
  /** The references the next layer (or the aggregator) reads: the last layer that answered, with its number. */
  references: replace<{ layer: number; texts: string[] }>(() => ({ layer: 0, texts: [] })),
  /** The final answer and who wrote it. */
  final: replace<MoaFinal | null>(() => null),
});
export type MoaStateType = typeof MoaState.State;
export type MoaUpdate = typeof MoaState.Update;
