import { z } from "zod";
import { buildCouncilGraph } from "../../graph/council.js";
import { councilHistory } from "../../history/formats/council.js";
import { councilAnswers } from "../../providers/simulated/council.js";
import { deliberationAnswers } from "../../providers/simulated/deliberation.js";
import type { FormatDefinition } from "../format-definition.js";
import { councilOutcome, narrateCouncil, startsCouncil } from "./council-events.js";
import { timeoutMs } from "./options.js";

/** /council: judges' verdicts on a claim, with `debate` a second round. */
export const council = {
  history: councilHistory,
  subgraph: buildCouncilGraph,
  options: z
    .object({
      debate: z.boolean().optional().describe("A second round in which the judges review each other's verdicts"),
      round2TimeoutMs: z.number().int().min(1_000).max(600_000).optional().describe("A judge's time for round 2 in ms"),
      timeoutMs: timeoutMs(600_000),
    })
    .strict(),
  seeded: false,
  result: "the report",
  openaiModel: "debatt-council",
  mcp: {
    tool: "council",
    description:
      "Judges with distinct perspectives give a PASS, WARN or FAIL verdict on a claim; a report consolidates them. With debate: true the judges review each other's verdicts in a second round.",
  },
  deliberate: { label: "Council", noun: "judges" },
  simulated: { title: deliberationAnswers.title, ...councilAnswers },
  evalArm: null,
  drawing: {
    label: "Råd",
    color: "slate",
    labels: {
      council_planner: "Council Planner (perspectives)",
      council_judge: "Judges (parallel, JSON verdicts)",
      council_review: "Review (unanimity → branch)",
      council_consolidate: "Consolidation + report",
      "council:deliberation_title": "Title",
    },
    parallel: ["council_judge"],
    loops: { "council_review→council_judge": "--debate: runda 2 ×N" },
  },
  starts: startsCouncil,
  narrate: narrateCouncil,
  outcome: councilOutcome,
} satisfies FormatDefinition;
