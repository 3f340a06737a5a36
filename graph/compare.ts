import { END, Send, START, StateGraph } from "@langchain/langgraph";
import type { NodeDeps } from "../ports/node-deps.js";
import { makeCompareAnswer } from "../nodes/compare/compare-answer.js";
import { compareComplete } from "../nodes/compare/compare-complete.js";
import { makeComparePlanner } from "../nodes/compare/compare-planner.js";
import { CompareInput, CompareState, type CompareStateType } from "../state/compare.js";
import { answering } from "./answers.js";
import { taskNode } from "./tasks.js";

/** After the planner: one parallel answer per participant, or the end (bad participants). */
export function routeToAnswers(state: CompareStateType): Send[] | typeof END {
  if (state.members.length === 0) return END;
  return state.members.map((participant) => new Send("compare_answer", { participant, question: state.question }));
}

/**
 * The /compare subgraph, on its own state: compare_planner → compare_answer ×N (Send, in
 * parallel) → compare_complete, whose answers side by side are the run's answer and AI message.
 */
export function buildCompareGraph(deps: NodeDeps) {
  return new StateGraph({ state: CompareState, input: CompareInput })
    .addNode("compare_planner", makeComparePlanner(deps))
    .addNode("compare_answer", taskNode(makeCompareAnswer(deps)))
    .addNode(
      "compare_complete",
      answering(compareComplete, (update) => update.answer),
    )
    .addEdge(START, "compare_planner")
    .addConditionalEdges("compare_planner", routeToAnswers, ["compare_answer", END])
    .addEdge("compare_answer", "compare_complete")
    .addEdge("compare_complete", END)
    .compile({ name: "compare" });
}
