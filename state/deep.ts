import { Annotation } from "@langchain/langgraph";
import { z } from "zod";
import { UsageSchema } from "./usage.js";
import { appended, replace } from "./channels.js";
import { answerChannels, deliberationChannels, finalTextChannels } from "./deliberation.js";

/** One debater's structured argument in one round (the JSON the debater answers with). */
export const DebaterArgumentSchema = z.object({
  stance: z.enum(["maintain", "concede", "partial_concede"]),
  key_points: z.array(z.string()),
  counterpoints: z.array(z.object({ target: z.string(), point: z.string(), evidence: z.string() })),
  revision: z.enum(["no_change", "minor_update", "major_revision"]),
  revised_position: z.string(),
  confidence: z.number().min(0).max(1),
});
export type DebaterArgument = z.infer<typeof DebaterArgumentSchema>;

/** A debater's round as kept in state and sent in events: its argument, or why it has none. */
export const DebaterTurnSchema = z.object({
  round: z.number().int(),
  /** "A", "B", … (the debater is shown as Debater A, B, C, …). */
  label: z.string(),
  modelKey: z.string(),
  display: z.string(),
  model: z.string(),
  status: z.enum(["ok", "error"]),
  argument: DebaterArgumentSchema.strict().optional(),
  responseTimeMs: z.number().int(),
  error: z.string().optional(),
  /** What the call used (added), when the provider said. */
  usage: UsageSchema.optional(),
});
export type DebaterTurn = z.infer<typeof DebaterTurnSchema>;

/** The moderator's assessment of a round (the JSON the moderator answers with). */
export const ModeratorAssessmentSchema = z.object({
  should_stop: z.boolean(),
  agreement_score: z.number().min(0).max(1),
  new_points_ratio: z.number().min(0).max(1),
  consensus_answer: z.string().nullable(),
  remaining_disagreements: z.array(z.string()),
  next_round_focus: z.string().nullable(),
});
export type ModeratorAssessment = z.infer<typeof ModeratorAssessmentSchema>;

/** Why a debate stopped after a round, or that it goes on. */
export const StopReasonSchema = z.enum(["converged", "all_no_change", "max_rounds", "continue"]);
export type StopReason = z.infer<typeof StopReasonSchema>;

/** One round's moderation: the assessment (null when the moderator failed) and the computed decision. */
export interface DeepRoundOutcome {
  round: number;
  assessment: ModeratorAssessment | null;
  moderatorError?: string;
  stop: boolean;
  reason: StopReason;
}

/** The debate's output object, handed to Stage 3 (the synthesis). */
export const DeepOutputSchema = z.object({
  mode: z.literal("deep"),
  rounds_completed: z.number().int(),
  final_stances: z.array(z.object({ debater: z.string(), stance: z.string(), confidence: z.number(), revised_position: z.string() }).strict()),
  convergence_status: z
    .object({
      agreement_score: z.number().nullable(),
      new_points_ratio: z.number().nullable(),
      consensus_answer: z.string().nullable(),
      remaining_disagreements: z.array(z.string()),
    })
    .strict(),
  debate_log: z.array(z.string()),
});
export type DeepOutput = z.infer<typeof DeepOutputSchema>;

/** The /deep subgraph's state: the keys it shares with the top graph, and its own. */
export const DeepState = Annotation.Root({
  ...deliberationChannels,
  ...answerChannels,
  ...finalTextChannels,
  /** The round being argued (1-based). */
  round: replace<number>(() => 0),
  /** Every debater's turn of every round, one update per debater. */
  turns: appended<DebaterTurn>(),
  /** The moderator's assessment and the computed decision after each round. */
  outcomes: appended<DeepRoundOutcome>(),
  /** The debate's output object, handed to the synthesis. */
  output: replace<DeepOutput | null>(() => null),
});
export type DeepStateType = typeof DeepState.State;
export type DeepUpdate = typeof DeepState.Update;
