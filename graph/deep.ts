import { END, Send, START, StateGraph } from "@langchain/langgraph";
import type { NodeDeps } from "../ports/node-deps.js";
import { makeDeepAnonymize } from "../nodes/deep/deep-anonymize.js";
import { makeDeepArgue } from "../nodes/deep/deep-argue.js";
import { makeDeepModerate } from "../nodes/deep/deep-moderate.js";
import { makeDeepPlanner } from "../nodes/deep/deep-planner.js";
import { makeDeepSynthesize } from "../nodes/deep/deep-synthesize.js";
import { argueTasks } from "../nodes/deep/lib/debaters.js";
import { makeDeliberationAnswer } from "../nodes/deliberation/deliberation-answer.js";
import { makeDeliberationTitle } from "../nodes/deliberation/deliberation-title.js";
import { DeepState, type DeepStateType } from "../state/deep.js";
import { FormatInput } from "../state/shared.js";
import { answersRoute, taskNode } from "./tasks.js";

/** After the planner: the first answers, in parallel (or the end: a refused request). */
export const routeToAnswers = answersRoute("deep");

/** Every debater argues the current round, in parallel (or the end: too few answers). */
export function routeToArguments(state: DeepStateType): Send[] | typeof END {
  if (state.error) return END;
  return argueTasks(state).map((task) => new Send("deep_argue", task));
}

/** After the moderator: the synthesis when the debate stopped, the next round otherwise, or the end. */
export function routeAfterModeration(state: DeepStateType): "deep_synthesize" | Send[] | typeof END {
  if (state.error) return END;
  return state.outcomes.at(-1)?.stop ? "deep_synthesize" : routeToArguments(state);
}

/**
 * The /deep subgraph, on its own state: deep_planner → deliberation_answer ×N → deep_anonymize
 * (Debater A/B/C…) → deep_argue ×N → deep_moderate ⟲ (another round until the stopping rule
 * says stop) → deep_synthesize → deliberation_title.
 */
export function buildDeepGraph(deps: NodeDeps) {
  return new StateGraph({ state: DeepState, input: FormatInput })
    .addNode("deep_planner", makeDeepPlanner(deps))
    .addNode("deliberation_answer", taskNode(makeDeliberationAnswer(deps)))
    .addNode("deep_anonymize", makeDeepAnonymize(deps))
    .addNode("deep_argue", taskNode(makeDeepArgue(deps)))
    .addNode("deep_moderate", makeDeepModerate(deps))
    .addNode("deep_synthesize", makeDeepSynthesize(deps))
    .addNode("deliberation_title", makeDeliberationTitle(deps))
    .addEdge(START, "deep_planner")
    .addConditionalEdges("deep_planner", routeToAnswers, ["deliberation_answer", END])
    .addEdge("deliberation_answer", "deep_anonymize")
    .addConditionalEdges("deep_anonymize", routeToArguments, ["deep_argue", END])
    .addEdge("deep_argue", "deep_moderate")
    .addConditionalEdges("deep_moderate", routeAfterModeration, ["deep_argue", "deep_synthesize", END])
    .addEdge("deep_synthesize", "deliberation_title")
    .addEdge("deliberation_title", END)
    .compile({ name: "deep" });
}
