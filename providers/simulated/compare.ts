import type { PhaseAnswers } from "./context.js";
import { answerText } from "./prose.js";

/** /compare's simulated answers: each model's answer to the question. */
export const compareAnswers = {
  // An answer to the question, in the shape an answer has: not a debate position.
  compare: (sim) => answerText(sim, sim.writer()),
} satisfies PhaseAnswers;
