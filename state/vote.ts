import { Annotation } from "@langchain/langgraph";
import { z } from "zod";
import { UsageSchema } from "./usage.js";
import { appended, replace } from "./channels.js";
import { answerChannels, CountedVotesSchema, LabelMapSchema, deliberationChannels, WinnerSchema, type VoteResponse } from "./deliberation.js";
import type { Participant } from "./participants.js";

/** The vote round, with its label map (`anonymityFlagged` added). */
export const VoteRoundResultSchema = CountedVotesSchema.extend({ labelToModel: LabelMapSchema });
export type VoteRoundResult = z.infer<typeof VoteRoundResultSchema>;

/** The chairman's tiebreak (`attempts` and `fallback` added). */
export const TiebreakerResultSchema = z.object({
  model: z.string(),
  voteText: z.string(),
  votedFor: z.string(),
  responseTimeMs: z.number().int(),
  /** Model calls made: 1, or 2 after an unparsable first answer. */
  attempts: z.number().int(),
  /** True when both answers were unparsable and the first tied label (alphabetically) was taken. */
  fallback: z.boolean(),
  /** What the call used (added), when the provider said. */
  usage: UsageSchema.optional(),
});
export type TiebreakerResult = z.infer<typeof TiebreakerResultSchema>;

/** The declared winner (`winnerDisplay` added). */
export const VoteWinnerSchema = WinnerSchema.extend({ tiebreakerModel: z.string().optional() });
export type VoteWinnerResult = z.infer<typeof VoteWinnerSchema>;

/**
 * The /vote subgraph's state: the keys it shares with the top graph, and its own. Its nodes see
 * nothing of the other formats.
 */
export const VoteState = Annotation.Root({
  ...deliberationChannels,
  ...answerChannels,
  /** The chairman, who breaks a tie. */
  chairman: replace<Participant | null>(() => null),
  /** The votes, one update per voter. */
  ballots: appended<VoteResponse>(),
  /** The counted vote round. */
  tally: replace<VoteRoundResult | null>(() => null),
  /** The chairman's tiebreak, when there was a tie. */
  tiebreaker: replace<TiebreakerResult | null>(() => null),
  /** The winner. */
  winner: replace<VoteWinnerResult | null>(() => null),
});
export type VoteStateType = typeof VoteState.State;
export type VoteUpdate = typeof VoteState.Update;
