import { Annotation } from "@langchain/langgraph";
import { z } from "zod";
import { UsageSchema } from "./usage.js";
import { appended, replace } from "./channels.js";
import { answerChannels, deliberationChannels, finalTextChannels, LabelMapSchema, WhoSchema } from "./deliberation.js";
import type { Participant } from "./participants.js";

/**
 * /rank's payloads and state: each model's ranking of the anonymised answers, the council's
 * ranking (the mean place of each answer over the valid rankings) and the chairman's final answer.
 */

/** Why a ranking does not count: its reply ranked no known label, gave one two places, left labels out, or the model failed. */
export const RankingProblemSchema = z.enum(["no_ranking", "unlisted", "repeated", "incomplete", "failed"]);

/** One model's ranking, as it lands. */
export const RankingResponseSchema = z.object({
  ...WhoSchema.shape,
  /** What the model wrote: its evaluation of each answer and the ranked list. */
  rankingText: z.string(),
  /** The labels in the order it ranked them, best first (unknown labels and repeats dropped). */
  parsedRanking: z.array(z.string()),
  /** Whether it ranks every answer exactly once: only valid rankings count. */
  valid: z.boolean(),
  /** Why it does not count, when it does not. */
  problem: RankingProblemSchema.optional(),
  /** Where the order was read from: the numbered list after `FINAL RANKING:`, the labels mentioned after it (no list), or the whole reply (no header: its last numbered list, else its mentions). */
  source: z.enum(["list", "section", "text"]),
  /** Labels it left out. */
  missing: z.array(z.string()),
  /** Labels its list gave more than one place. */
  repeated: z.array(z.string()),
  /** Labels it named that are not in play, dropped. */
  unknown: z.array(z.string()),
  responseTimeMs: z.number().int(),
  /** Why the model gave no ranking (an error or a timeout), when it did not. */
  error: z.string().optional(),
  /** Names of participants or vendors its text mentions (it may be guessing authors). */
  anonymityBreach: z.array(z.string()),
  /** What the call used, when the provider said. */
  usage: UsageSchema.optional(),
});
export type RankingResponse = z.infer<typeof RankingResponseSchema>;

/** One answer's place in the council's ranking, with its author. */
export const RankPlaceSchema = z.object({
  label: z.string(),
  ...WhoSchema.shape,
  /** Its mean place over the valid rankings (1 = best). */
  averagePosition: z.number(),
  /** How many rankings counted for it. */
  rankings: z.number().int(),
});
export type RankPlace = z.infer<typeof RankPlaceSchema>;

/** The council's ranking: best first, the label map that de-anonymises it, and which rankings did not count and why. */
export const RankAggregateSchema = z.object({
  ranking: z.array(RankPlaceSchema),
  labelToModel: LabelMapSchema,
  validRankings: z.number().int(),
  invalidRankings: z.number().int(),
  /** The rankings that did not count: whose, and why. */
  invalid: z.array(z.object({ ...WhoSchema.shape, problem: RankingProblemSchema })),
  /** Rankings whose text names a participant or vendor. */
  anonymityFlagged: z.number().int(),
});
export type RankAggregate = z.infer<typeof RankAggregateSchema>;

/** The run's answer: the chairman's, or (`fallback`) the top-ranked answer when the chairman failed. */
export const RankFinalSchema = z.object({
  answer: z.string(),
  /** Who wrote it: the chairman, or the top-ranked answer's author on a fallback. */
  ...WhoSchema.shape,
  fallback: z.boolean(),
  /** Why the chairman failed, on a fallback. */
  error: z.string().optional(),
  responseTimeMs: z.number().int(),
  /** What the chairman's call used, when the provider said. */
  usage: UsageSchema.optional(),
});
export type RankFinal = z.infer<typeof RankFinalSchema>;

/**
 * The /rank subgraph's state: the keys it shares with the top graph, the panel's, the answers and
 * their labels, and its own. Its nodes see nothing of the other formats.
 */
export const RankState = Annotation.Root({
  ...deliberationChannels,
  ...answerChannels,
  ...finalTextChannels,
  /** The chairman, who writes the final answer. */
  chairman: replace<Participant | null>(() => null),
  /** The rankings, one update per ranking model. */
  rankings: appended<RankingResponse>(),
  /** The council's ranking. */
  aggregate: replace<RankAggregate | null>(() => null),
  /** The final answer and who wrote it. */
  final: replace<RankFinal | null>(() => null),
  /** A new conversation's title, written beside the first answers and told at the end. */
  drafted_title: replace<string | null>(() => null),
});
export type RankStateType = typeof RankState.State;
export type RankUpdate = typeof RankState.Update;
