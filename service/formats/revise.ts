import { z } from "zod";
import { buildReviseGraph } from "../../graph/revise.js";
import { reviseHistory } from "../../history/formats/revise.js";
import { deliberationAnswers } from "../../providers/simulated/deliberation.js";
import { voteAnswers } from "../../providers/simulated/vote.js";
import type { FormatDefinition } from "../format-definition.js";
import { reviseOutcome, narrateRevise, startsRevise } from "./revise-events.js";
import { timeoutMs } from "./options.js";

/** /revise: answers, anonymous revisions, a vote. */
export const revise = {
  history: reviseHistory,
  subgraph: buildReviseGraph,
  options: z
    .object({ antiAnchoring: z.boolean().optional().describe("Restate first, and change only on a cited error"), timeoutMs: timeoutMs(600_000) })
    .strict(),
  seeded: true,
  result: "the winner's revised answer",
  openaiModel: "debatt-revise",
  mcp: {
    tool: "revise",
    description:
      "3–6 models answer, read each other's answers anonymously, revise (or stand by) their own, and vote; the winning revised answer is the result.",
  },
  deliberate: { label: "Debate" },
  simulated: { ...deliberationAnswers, ballot: voteAnswers.ballot, restate: voteAnswers.restate, revision: voteAnswers.revision },
  evalArm: { rounds: false },
  drawing: {
    label: "Revidering",
    color: "violet",
    labels: {
      revise_planner: "Revise Planner",
      "revise:deliberation_answer": "Answers (parallel)",
      revise_anonymize: "Anonymise (round 1)",
      revise_revision: "Revisions (parallel, own prompts)",
      revise_relabel: "New Labels",
      "revise:deliberation_ballot": "Votes (parallel)",
      revise_tally: "Tally",
      revise_declare_winner: "Declare Winner",
      "revise:deliberation_title": "Title",
    },
    parallel: ["revise:deliberation_answer", "revise_revision", "revise:deliberation_ballot"],
  },
  starts: startsRevise,
  narrate: narrateRevise,
  outcome: reviseOutcome,
} satisfies FormatDefinition;
