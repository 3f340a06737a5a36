import { END, START, StateGraph } from "@langchain/langgraph";
import type { NodeDeps } from "../ports/node-deps.js";
import { makeDeliberationAnswer } from "../nodes/deliberation/deliberation-answer.js";
import { makeDeliberationBallot } from "../nodes/deliberation/deliberation-ballot.js";
import { makeDeliberationTitle } from "../nodes/deliberation/deliberation-title.js";
import { ballotTasks } from "../nodes/shared/tasks.js";
import { makeVoteAnonymize } from "../nodes/vote/vote-anonymize.js";
import { voteDeclareWinner } from "../nodes/vote/vote-declare-winner.js";
import { makeVotePlanner } from "../nodes/vote/vote-planner.js";
import { voteTally } from "../nodes/vote/vote-tally.js";
import { makeVoteTiebreak } from "../nodes/vote/vote-tiebreak.js";
import { answerOf } from "../state/deliberation.js";
import { FormatInput } from "../state/shared.js";
import { VoteState, type VoteStateType } from "../state/vote.js";
import { answersRoute, isVoterTask, parallelCalls, taskNode } from "./tasks.js";

/** After the planner: the first answers, in parallel (or the end: a refused request). */
export const routeToAnswers = answersRoute("vote");

/** After anonymisation: the votes (stage 2), or the end. */
export function routeToBallots(state: VoteStateType): "deliberation_ballot" | typeof END {
  return state.error ? END : "deliberation_ballot";
}

/** One vote per model that answered, on the anonymised answers. */
function ballotsOf(state: VoteStateType) {
  return ballotTasks(state, "vote", "vote.ballot", (key) => answerOf(state, key));
}

/** After the tally: the chairman on a tie, the winner otherwise, the end when no vote counted. */
export function routeAfterTally(state: VoteStateType): "vote_tiebreak" | "vote_declare_winner" | typeof END {
  if (state.error) return END;
  return state.tally?.isTie ? "vote_tiebreak" : "vote_declare_winner";
}

/** After the tiebreak: the winner, or the end when the chairman failed. */
export function routeAfterTiebreak(state: VoteStateType): "vote_declare_winner" | typeof END {
  return state.error ? END : "vote_declare_winner";
}

/**
 * The /vote subgraph, on its own state: vote_planner → deliberation_answer ×N (Send) →
 * vote_anonymize → deliberation_ballot (a call per voter, in parallel) → vote_tally → [tie]
 * vote_tiebreak → vote_declare_winner → deliberation_title.
 */
export function buildVoteGraph(deps: NodeDeps) {
  return new StateGraph({ state: VoteState, input: FormatInput })
    .addNode("vote_planner", makeVotePlanner(deps))
    .addNode("deliberation_answer", taskNode(makeDeliberationAnswer(deps)))
    .addNode("vote_anonymize", makeVoteAnonymize(deps))
    .addNode("deliberation_ballot", parallelCalls("deliberation_ballot", makeDeliberationBallot(deps), ballotsOf, isVoterTask))
    .addNode("vote_tally", voteTally)
    .addNode("vote_tiebreak", makeVoteTiebreak(deps))
    .addNode("vote_declare_winner", voteDeclareWinner)
    .addNode("deliberation_title", makeDeliberationTitle(deps))
    .addEdge(START, "vote_planner")
    .addConditionalEdges("vote_planner", routeToAnswers, ["deliberation_answer", END])
    .addEdge("deliberation_answer", "vote_anonymize")
    .addConditionalEdges("vote_anonymize", routeToBallots, ["deliberation_ballot", END])
    .addEdge("deliberation_ballot", "vote_tally")
    .addConditionalEdges("vote_tally", routeAfterTally, ["vote_tiebreak", "vote_declare_winner", END])
    .addConditionalEdges("vote_tiebreak", routeAfterTiebreak, ["vote_declare_winner", END])
    .addEdge("vote_declare_winner", "deliberation_title")
    .addEdge("deliberation_title", END)
    .compile({ name: "vote" });
}
