import { buildMoaGraph } from "../../graph/moa.js";
import { moaHistory } from "../../history/formats/moa.js";
import { deliberationAnswers } from "../../providers/simulated/deliberation.js";
import { moaAnswers } from "../../providers/simulated/moa.js";
import { MoaOptionsSchema } from "../../state/moa.js";
import type { FormatDefinition } from "../format-definition.js";
import { moaOutcome, narrateMoa, startsMoa } from "./moa-events.js";
import { timeoutMs } from "./options.js";

/** /moa: Mixture-of-Agents. Layers of proposers, each reading the layer before's answers, then an aggregator's final answer. */
export const moa = {
  history: moaHistory,
  subgraph: buildMoaGraph,
  options: MoaOptionsSchema.extend({ timeoutMs: timeoutMs(300_000) }).strict(),
  seeded: false,
  result: "the aggregator's answer (the last layer's first answer if the aggregator failed)",
  openaiModel: "debatt-moa",
  mcp: {
    tool: "moa",
    description:
      "Mixture-of-Agents (Wang et al. 2024): 2–8 proposer models answer a question; in each later layer they answer again with the previous layer's answers as references; an aggregator model writes the final answer from the last layer's answers. Options: layers (2–5, the aggregator's included; default 3) and aggregator.",
  },
  deliberate: { label: "MoA" },
  simulated: { ...deliberationAnswers, ...moaAnswers },
  evalArm: { rounds: false },
  drawing: {
    label: "Mixture-of-Agents",
    color: "indigo",
    labels: {
      moa_planner: "MoA Planner",
      "moa:deliberation_answer": "Layer 1 (parallel)",
      moa_layer: "Layer in",
      moa_proposal: "Next layer (parallel)",
      moa_aggregate: "Aggregator",
      "moa:deliberation_title": "Title",
    },
    parallel: ["moa:deliberation_answer", "moa_proposal"],
    loops: { "moa_layer→moa_proposal": "nästa lager ×N" },
  },
  starts: startsMoa,
  narrate: narrateMoa,
  outcome: moaOutcome,
} satisfies FormatDefinition;
