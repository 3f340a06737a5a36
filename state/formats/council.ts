import { SIZES, type PlanContext } from "../estimate-plan.js";
import type { FormatSpec } from "../format-spec.js";

/** /council: one judge per perspective (three by default) gives a verdict; `--debate` adds a second round. */
export const COUNCIL = {
  command: "/council",
  takes: "claim",
  storedMode: "council",
  participants: { min: 2, max: 6, byDefault: 3, duplicates: "merge" },
  thread: "own",
  multiTurn: false,
  flags: { "--debate": { debate: true } },
  /** A judge's verdict (`round` 1 or 2); the consolidated report; the title. */
  ballots: false,
  phases: ["judge", "council_report", "title"],
  plan({ participants, inputs, question: q, each, internal }: PlanContext) {
    const { instructions, verdict, synthesis, title } = SIZES;
    each(instructions + q, verdict);
    if (inputs.debate) each(instructions + q + participants.length * verdict, verdict);
    internal(instructions + q + participants.length * verdict, synthesis);
    internal(instructions + q, title);
  },
} as const satisfies FormatSpec;
