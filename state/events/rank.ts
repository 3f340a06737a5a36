import { z } from "zod";
import { WhoSchema } from "../deliberation.js";
import { RankAggregateSchema, RankFinalSchema, RankingResponseSchema } from "../rank.js";
import { DELIBERATION_EVENTS, STAGE1_EVENTS, stamp, started } from "./shared.js";

/** The events of /rank: the answers, each model's ranking as it lands, the council's ranking and the chairman's final answer. */
export const RANK_EVENTS = {
  ...DELIBERATION_EVENTS,
  ...STAGE1_EVENTS,
  /** /rank: the run begins; who answers and ranks, and the chairman who writes the final answer. */
  rank_start: z.object({
    ...started,
    mode: z.literal("rank"),
    question: z.string(),
    participants: z.array(WhoSchema),
    chairman: WhoSchema,
    simulated: z.boolean(),
    ...stamp,
  }),
  /** /rank: the rankings begin; the labels every model ranks (who wrote which is told with the council's ranking). */
  rank_rankings_start: z.object({ labels: z.array(z.string()), ...stamp }),
  /** /rank: one model's ranking, as soon as it lands: its text, the order read from it and whether it counts. */
  rank_ranking: z.object({ data: RankingResponseSchema.strict(), ...stamp }),
  /** /rank: the council's ranking (mean place over the valid rankings, best first), with the label map and the rankings that did not count. */
  rank_aggregate: z.object({ data: RankAggregateSchema.strict(), ...stamp }),
  /** /rank: the final answer, the chairman's (streamed before as `answer_delta`, stage `chairman`), or the top-ranked answer when the chairman failed (`fallback`). */
  rank_final: z.object({ data: RankFinalSchema.strict(), ...stamp }),
} as const;
