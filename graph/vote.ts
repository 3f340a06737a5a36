import { END, START, StateGraph } from "@langchain/langgraph";
import { makeDeliberationAnswer, type AnswerTask } from "../nodes/deliberation/deliberation-answer.js";
import { makeDeliberationBallot, type BallotTask } from "../nodes/deliberation/deliberation-ballot.js";
import { makeDeliberationTitle } from "../nodes/deliberation/deliberation-title.js";
import { makeVoteAnonymize } from "../nodes/vote/vote-anonymize.js";
import { makeVotePlanner } from "../nodes/vote/vote-planner.js";
import { voteTally } from "../nodes/vote/vote-tally.js";
import { makeVoteTiebreak } from "../nodes/vote/vote-tiebreak.js";
import { voteDeclareWinner } from "../nodes/vote/vote-declare-winner.js";
import { GraphState, type State } from "../state/graph-state.js";
import { answerOf } from "../nodes/shared/outcomes.js";
import { answerSends, ballotSends } from "./deliberation.js";
import type { GraphDeps } from "../ports/node-deps.js";

type Update = typeof GraphState.Update;

/** After the planner: one answer task per model (stage 1, in parallel), or the end (bad request). */
export const routeToAnswers = (state: State) => answerSends(state, "vote");

/** After anonymisation: one vote task per model that answered (stage 2, in parallel), or the end. */
export const routeToBallots = (state: State) => ballotSends(state, "vote", "vote.ballot", (key) => answerOf(state, key));

/** After the tally: the chairman on a tie, the winner otherwise, the end when no vote counted. */
export function routeAfterTally(state: State): "vote_tiebreak" | "vote_declare_winner" | typeof END {
  if (state.deliberation_error) return END;
  return state.vote_round?.isTie ? "vote_tiebreak" : "vote_declare_winner";
}

/** After the tiebreak: the winner, or the end when the chairman failed. */
export function routeAfterTiebreak(state: State): "vote_declare_winner" | typeof END {
  return state.deliberation_error ? END : "vote_declare_winner";
}

/**
 * The /vote subgraph (seed 001): vote_planner → deliberation_answer ×N (Send) → vote_anonymize →
 * deliberation_ballot ×N (Send) → vote_tally → [tie] vote_tiebreak → vote_declare_winner → deliberation_title.
 */
export function buildVoteGraph(deps: GraphDeps) {
  return new StateGraph(GraphState)
    .addNode("vote_planner", makeVotePlanner(deps))
    .addNode("deliberation_answer", makeDeliberationAnswer(deps) as unknown as (task: AnswerTask) => Promise<Update>)
    .addNode("vote_anonymize", makeVoteAnonymize(deps))
    .addNode("deliberation_ballot", makeDeliberationBallot(deps) as unknown as (task: BallotTask) => Promise<Update>)
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
