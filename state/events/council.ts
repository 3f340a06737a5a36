import { z } from "zod";
import { UsageSchema } from "../usage.js";
import { CouncilResultSchema, BranchSchema, JudgeRoundSchema } from "../council.js";
import { DELIBERATION_EVENTS, stamp, started } from "./shared.js";

/** The events of /council: the judges, each round's verdicts, the consolidation and the report. */
export const COUNCIL_EVENTS = {
  ...DELIBERATION_EVENTS,
  /** /council (all its events are additions): the run begins; each judge with its perspective. */
  council_start: z.object({
    ...started,
    mode: z.literal("council"),
    claim: z.string(),
    judges: z.array(z.object({ model: z.string(), display: z.string(), modelKey: z.string(), perspective: z.string() }).strict()),
    debate: z.boolean(),
    simulated: z.boolean(),
    ...stamp,
  }),
  /** /council: a round begins (round 2 with its branch). */
  council_round_start: z.object({ round: z.number().int(), branch: BranchSchema.optional(), ...stamp }),
  /** /council: one judge's verdict of a round, as soon as it lands. */
  council_verdict: JudgeRoundSchema.strict().extend(stamp),
  /** /council: a round's verdicts, and whether they were unanimous. */
  council_round_complete: z.object({ round: z.number().int(), verdicts: z.array(JudgeRoundSchema.strict()), unanimous: z.boolean(), ...stamp }),
  /** /council: the final verdicts per judge (round 2, or round 1 as fallback) and the consensus. */
  council_consolidation: z.object({ data: CouncilResultSchema.strict(), ...stamp }),
  /** /council: the consolidated report (`fallback` when the report model failed). */
  council_report_complete: z.object({
    data: z.object({ report: z.string(), fallback: z.boolean(), error: z.string().optional(), usage: UsageSchema.optional() }).strict(),
    ...stamp,
  }),
} as const;
