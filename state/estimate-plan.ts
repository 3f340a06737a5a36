/**
 * The pieces a format's cost plan is written with: the sizes of its prompts and replies, and
 * helpers that add a call per participant or one of the internal model.
 */

import type { ReasoningEffort } from "./reasoning.js";

/** One model call a run is expected to make: its model and its tokens in and out. */
export interface PlannedCall {
  model: string;
  input: number;
  output: number;
}

/** What shapes a run's calls besides its format and participants. */
export interface EstimateInputs {
  question: string;
  /** The internal model (synthesis, chairman, moderator, titles). */
  internalModel: string;
  /** Token budget of one answer (`max_response_tokens`) as the run set it; unset: the format's (`answerTokens`). */
  responseTokensAsked?: number;
  /** The run's reasoning effort (unset: each participant's, else low for models that reason). */
  reasoning?: ReasoningEffort;
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

/** Token sizes of what prompts quote and replies hold. */
export const SIZES = {
  /** A prompt's own instructions (the format's text around what it quotes). */
  instructions: 450,
  /** Short answers: a ballot, a verdict, a moderator's assessment, a title. */
  ballot: 150,
  verdict: 350,
  assessment: 250,
  title: 20,
  /** The final texts: a synthesis or report. */
  synthesis: 1_200,
} as const;

/** What a plan reads of a participant: its model, and whether it is OneSeek (which researches first). */
export interface PlannedParticipant {
  model: string;
  oneseek?: boolean;
}

/** What a format's plan is given: the run's participants and inputs, and where to add its calls. */
export interface PlanContext {
  participants: PlannedParticipant[];
  inputs: EstimateInputs;
  /** /debatt, /dvoice: each spoken round's word limit (the inputs' `wordLimits`, else the written debate's). */
  roundWords: number[];
  /** The question's tokens. */
  question: number;
  /** One answer's token budget. */
  answer: number;
  /** Adds one call per participant. */
  each(input: number, output: number): void;
  /** Adds one call of the internal model. */
  internal(input: number, output: number): void;
  /** Adds one call of a given model. */
  call(model: string, input: number, output: number): void;
}
