import { z } from "zod";
import { debattHistory } from "../../history/formats/debatt.js";
import { debattAnswers } from "../../providers/simulated/debatt.js";
import type { FormatDefinition } from "../format-definition.js";
import { debateOutcome, narrateDebate, startsDebate } from "./debatt-events.js";

/** /debatt: its nodes are the top graph's own; its options are written before the topic or set in the run configuration. */
export const debatt = {
  history: debattHistory,
  subgraph: null,
  options: z.object({}).strict(),
  seeded: true,
  result: "the synthesis (without the arena page's data block)",
  openaiModel: "debatt",
  mcp: {
    tool: "debate",
    description:
      "Several models debate a topic in three rounds, each seeing what the others said, then vote; a synthesis sums the debate up. Returns the synthesis, the winner and the votes.",
  },
  deliberate: null,
  simulated: {
    turn: debattAnswers.turn,
    vote: debattAnswers.vote,
    convergence: debattAnswers.convergence,
    synthesis: debattAnswers.synthesis,
    research_plan: debattAnswers.research_plan,
    research_check: debattAnswers.research_check,
  },
  evalArm: { rounds: true },
  drawing: null,
  starts: startsDebate(false),
  narrate: narrateDebate,
  outcome: debateOutcome,
} satisfies FormatDefinition;
