import { z } from "zod";

/**
 * What model calls used and cost. `cost_usd` is the sum of the costs that are known (the
 * provider's own figure, else the price table's); `unpriced_calls` counts the calls whose cost is
 * not known (a model missing from the price table), so a total is never passed off as complete.
 */
export interface Usage {
  calls: number;
  input_tokens: number;
  output_tokens: number;
  /** Input tokens the provider served from its prompt cache (counted in `input_tokens` too). */
  cached_tokens: number;
  cost_usd: number;
  unpriced_calls: number;
}

/** Nothing used yet. */
export const NO_USAGE: Usage = { calls: 0, input_tokens: 0, output_tokens: 0, cached_tokens: 0, cost_usd: 0, unpriced_calls: 0 };

/** Two usages together. */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    calls: a.calls + b.calls,
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    cached_tokens: a.cached_tokens + b.cached_tokens,
    // Rounded to a millionth of a cent, so sums of many calls do not show float dust.
    cost_usd: Math.round((a.cost_usd + b.cost_usd) * 1e8) / 1e8,
    unpriced_calls: a.unpriced_calls + b.unpriced_calls,
  };
}

/** USD per million tokens of one model: input, output, and (when it is cheaper) cached input. */
export const ModelPriceSchema = z
  .object({
    input: z.number().min(0),
    output: z.number().min(0),
    cached_input: z.number().min(0).optional(),
  })
  .strict();
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

/** The price table (`MODEL_PRICES`): USD per million tokens, by model id. */
export const PriceTableSchema = z.record(z.string().min(1), ModelPriceSchema);
export type PriceTable = z.infer<typeof PriceTableSchema>;

/** What one call's provider reported: its tokens and, when it says (OpenRouter's `usage.cost`), its cost. */
export interface CallTokens {
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  /** The provider's own figure, in USD. */
  cost_usd?: number;
}

/** One call's usage: the provider's cost when it gave one, else the price table's, else unpriced. */
export function usageOfCall(model: string, tokens: CallTokens, prices: PriceTable): Usage {
  const price = Object.hasOwn(prices, model) ? prices[model] : undefined;
  const cost =
    tokens.cost_usd ??
    (price &&
      ((tokens.input_tokens - tokens.cached_tokens) * price.input + tokens.cached_tokens * (price.cached_input ?? price.input) + tokens.output_tokens * price.output) / 1e6);
  return addUsage(NO_USAGE, {
    calls: 1,
    input_tokens: tokens.input_tokens,
    output_tokens: tokens.output_tokens,
    cached_tokens: tokens.cached_tokens,
    cost_usd: cost ?? 0,
    unpriced_calls: cost === undefined ? 1 : 0,
  });
}
