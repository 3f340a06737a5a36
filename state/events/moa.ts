import { z } from "zod";
import { WhoSchema } from "../deliberation.js";
import { MoaFinalSchema } from "../moa.js";
import { DELIBERATION_EVENTS, Stage1CompleteSchema, STAGE1_EVENTS, stamp, started } from "./shared.js";

/** The events of /moa: the first answers, each later layer's answers, then the aggregator's final answer. */
export const MOA_EVENTS = {
  ...DELIBERATION_EVENTS,
  ...STAGE1_EVENTS,
  /** /moa: the run begins; the proposers, the aggregator and how many layers (the aggregator's included). The first layer's answers follow as stage 1. */
  moa_start: z.object({
    ...started,
    mode: z.literal("moa"),
    question: z.string(),
    participants: z.array(WhoSchema),
    aggregator: WhoSchema,
    layers: z.number().int(),
    simulated: z.boolean(),
    ...stamp,
  }),
  /** /moa: a layer of proposers after the first begins, each reading the layer before's answers (`references` of them, from layer `from`); their text streams as `answer_delta`, stage `proposal`. */
  moa_layer_start: z.object({ layer: z.number().int(), from: z.number().int(), references: z.number().int(), ...stamp }),
  /** /moa: a layer after the first is in: its answers and who failed (the first layer's are `stage1_complete`). */
  moa_layer_complete: Stage1CompleteSchema.extend({ layer: z.number().int() }),
  /** /moa: the aggregator begins, reading the answers of layer `from` (`references` of them); its text streams as `answer_delta`, stage `aggregate`. */
  moa_aggregate_start: z.object({ ...WhoSchema.shape, from: z.number().int(), references: z.number().int(), ...stamp }),
  /** /moa: the final answer, the aggregator's, or the last layer's first answer when the aggregator failed (`fallback`). */
  moa_final: z.object({ data: MoaFinalSchema.strict(), ...stamp }),
} as const;
