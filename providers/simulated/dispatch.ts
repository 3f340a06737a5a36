import type { BaseMessage } from "@langchain/core/messages";
import type { ModelPhase, ModelRequest } from "../../ports/models.js";
import { chatAnswers } from "./chat.js";
import { compareAnswers } from "./compare.js";
import { simulationOf, type AnswerOptions, type PhaseAnswer } from "./context.js";
import { councilAnswers } from "./council.js";
import { debattAnswers } from "./debatt.js";
import { deepAnswers } from "./deep.js";
import { deliberationAnswers } from "./deliberation.js";
import { taskAnswer } from "./eval.js";
import { voteAnswers } from "./vote.js";

/** Every phase's simulated answer, from its format's module; the compiler flags a phase with none. */
const ANSWERS = {
  ...debattAnswers,
  ...voteAnswers,
  ...deepAnswers,
  ...councilAnswers,
  ...compareAnswers,
  ...deliberationAnswers,
  ...chatAnswers,
} satisfies Record<ModelPhase, PhaseAnswer>;

/** Builds the full simulated answer for a request. */
export function simulatedAnswer(request: ModelRequest, messages: BaseMessage[], opts: AnswerOptions): string {
  const s = simulationOf(request, messages, opts, simulatedAnswer);
  // An evaluation's task question (with SIMULATED_ACCURACY): the reply gives an answer to it.
  return taskAnswer(s) ?? ANSWERS[request.phase](s);
}
