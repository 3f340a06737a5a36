import { SIZES, type PlanContext } from "../estimate-plan.js";
import type { FormatSpec } from "../format-spec.js";

/**
 * /revise: 3–6 models answer, revise after reading the others anonymously, and vote. A model
 * named twice is two participants with their own answers and labels; "debate" is its stored name.
 */
export const REVISE = {
  command: "/revise",
  takes: "question",
  storedMode: "debate",
  participants: { min: 3, max: 6, duplicates: "separate" },
  thread: "own",
  multiTurn: false,
  flags: { "--anti-anchoring": { antiAnchoring: true } },
  /** A first answer; a revision (REVISE, STAND or MERGE); with anti-anchoring, the restatement before it; a vote; the title. */
  ballots: true,
  phases: ["answer", "revision", "restate", "ballot", "title"],
  plan({ participants, question: q, answer, each, internal }: PlanContext) {
    const { instructions, ballot, title } = SIZES;
    const n = participants.length;
    each(instructions + q, answer);
    each(instructions + q + n * answer, answer);
    each(instructions + q + n * answer, ballot);
    internal(instructions + q, title);
  },
} as const satisfies FormatSpec;
