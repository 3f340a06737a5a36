import { SIZES, type PlanContext } from "../estimate-plan.js";
import type { FormatSpec } from "../format-spec.js";

/**
 * /moa: Mixture-of-Agents (Wang et al. 2024). Layers of proposers: the first answers the
 * question, each later one answers it again with the layer before's answers as references; an
 * aggregator writes the final answer from the last layer's. `layers` counts every layer, the
 * aggregator's too, as togethercomputer/MoA does (its `rounds` are the layers less one): the
 * default 3 is two layers of proposers and the aggregator. The proposers are the whole roster
 * unless the request names them.
 */
export const MOA = {
  command: "/moa",
  takes: "question",
  storedMode: "moa",
  participants: { min: 2, max: 8, duplicates: "merge" },
  thread: "own",
  multiTurn: false,
  flags: {},
  /** The layers, the aggregator's included: the fewest, the default and the most. */
  rounds: { min: 2, default: 3, max: 5 },
  /** A first answer; a proposer's answer with references; the aggregator's final answer; the title. */
  ballots: false,
  phases: ["answer", "proposal", "aggregate", "title"],
  plan({ participants, question: q, answer, each, internal }: PlanContext) {
    const { instructions, title } = SIZES;
    const n = participants.length;
    each(instructions + q, answer);
    // Every later layer of proposers, then the aggregator, reads the layer before's answers.
    for (let layer = 2; layer < MOA.rounds.default; layer++) each(instructions + q + n * answer, answer);
    internal(instructions + q + n * answer, answer);
    internal(instructions + q, title);
  },
} as const satisfies FormatSpec;
