import { z } from "zod";
import { buildDeepGraph } from "../../graph/deep.js";
import { FORMATS } from "../../state/formats.js";
import { deepHistory } from "../../history/formats/deep.js";
import { deepAnswers } from "../../providers/simulated/deep.js";
import { deliberationAnswers } from "../../providers/simulated/deliberation.js";
import type { FormatDefinition } from "../format-definition.js";
import { deepOutcome, narrateDeep, startsDeep } from "./deep-events.js";
import { timeoutMs } from "./options.js";

const { min, max } = FORMATS.deep.rounds;

/** /deep: anonymous debaters argue until a moderator finds they converge. */
export const deep = {
  history: deepHistory,
  subgraph: buildDeepGraph,
  options: z
    .object({ maxRounds: z.number().int().min(min).max(max).optional().describe(`Most debate rounds (${min}–${max})`), timeoutMs: timeoutMs(600_000) })
    .strict(),
  seeded: true,
  result: "the synthesis",
  openaiModel: "debatt-deep",
  mcp: { tool: "deep", description: "Anonymous debaters argue in rounds until a moderator finds they converge; a synthesis gives the final answer." },
  deliberate: { label: "Deep" },
  simulated: { ...deliberationAnswers, ...deepAnswers },
  evalArm: { rounds: true },
  drawing: {
    label: "Djupdebatt",
    color: "rose",
    labels: {
      deep_planner: "Deep Planner",
      "deep:deliberation_answer": "Answers (parallel)",
      deep_anonymize: "Debater A/B/C…",
      deep_argue: "Arguments (parallel, JSON)",
      deep_moderate: "Moderator + stopping rule",
      deep_synthesize: "Deep Synthesis",
      "deep:deliberation_title": "Title",
    },
    parallel: ["deep:deliberation_answer", "deep_argue"],
    branches: { deep_synthesize: "stopp" },
    loops: { "deep_moderate→deep_argue": "nästa runda ×N" },
  },
  starts: startsDeep,
  narrate: narrateDeep,
  outcome: deepOutcome,
} satisfies FormatDefinition;
