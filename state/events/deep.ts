import { z } from "zod";
import { UsageSchema } from "../usage.js";
import { DebaterTurnSchema, DeepOutputSchema, ModeratorAssessmentSchema } from "../deep.js";
import { WhoSchema } from "../deliberation.js";
import { DELIBERATION_EVENTS, STAGE1_EVENTS, stamp, started } from "./shared.js";

/** The events of /deep: the answers, each debate round with the moderator's decision, the output and the synthesis. */
export const DEEP_EVENTS = {
  ...DELIBERATION_EVENTS,
  ...STAGE1_EVENTS,
  /** /deep (all its events are additions): the run begins. */
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
    arguments: z.array(DebaterTurnSchema.strict()),
    assessment: ModeratorAssessmentSchema.strict().nullable(),
    moderatorError: z.string().optional(),
    stop: z.boolean(),
    reason: z.enum(["converged", "all_no_change", "max_rounds", "continue", "no_arguments"]),
    ...stamp,
  }),
  /** /deep: the debate's output object, handed to the synthesis. */
  deep_output: z.object({ data: DeepOutputSchema.strict(), ...stamp }),
  /** /deep: the final answer (`fallback` when the synthesis model failed and the consensus stands in). */
  deep_synthesis_complete: z.object({
    data: z.object({ synthesis: z.string(), fallback: z.boolean(), error: z.string().optional(), usage: UsageSchema.optional() }).strict(),
    ...stamp,
  }),
} as const;
