import { z } from "zod";
import { buildCompareGraph } from "../../graph/compare.js";
import type { FormatDefinition } from "../format-definition.js";

/** /compare: every model answers at once. */
export const compare = {
  subgraph: buildCompareGraph,
  options: z.object({}).strict(),
  seeded: false,
  openaiModel: "debatt-compare",
  mcp: { tool: "compare", description: "Every model answers the question at once; the answers are returned side by side." },
  deliberate: null,
} satisfies FormatDefinition;
