import { SIZES, type PlanContext } from "../estimate-plan.js";
import type { FormatSpec } from "../format-spec.js";

/**
 * /deep: anonymous debaters argue in rounds until a moderator finds they converge. Every round
 * asks every debater, so four by default keeps a debate affordable.
 */
export const DEEP = {
  command: "/deep",
  takes: "question",
  storedMode: "deep",
  participants: { min: 2, max: 6, byDefault: 4, duplicates: "merge" },
  thread: "own",
  multiTurn: true,
  flags: {},
  rounds: { min: 2, default: 3, max: 6 },
  /** A first answer; a debater's structured argument in a round; the moderator's assessment of a round; the final answer; the title. */
  ballots: false,
  phases: ["answer", "debater", "moderator", "deep_synthesis", "title"],
  plan({ participants, inputs, question: q, answer, each, internal }: PlanContext) {
    const { instructions, verdict, assessment, synthesis, title } = SIZES;
    const n = participants.length;
    each(instructions + q, answer);
    for (let r = 1; r <= inputs.maxRounds; r++) {
      each(instructions + q + n * (r === 1 ? answer : verdict), verdict);
      internal(instructions + q + n * verdict, assessment);
    }
    internal(instructions + q + n * verdict * inputs.maxRounds, synthesis);
    internal(instructions + q, title);
  },
} as const satisfies FormatSpec;
