import { z } from "zod";
import { buildCompareGraph } from "../../graph/compare.js";
import { compareHistory } from "../../history/formats/compare.js";
import { compareAnswers } from "../../providers/simulated/compare.js";
import type { FormatDefinition } from "../format-definition.js";
import { compareOutcome, narrateCompare, startsCompare } from "./compare-events.js";

/** /compare: every model answers at once. */
export const compare = {
  history: compareHistory,
  subgraph: buildCompareGraph,
  options: z.object({}).strict(),
  seeded: false,
  result: "every answer, under its model's name",
  openaiModel: "debatt-compare",
  mcp: { tool: "compare", description: "Every model answers the question at once; the answers are returned side by side." },
  deliberate: null,
  simulated: compareAnswers,
  evalArm: null,
  drawing: {
    label: "Jämförelse",
    color: "sky",
    labels: { compare_planner: "Compare Planner", compare_answer: "Compare Answers (parallel)", compare_complete: "Compare Complete" },
    parallel: ["compare_answer"],
  },
  starts: startsCompare,
  narrate: narrateCompare,
  outcome: compareOutcome,
} satisfies FormatDefinition;
