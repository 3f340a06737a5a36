import { z } from "zod";
import { buildVoteGraph } from "../../graph/vote.js";
import { voteHistory } from "../../history/formats/vote.js";
import { deliberationAnswers } from "../../providers/simulated/deliberation.js";
import { voteAnswers } from "../../providers/simulated/vote.js";
import type { FormatDefinition } from "../format-definition.js";
import { voteOutcome, narrateVote, startsVote } from "./vote-events.js";
import { timeoutMs } from "./options.js";

/** /vote: answers, an anonymous vote, a chairman on a tie. */
export const vote = {
  history: voteHistory,
  subgraph: buildVoteGraph,
  options: z
    .object({
      chairman: z.string().min(1, "chairman is empty").max(64).optional().describe("The chairman who breaks a tie (roster key, name or model id)"),
      timeoutMs: timeoutMs(300_000),
    })
    .strict(),
  seeded: true,
  result: "the winner's answer",
  openaiModel: "debatt-vote",
  mcp: {
    tool: "vote",
    description: "3–7 models answer a question, vote anonymously on the answers, and the winner's answer is the result (a chairman model breaks a tie).",
  },
  // The endpoint's names for the models and the chairman.
  deliberate: { label: "Vote", modelsField: "councilModels", renamed: { chairmanModel: "chairman" } },
  simulated: { ...deliberationAnswers, ballot: voteAnswers.ballot, tiebreaker: voteAnswers.tiebreaker },
  evalArm: { rounds: false },
  drawing: {
    label: "Omröstning",
    color: "emerald",
    labels: {
      vote_planner: "Vote Planner",
      "vote:deliberation_answer": "Answers (parallel)",
      vote_anonymize: "Anonymise (labels)",
      "vote:deliberation_ballot": "Votes (parallel)",
      vote_tally: "Tally",
      vote_tiebreak: "Chairman Tiebreak",
      vote_declare_winner: "Declare Winner",
      "vote:deliberation_title": "Title",
    },
    parallel: ["vote:deliberation_answer", "vote:deliberation_ballot"],
    branches: { vote_tiebreak: "oavgjort" },
  },
  starts: startsVote,
  narrate: narrateVote,
  outcome: voteOutcome,
} satisfies FormatDefinition;
