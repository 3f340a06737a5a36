/** Default prompts of /rank: each model's ranking of the anonymised answers, and the chairman's final answer. */

import { RANKING_REPLY } from "../state/replies/ranking.js";
import { opt, P, req, type PromptDefinition } from "./definition.js";

/** A model evaluates and ranks every anonymised answer (its own among them, unmarked). */
export const RANK_RANKING = `Several assistants answered the question below; their answers are shown anonymously as Response A, Response B and so on. Judge them on their merits alone: accuracy, completeness, clarity and practical value. Length and confidence are no merits in themselves.

Question: {question}

{responses}
${RANKING_REPLY}
Write your evaluation in the language of the question; keep the labels and the ${"`FINAL RANKING:`"} header as they are.`;

/** The chairman writes the run's answer from every answer and every ranking. */
export const RANK_CHAIRMAN = `You chair a council of AI models. Each answered the question below, then each read all the answers anonymously and ranked them. Write the council's final answer.

## Question
{question}

## The answers
{responses}
## The rankings
{rankings}
## The council's ranking (mean place over the valid rankings, 1 = best)
{aggregate}

Write the single best answer to the question. Start from what the highest-ranked answers get right, take in what the others add that holds up, correct what the rankings' evaluations found wrong, and say plainly what remains uncertain. Do not mention the responses, their labels or the rankings: answer the question directly, in markdown, in the language of the question.`;

/** The prompts of /rank. */
export const RANK_PROMPTS: readonly PromptDefinition[] = [
  {
    key: "rank.ranking",
    description: "/rank: each model evaluates every anonymised answer and ends with `FINAL RANKING:` and a numbered list, best first",
    placeholders: [P.question(), P.responses],
    default: RANK_RANKING,
  },
  {
    key: "rank.chairman",
    description: "/rank: the chairman's final answer, written from every answer and every ranking",
    placeholders: [
      P.question(),
      P.responses,
      req("rankings", "every ranking model's reply, each as `--- Ranking N ---` and its text (the rankers unnamed; a failed model's left out)"),
      opt("aggregate", "the council's ranking: one line per answer, best first, with its mean place"),
    ],
    default: RANK_CHAIRMAN,
  },
];
