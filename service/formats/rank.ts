import { z } from "zod";
import { buildRankGraph } from "../../graph/rank.js";
import { rankHistory } from "../../history/formats/rank.js";
import { deliberationAnswers } from "../../providers/simulated/deliberation.js";
import { rankAnswers } from "../../providers/simulated/rank.js";
import type { FormatDefinition } from "../format-definition.js";
import { narrateRank, rankOutcome, startsRank } from "./rank-events.js";
import { timeoutMs } from "./options.js";

/** /rank: llm-council's protocol. Answers, a ranking of all of them by each model, the mean places, a chairman's final answer. */
export const rank = {
  history: rankHistory,
  subgraph: buildRankGraph,
  options: z
    .object({
      chairman: z
        .string()
        .min(1, "chairman is empty")
        .max(64)
        .optional()
        .describe("The chairman who writes the final answer (roster key, name or model id; default: the internal model)"),
      timeoutMs: timeoutMs(300_000),
    })
    .strict(),
  seeded: true,
  result: "the chairman's answer (the top-ranked answer if the chairman failed)",
  openaiModel: "debatt-rank",
  mcp: {
    tool: "rank",
    description:
      "3–8 models answer a question, each ranks all the answers anonymously (llm-council's protocol), the rankings are averaged into the council's ranking, and a chairman model writes the final answer from the answers and the rankings.",
  },
  deliberate: { label: "Rank" },
  simulated: { ...deliberationAnswers, ...rankAnswers },
  evalArm: { rounds: false },
  drawing: {
    label: "Rangordning",
    color: "teal",
    labels: {
      rank_planner: "Rank Planner",
      "rank:deliberation_answer": "Answers (parallel)",
      "rank:deliberation_title_draft": "Title (beside the answers)",
      rank_anonymize: "Anonymise (labels)",
      rank_ranking: "Rankings (parallel)",
      rank_aggregate: "Mean places",
      rank_chairman: "Chairman's answer",
      "rank:deliberation_title": "Title",
    },
    parallel: ["rank:deliberation_answer", "rank_ranking"],
  },
  starts: startsRank,
  narrate: narrateRank,
  outcome: rankOutcome,
} satisfies FormatDefinition;
