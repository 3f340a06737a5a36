import { SIZES, type PlanContext } from "../estimate-plan.js";
import type { FormatSpec } from "../format-spec.js";

/**
 * /rank: llm-council's protocol. 3–8 models answer, each ranks all the anonymised answers (its own
 * among them, unmarked), the rankings are averaged into the council's ranking, and a chairman
 * writes the final answer from the answers and the rankings. Four by default: every model reads
 * every answer, so the ranking stage grows with the square of the panel.
 */
export const RANK = {
  command: "/rank",
  takes: "question",
  storedMode: "rank",
  participants: { min: 3, max: 8, byDefault: 4, duplicates: "merge" },
  thread: "own",
  multiTurn: false,
  flags: {},
  /** A first answer; a model's evaluation and ranking of all the answers (`FINAL RANKING:`); the chairman's final answer; the title. */
  /** llm-council leaves its first answers uncapped: they get room to be as long as there (still a cap: a model that never stops must). */
  answerTokens: 4_000,
  ballots: true,
  phases: ["answer", "ranking", "chairman", "title"],
  plan({ participants, question: q, answer, each, internal }: PlanContext) {
    const { instructions, verdict, ballot, synthesis, title } = SIZES;
    const n = participants.length;
    each(instructions + q, answer);
    // An evaluation of each answer, then the ranked list.
    const ranking = verdict + n * ballot;
    each(instructions + q + n * answer, ranking);
    internal(instructions + q + n * answer + n * ranking, synthesis);
    internal(instructions + q, title);
  },
} as const satisfies FormatSpec;
