import { SIZES, type PlanContext } from "../estimate-plan.js";
import type { FormatSpec } from "../format-spec.js";

/** /vote: 3–7 models answer, vote on the anonymised answers, a chairman breaks a tie. */
export const VOTE = {
  command: "/vote",
  takes: "question",
  storedMode: "vote",
  participants: { min: 3, max: 7, duplicates: "merge" },
  thread: "own",
  multiTurn: true,
  flags: {},
  /** A first answer; a vote for an anonymised answer (`VOTE: Response X`); the chairman's pick among tied answers; the title. */
  ballots: true,
  phases: ["answer", "ballot", "tiebreaker", "title"],
  plan({ participants, question: q, answer, each, internal }: PlanContext) {
    const { instructions, ballot, title } = SIZES;
    each(instructions + q, answer);
    each(instructions + q + participants.length * answer, ballot);
    internal(instructions + q, title);
  },
} as const satisfies FormatSpec;
