import { SIZES, type PlanContext } from "../estimate-plan.js";
import { MAX_PARTICIPANTS, MIN_PARTICIPANTS, type FormatSpec } from "../format-spec.js";

/** /compare: every model answers at once; the answers side by side. */
export const COMPARE = {
  command: "/compare",
  takes: "question",
  storedMode: "compare",
  participants: { min: MIN_PARTICIPANTS, max: MAX_PARTICIPANTS, duplicates: "merge" },
  thread: "chat",
  multiTurn: true,
  flags: {},
  /** One model's answer, side by side with the others'. */
  ballots: false,
  phases: ["compare"],
  plan: ({ question, answer, each }: PlanContext) => each(SIZES.instructions + question, answer),
} as const satisfies FormatSpec;
