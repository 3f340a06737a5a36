import { Annotation } from "@langchain/langgraph";
import { z } from "zod";
import { UsageSchema } from "./usage.js";
import { appended, replace } from "./channels.js";
import { answerChannels, CountedVotesSchema, LabelMapSchema, deliberationChannels, WhoSchema, WinnerSchema, type VoteResponse } from "./deliberation.js";

/** A /revise decision: improve the answer, stand by it, or merge the best of all answers. */
export const RevisionDecisionSchema = z.enum(["REVISE", "STAND", "MERGE"]);
export type RevisionDecision = z.infer<typeof RevisionDecisionSchema>;

/** One model's revision (`display`, `modelKey`, `revisionText`, `error` added). */
export const RevisionResponseSchema = z.object({
  ...WhoSchema.shape,
  decision: RevisionDecisionSchema.nullable(),
  reasoning: z.string().nullable(),
  originalResponse: z.string(),
  revisedResponse: z.string(),
  originalWordCount: z.number().int(),
  revisedWordCount: z.number().int(),
  responseTimeMs: z.number().int(),
  parseSuccess: z.boolean(),
  /** The model's whole reply (DECISION, REASONING, REVISED RESPONSE); empty when the call failed. */
  revisionText: z.string(),
  /** With anti-anchoring: the model's restatement of its own position, made before it saw the others. */
  restatement: z.string().optional(),
  /** Why the revision is missing (model error or timeout), when it is. */
  error: z.string().optional(),
  /** What the call used (added), when the provider said. */
  usage: UsageSchema.optional(),
});
export type RevisionResponse = z.infer<typeof RevisionResponseSchema>;

/** The revision round's counts per decision. */
export const RevisionSummarySchema = z.object({
  totalModels: z.number().int(),
  revised: z.number().int(),
  stood: z.number().int(),
  merged: z.number().int(),
  parseFailed: z.number().int(),
});
export type RevisionSummary = z.infer<typeof RevisionSummarySchema>;

/** How many revised, stood, merged, or gave no readable decision. */
export function summarizeRevisions(revisions: readonly RevisionResponse[]): RevisionSummary {
  const count = (d: RevisionResponse["decision"]) => revisions.filter((r) => r.decision === d).length;
  return { totalModels: revisions.length, revised: count("REVISE"), stood: count("STAND"), merged: count("MERGE"), parseFailed: count(null) };
}

/** /revise's counted vote on the revised answers, with their label map (`anonymityFlagged` added). */
export const DebateVoteResultSchema = CountedVotesSchema.extend({ revisedLabelToModel: LabelMapSchema });
export type DebateVoteResult = z.infer<typeof DebateVoteResultSchema>;

/** /revise's declared winner, with its decision (`winnerDisplay` added). */
export const DebateWinnerSchema = WinnerSchema.extend({
  winnerDecision: RevisionDecisionSchema.nullable(),
  tiebreakerMethod: z.literal("alphabetical").optional(),
});
export type DebateWinnerResult = z.infer<typeof DebateWinnerSchema>;

/** The /revise subgraph's state: the keys it shares with the top graph, and its own. */
export const ReviseState = Annotation.Root({
  ...deliberationChannels,
  ...answerChannels,
  /** The labels of the answers shown during revision (label → participant key); `labels` holds the vote's. */
  round1_labels: replace<Record<string, string>>(() => ({})),
  /** The revisions, one update per model. */
  revisions: appended<RevisionResponse>(),
  /** The votes on the revised answers, one update per voter. */
  ballots: appended<VoteResponse>(),
  /** The counted vote on the revised answers. */
  tally: replace<DebateVoteResult | null>(() => null),
  /** The winner. */
  winner: replace<DebateWinnerResult | null>(() => null),
});
export type ReviseStateType = typeof ReviseState.State;
export type ReviseUpdate = typeof ReviseState.Update;
