import type { AIMessage } from "@langchain/core/messages";
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
  /** Output tokens the model spent reasoning (counted in `output_tokens` too), when the provider said. */
  reasoning_tokens: number;
  cost_usd: number;
  unpriced_calls: number;
}

/** Nothing used yet. */
export const NO_USAGE: Usage = { calls: 0, input_tokens: 0, output_tokens: 0, cached_tokens: 0, reasoning_tokens: 0, cost_usd: 0, unpriced_calls: 0 };

/** Two usages together. */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    calls: a.calls + b.calls,
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    cached_tokens: a.cached_tokens + b.cached_tokens,
    // A usage stored before reasoning tokens were counted has none.
    reasoning_tokens: (a.reasoning_tokens ?? 0) + (b.reasoning_tokens ?? 0),
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
  /** Output tokens spent reasoning (within `output_tokens`). */
  reasoning_tokens?: number;
  /** The provider's own figure, in USD. */
  cost_usd?: number;
  /** The requests the answer took (an answer asked again with more thinking room took two); 1 when unsaid. */
  requests?: number;
}

/** One call's usage: the provider's cost when it gave one, else the price table's, else unpriced. */
export function usageOfCall(model: string, tokens: CallTokens, prices: PriceTable): Usage {
  const price = Object.hasOwn(prices, model) ? prices[model] : undefined;
  const cost =
    tokens.cost_usd ??
    (price &&
      ((tokens.input_tokens - tokens.cached_tokens) * price.input +
        tokens.cached_tokens * (price.cached_input ?? price.input) +
        tokens.output_tokens * price.output) /
        1e6);
  const calls = tokens.requests ?? 1;
  return addUsage(NO_USAGE, {
    calls,
    input_tokens: tokens.input_tokens,
    output_tokens: tokens.output_tokens,
    cached_tokens: tokens.cached_tokens,
    reasoning_tokens: tokens.reasoning_tokens ?? 0,
    cost_usd: cost ?? 0,
    unpriced_calls: cost === undefined ? calls : 0,
  });
}

/**
 * Tokens in a text, estimated at four characters a token (the usual figure for English and
 * Swedish with the GPT and Claude tokenizers): for the simulated provider and the estimate before
 * a run, never in place of a provider's own count.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** What a run used: in all, by participant (the internal model's tasks by their phase) and by stage. */
export interface UsageReport {
  total: Usage;
  by_participant: Record<string, Usage>;
  by_stage: Record<string, Usage>;
}

/** The zod schema of a usage, for events and stored rows. */
export const UsageSchema = z
  .object({
    calls: z.number().int(),
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    cached_tokens: z.number().int(),
    /** Added: a usage stored before it was counted reads as 0. */
    reasoning_tokens: z.number().int().default(0),
    cost_usd: z.number(),
    unpriced_calls: z.number().int(),
  })
  .strict();

/** The zod schema of a run's usage report. */
export const UsageReportSchema = z
  .object({ total: UsageSchema, by_participant: z.record(z.string(), UsageSchema), by_stage: z.record(z.string(), UsageSchema) })
  .strict();

/** Nothing used yet, by anyone. */
export function emptyReport(): UsageReport {
  return { total: NO_USAGE, by_participant: {}, by_stage: {} };
}

/** A report with one more call's usage, counted for its participant and stage. */
export function addToReport(report: UsageReport, who: string, stage: string, usage: Usage): UsageReport {
  return {
    total: addUsage(report.total, usage),
    by_participant: { ...report.by_participant, [who]: addUsage(report.by_participant[who] ?? NO_USAGE, usage) },
    by_stage: { ...report.by_stage, [stage]: addUsage(report.by_stage[stage] ?? NO_USAGE, usage) },
  };
}

/** Two reports together (a resumed run's and the first attempt's). */
export function addReports(a: UsageReport, b: UsageReport): UsageReport {
  const merge = (x: Record<string, Usage>, y: Record<string, Usage>) => {
    const out = { ...x };
    for (const [k, u] of Object.entries(y)) out[k] = addUsage(out[k] ?? NO_USAGE, u);
    return out;
  };
  return { total: addUsage(a.total, b.total), by_participant: merge(a.by_participant, b.by_participant), by_stage: merge(a.by_stage, b.by_stage) };
}

/** The key of an answer's `response_metadata` that says how many requests it took, when more than one (an answer asked again). */
export const ANSWER_REQUESTS = "debatt_requests";

/**
 * What a model call's answer says it used: the tokens LangChain read from the provider's
 * `usage` (cached input tokens among them) and, when the provider gives it (OpenRouter's
 * `usage.cost`), its cost in USD. Undefined when the provider reported nothing.
 */
export function callTokensOf(message: AIMessage): CallTokens | undefined {
  const usage = message.usage_metadata;
  if (!usage) return undefined;
  const metadata = message.response_metadata as { usage?: { cost?: unknown }; [ANSWER_REQUESTS]?: unknown } | undefined;
  const raw = metadata?.usage;
  const requests = metadata?.[ANSWER_REQUESTS];
  return {
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens,
    cached_tokens: usage.input_token_details?.cache_read ?? 0,
    reasoning_tokens: usage.output_token_details?.reasoning ?? 0,
    ...(typeof raw?.cost === "number" ? { cost_usd: raw.cost } : {}),
    ...(typeof requests === "number" && requests > 1 ? { requests } : {}),
  };
}

/** The key of an answer's `response_metadata` that names the model it really came from (a fallback's), for its price. */
export const ANSWERED_BY = "debatt_answered_by";

/**
 * One answer's usage, priced as the model that answered (`model`, or the fallback the answer names
 * under ANSWERED_BY); undefined when the provider reported none.
 */
export function usageOfAnswer(model: string, answer: AIMessage, prices: PriceTable): Usage | undefined {
  const tokens = callTokensOf(answer);
  const answeredBy = (answer.response_metadata as Record<string, unknown> | undefined)?.[ANSWERED_BY];
  return tokens && usageOfCall(typeof answeredBy === "string" ? answeredBy : model, tokens, prices);
}
