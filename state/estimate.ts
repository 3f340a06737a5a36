import { ROUNDS } from "./debate.js";
import { SIZES, type EstimateInputs, type PlanContext, type PlannedCall } from "./estimate-plan.js";
import { FORMATS, type FormatId } from "./formats.js";
import type { Participant } from "./participants.js";
import { thinkingTokens } from "./reasoning.js";
import { answerTokens } from "./run-config.js";
import { addUsage, estimateTokens, NO_USAGE, usageOfCall, type PriceTable, type Usage } from "./usage.js";

/** What a run is expected to use before it starts: calls, tokens and cost (a `Usage`, priced by the table). */
export type Estimate = Usage;

export type { EstimateInputs } from "./estimate-plan.js";

/**
 * The calls a run of `format` makes on its usual path (every answer given, one vote, /deep to its
 * last round), from its format's plan: inputs from the prompts' sizes and what each quotes,
 * outputs from the word limits and token budgets, with the thinking room of the models that reason
 * (see state/reasoning.ts). Retries, a tiebreak and research results are
 * not in it. A chat answer is one call of the internal model.
 */
function plan(format: FormatId | "chat", participants: Participant[], inputs: EstimateInputs): PlannedCall[] {
  const calls: PlannedCall[] = [];
  // A model that reasons thinks on every call: its effort's thinking room is counted with its output.
  const own = new Map(participants.map((p) => [p.model, p.reasoning]));
  const call = (model: string, input: number, output: number) =>
    calls.push({ model, input, output: output + thinkingTokens(model, inputs.reasoning, own.get(model)) });
  const context: PlanContext = {
    participants,
    inputs,
    roundWords: ROUNDS.map((r, i) => inputs.wordLimits?.[i] ?? r.words),
    question: estimateTokens(inputs.question),
    answer: answerTokens(inputs, format),
    call,
    each: (input, output) => participants.forEach((p) => call(p.model, input, output)),
    internal: (input, output) => call(inputs.internalModel, input, output),
  };
  if (format === "chat") context.internal(SIZES.instructions + context.question, context.answer);
  else FORMATS[format].plan(context);
  return calls;
}

/**
 * What a run is expected to use and cost before it starts, priced by the price table (a model
 * without a price is counted in `unpriced_calls`, as a run's own usage is). An estimate from the
 * prompts' sizes and the token limits, not a promise: real answers are often shorter, a retry or
 * a tiebreak adds calls, and research results lengthen OneSeek's prompts.
 */
export function estimateRun(format: FormatId | "chat", participants: Participant[], inputs: EstimateInputs, prices: PriceTable): Estimate {
  return plan(format, participants, inputs).reduce<Usage>(
    (sum, c) => addUsage(sum, usageOfCall(c.model, { input_tokens: c.input, output_tokens: c.output, cached_tokens: 0 }, prices)),
    NO_USAGE,
  );
}
