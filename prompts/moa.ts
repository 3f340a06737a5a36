/** Default prompts of /moa: the instruction under which a later layer's proposers and the aggregator read the answers before them. */

import { P, req, type PromptDefinition } from "./definition.js";

/**
 * Mixture-of-Agents' aggregate-and-synthesize instruction (Wang et al. 2024), in our words: the
 * same for a proposer of a later layer and for the aggregator, given after the answer's system
 * prompt, before the question.
 */
export const MOA_SYNTHESIZE = `You have been given the answers of several AI models to the question that follows. Synthesize them into a single answer of high quality. Evaluate them critically: some of what they say may be biased or wrong. Do not merely repeat them; give a refined, accurate and complete answer to the question, well structured and coherent, held to the highest standard of accuracy and reliability. Answer in the language of the question, without mentioning the models or their answers.

Answers from models:
{responses}`;

/** The prompts of /moa. */
export const MOA_PROMPTS: readonly PromptDefinition[] = [
  {
    key: "moa.synthesize",
    description:
      "/moa: the aggregate-and-synthesize instruction under which each later layer's proposers, and the aggregator, answer the question from the layer before's answers",
    placeholders: [req("responses", "the layer before's answers, unnamed and numbered `1.`, `2.`, … (a failed model's left out)"), P.question(false)],
    default: MOA_SYNTHESIZE,
  },
];
