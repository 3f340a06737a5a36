import { simulatedJson } from "../simulated-json.js";
import type { PhaseAnswers } from "./context.js";
import { answerText } from "./prose.js";
import { simulatedChore } from "./chores.js";

/** The simulated answers outside a run's format: a follow-up to a participant, a chat client's chore, a JSON result. */
export const chatAnswers = {
  // A follow-up is an answer to the question, in the shape an answer has: not a debate position.
  continue: (sim) => answerText(sim, sim.writer()),
  client_task: ({ topic, prompt }) => simulatedChore(topic, prompt),
  json_result: ({ prompt }) => simulatedJson(prompt),
} satisfies PhaseAnswers;
