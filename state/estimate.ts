import { ROUNDS } from "./debate.js";
import type { FormatId } from "./formats.js";
import type { Participant } from "./participants.js";
import { addUsage, estimateTokens, NO_USAGE, usageOfCall, type PriceTable, type Usage } from "./usage.js";

/** One model call a run is expected to make: its model and its tokens in and out. */
interface PlannedCall {
  model: string;
  input: number;
  output: number;
}

/** What a run is expected to use before it starts: calls, tokens and cost (a `Usage`, priced by the table). */
export type Estimate = Usage;

/** What shapes a run's calls besides its format and participants. */
export interface EstimateInputs {
  question: string;
  /** The internal model (synthesis, chairman, moderator, titles). */
  internalModel: string;
  /** Token budget of one answer (`max_response_tokens`). */
  maxResponseTokens: number;
  /** Characters of each earlier answer a later /debatt speaker is shown. */
  contextChars: number;
  /** /deep: most rounds; /council: a second round. */
  maxRounds: number;
  debate: boolean;
  /** OneSeek researches before it speaks (web search is configured). */
  research: boolean;
  /** /debatt, /dvoice: each spoken round's word limit (default: the written debate's). */
  wordLimits?: number[];
}

/** A prompt's own instructions (the format's text around what it quotes), in tokens. */
const INSTRUCTIONS = 450;
/** Short answers: a ballot, a verdict, a moderator's assessment, a title. */
const BALLOT = 150;
const VERDICT = 350;
const ASSESSMENT = 250;
const TITLE = 20;
/** The final texts: a synthesis or report. */
const SYNTHESIS = 1_200;

/**
 * The calls a run of `format` makes on its usual path (every answer given, one vote, /deep to its
 * last round), with inputs from the prompts' sizes and what each quotes, and outputs from the word
 * limits and token budgets. Retries, a tiebreak and research results are not in it.
 */
function plan(format: FormatId | "chat", participants: Participant[], x: EstimateInputs): PlannedCall[] {
  const n = participants.length;
  const q = estimateTokens(x.question);
  const answer = x.maxResponseTokens;
  const calls: PlannedCall[] = [];
  const each = (input: number, output: number) => participants.forEach((p) => calls.push({ model: p.model, input, output }));
  const internal = (input: number, output: number) => calls.push({ model: x.internalModel, input, output });
  switch (format) {
    case "chat":
      internal(INSTRUCTIONS + q, answer);
      break;
    case "debatt":
    case "dvoice": {
      // Every turn sees the earlier ones, each cut to contextChars.
      const turnOut = ROUNDS.map((r, i) => Math.min(answer, Math.ceil(((x.wordLimits?.[i] ?? r.words) * 4) / 3)));
      const shown = (out: number) => Math.min(out, Math.ceil(x.contextChars / 4));
      let before = 0;
      ROUNDS.forEach((_, r) => {
        participants.forEach((p) => {
          calls.push({ model: p.model, input: INSTRUCTIONS + q + before, output: turnOut[r] });
          if (p.oneseek && x.research) calls.push({ model: p.model, input: INSTRUCTIONS + q, output: BALLOT }, { model: p.model, input: INSTRUCTIONS * 2, output: BALLOT });
          before += shown(turnOut[r]);
        });
      });
      each(INSTRUCTIONS + q + before, BALLOT);
      internal(INSTRUCTIONS + q + before, ASSESSMENT);
      internal(INSTRUCTIONS + q + before + ASSESSMENT, SYNTHESIS);
      break;
    }
    case "compare":
      each(INSTRUCTIONS + q, answer);
      break;
    case "vote":
      each(INSTRUCTIONS + q, answer);
      each(INSTRUCTIONS + q + n * answer, BALLOT);
      internal(INSTRUCTIONS + q, TITLE);
      break;
    case "revise":
      each(INSTRUCTIONS + q, answer);
      each(INSTRUCTIONS + q + n * answer, answer);
      each(INSTRUCTIONS + q + n * answer, BALLOT);
      internal(INSTRUCTIONS + q, TITLE);
      break;
    case "deep":
      each(INSTRUCTIONS + q, answer);
      for (let r = 1; r <= x.maxRounds; r++) {
        each(INSTRUCTIONS + q + n * (r === 1 ? answer : VERDICT), VERDICT);
        internal(INSTRUCTIONS + q + n * VERDICT, ASSESSMENT);
      }
      internal(INSTRUCTIONS + q + n * VERDICT * x.maxRounds, SYNTHESIS);
      internal(INSTRUCTIONS + q, TITLE);
      break;
    case "council":
      each(INSTRUCTIONS + q, VERDICT);
      if (x.debate) each(INSTRUCTIONS + q + n * VERDICT, VERDICT);
      internal(INSTRUCTIONS + q + n * VERDICT, SYNTHESIS);
      internal(INSTRUCTIONS + q, TITLE);
      break;
  }
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
