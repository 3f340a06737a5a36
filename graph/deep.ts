import { END, Send, START, StateGraph } from "@langchain/langgraph";
import { runIdentityNames, redactSelfIdentification } from "../nodes/shared/anonymity.js";
import { makeDeepAnonymize } from "../nodes/deep/deep-anonymize.js";
import { makeDeepArgue, renderArgument, type ArgueTask } from "../nodes/deep/deep-argue.js";
import { makeDeepModerate } from "../nodes/deep/deep-moderate.js";
import { makeDeepPlanner } from "../nodes/deep/deep-planner.js";
import { makeDeepSynthesize } from "../nodes/deep/deep-synthesize.js";
import { makeDeliberationAnswer, type AnswerTask } from "../nodes/deliberation/deliberation-answer.js";
import { answerOf } from "../nodes/shared/outcomes.js";
import { makeDeliberationTitle } from "../nodes/deliberation/deliberation-title.js";
import { GraphState, type State } from "../state/graph-state.js";
import { answerSends } from "./deliberation.js";
import type { GraphDeps } from "../ports/node-deps.js";

type Update = typeof GraphState.Update;

/** After the planner: the first answers, in parallel (or the end: a refused request). */
export const routeToAnswers = (state: State) => answerSends(state, "deep");

/**
 * One argue task per debater for the current round, each with its own prompt (seed 004): its own
 * answer, the others' as `### Debater X`, and from round 2 every debater's previous argument.
 * Self-identification is removed from what other debaters read.
 */
export function routeToArguments(state: State): Send[] | typeof END {
  if (state.deliberation_error) return END;
  const round = state.deep_round;
  const names = runIdentityNames(state);
  const byKey = new Map(state.deliberation_participants.map((p) => [p.key, p]));
  const previous = state.deep_turns.filter((t) => t.round === round - 1 && t.argument);
  const previousRound = previous.length
    ? `\n## Previous Round Arguments\n${previous.map((t) => `### Debater ${t.label}\n${redactSelfIdentification(renderArgument(t.argument!), names)}\n---\n`).join("")}`
    : "";
  return Object.entries(state.deliberation_labels).map(([label, key]) => {
    const others = Object.entries(state.deliberation_labels).filter(([, k]) => k !== key);
    const lastPosition = [...state.deep_turns].reverse().find((t) => t.label === label && t.argument)?.argument?.revised_position;
    return new Send("deep_argue", {
      round,
      label,
      participant: byKey.get(key)!,
      question: state.deliberation_question ?? "",
      ownResponse: answerOf(state, key),
      otherResponses: others.map(([l, k]) => `### Debater ${l}\n${redactSelfIdentification(answerOf(state, k), names)}\n---\n`).join(""),
      previousRound,
      position: lastPosition ?? answerOf(state, key),
      timeoutMs: state.deliberation_timeout_ms,
    } satisfies ArgueTask);
  });
}

/** After the moderator: the synthesis when the debate stopped, the next round otherwise, or the end. */
export function routeAfterModeration(state: State): "deep_synthesize" | Send[] | typeof END {
  if (state.deliberation_error) return END;
  return state.deep_outcomes.at(-1)?.stop ? "deep_synthesize" : routeToArguments(state);
}

/**
 * The /deep subgraph (seed 004): deep_planner → deliberation_answer ×N → deep_anonymize (Debater
 * A/B/C…) → deep_argue ×N → deep_moderate ⟲ (another round until the stopping rule says stop)
 * → deep_synthesize → deliberation_title.
 */
export function buildDeepGraph(deps: GraphDeps) {
  return new StateGraph(GraphState)
    .addNode("deep_planner", makeDeepPlanner(deps))
    .addNode("deliberation_answer", makeDeliberationAnswer(deps) as unknown as (task: AnswerTask) => Promise<Update>)
    .addNode("deep_anonymize", makeDeepAnonymize(deps))
    .addNode("deep_argue", makeDeepArgue(deps) as unknown as (task: ArgueTask) => Promise<Update>)
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
