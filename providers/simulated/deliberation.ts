import type { PhaseAnswers } from "./context.js";
import { answerText } from "./prose.js";
import { simulatedTitle } from "./question.js";

/** The simulated answers the deliberation formats (/vote, /revise, /deep, /council) share: a model's first answer and the title. */
export const deliberationAnswers = {
  // An answer to the question, in the shape an answer has: not a debate position.
  answer: (sim) => answerText(sim, sim.writer()),
  title: ({ topic }) => simulatedTitle(topic),
} satisfies PhaseAnswers;
