import { END, Send, START, StateGraph } from "@langchain/langgraph";
import type { NodeDeps } from "../ports/node-deps.js";
import { makeCouncilConsolidate } from "../nodes/council/council-consolidate.js";
import { makeCouncilJudge } from "../nodes/council/council-judge.js";
import { makeCouncilPlanner } from "../nodes/council/council-planner.js";
import { councilReview } from "../nodes/council/council-review.js";
import { roundOneTasks, roundTwoTasks } from "../nodes/council/lib/judges.js";
import { makeDeliberationTitle } from "../nodes/deliberation/deliberation-title.js";
import { CouncilState, type CouncilStateType } from "../state/council.js";
import { FormatInput } from "../state/shared.js";
import { taskNode } from "./tasks.js";

/** After the planner: every judge's round 1, in parallel (or the end: a refused request). */
export function routeToRoundOne(state: CouncilStateType): Send[] | typeof END {
  if (state.error) return END;
  return roundOneTasks(state).map((task) => new Send("council_judge", task));
}

/** After a review: round 2 for every judge with a round-1 verdict, the consolidation, or the end. */
export function routeAfterReview(state: CouncilStateType): Send[] | "council_consolidate" | typeof END {
  if (state.error) return END;
  if (!state.branch || state.rounds.some((r) => r.round === 2)) return "council_consolidate";
  return roundTwoTasks(state, state.branch, state.options.round2TimeoutMs).map((task) => new Send("council_judge", task));
}

/**
 * The /council subgraph, on its own state: council_planner → council_judge ×N (round 1) →
 * council_review → [--debate] council_judge ×N (round 2, the same conversations) →
 * council_review → council_consolidate → deliberation_title.
 */
export function buildCouncilGraph(deps: NodeDeps) {
  return new StateGraph({ state: CouncilState, input: FormatInput })
    .addNode("council_planner", makeCouncilPlanner(deps))
    .addNode("council_judge", taskNode(makeCouncilJudge(deps)))
    .addNode("council_review", councilReview)
    .addNode("council_consolidate", makeCouncilConsolidate(deps))
    .addNode("deliberation_title", makeDeliberationTitle(deps))
    .addEdge(START, "council_planner")
    .addConditionalEdges("council_planner", routeToRoundOne, ["council_judge", END])
    .addEdge("council_judge", "council_review")
    .addConditionalEdges("council_review", routeAfterReview, ["council_judge", "council_consolidate", END])
    .addEdge("council_consolidate", "deliberation_title")
    .addEdge("deliberation_title", END)
    .compile({ name: "council" });
}
