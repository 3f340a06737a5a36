import type { BaseMessage } from "@langchain/core/messages";
import type { ModelRequest } from "../../ports/models.js";
import { chatAnswers } from "./chat.js";
import { simulationOf, type AnswerOptions, type PhaseTable } from "./context.js";
import { debattAnswers } from "./debatt.js";
import { taskAnswer } from "./eval.js";

/** The simulated answers of the phases outside a format's own: the chat's supervisor, a follow-up, a client's chore, a JSON result. */
export const CORE_ANSWERS = { supervisor: debattAnswers.supervisor, ...chatAnswers };

/** Builds the full simulated answer for a request, by its phase's answer in `answers`. */
export function simulatedAnswer(request: ModelRequest, messages: BaseMessage[], opts: AnswerOptions, answers: PhaseTable): string {
  const s = simulationOf(request, messages, opts, (r, m, o) => simulatedAnswer(r, m, o, answers));
  // An evaluation's task question (with SIMULATED_ACCURACY): the reply gives an answer to it.
  return taskAnswer(s) ?? answers[request.phase](s);
}
