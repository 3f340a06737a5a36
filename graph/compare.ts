import { END, Send, START, StateGraph } from "@langchain/langgraph";
import { makeCompareAnswer, type CompareTask } from "../nodes/compare/compare-answer.js";
import { compareComplete } from "../nodes/compare/compare-complete.js";
import { makeComparePlanner } from "../nodes/compare/compare-planner.js";
import { GraphState, type State } from "../state/graph-state.js";
import type { GraphDeps } from "../ports/node-deps.js";

/** After the planner: one parallel answer task per participant, or the end (bad participants). */
export function routeToAnswers(state: State): Send[] | typeof END {
  if (state.compare_participants.length === 0) return END;
  return state.compare_participants.map(
    (participant) => new Send("compare_answer", { participant, question: state.compare_question ?? "" } satisfies CompareTask),
  );
}

/**
 * The /compare subgraph (seed 003 §2's compare mode): compare_planner → compare_answer ×N
 * (Send, in parallel) → compare_complete. It shares the graph state, so Studio shows it nested.
 */
export function buildCompareGraph(deps: GraphDeps) {
  return new StateGraph(GraphState)
    .addNode("compare_planner", makeComparePlanner(deps))
    .addNode("compare_answer", makeCompareAnswer(deps) as unknown as (task: CompareTask) => Promise<typeof GraphState.Update>)
    .addNode("compare_complete", compareComplete)
    .addEdge(START, "compare_planner")
    .addConditionalEdges("compare_planner", routeToAnswers, ["compare_answer", END])
    .addEdge("compare_answer", "compare_complete")
    .addEdge("compare_complete", END)
    .compile({ name: "compare" });
}
