import { END, Send, START, StateGraph } from "@langchain/langgraph";
import type { NodeDeps } from "../ports/node-deps.js";
import { makeDeliberationAnswer } from "../nodes/deliberation/deliberation-answer.js";
import { makeDeliberationTitle } from "../nodes/deliberation/deliberation-title.js";
import { makeMoaAggregate } from "../nodes/moa/moa-aggregate.js";
import { moaLayer } from "../nodes/moa/moa-layer.js";
import { makeMoaPlanner } from "../nodes/moa/moa-planner.js";
import { makeMoaProposal, type ProposalTask } from "../nodes/moa/moa-proposal.js";
import { MoaState, type MoaStateType } from "../state/moa.js";
import { FormatInput } from "../state/shared.js";
import { answering } from "./answers.js";
import { answersRoute, taskNode } from "./tasks.js";

/** After the planner: the first layer's answers, in parallel (or the end: a refused request). */
export const routeToAnswers = answersRoute("moa");

/**
 * After a layer: the next layer's proposers (every member, in parallel, each reading the layer
 * before's answers), the aggregator after the last layer of proposers, or the end (too few first answers).
 */
export function routeAfterLayer(state: MoaStateType): Send[] | "moa_aggregate" | typeof END {
  if (state.error) return END;
  if (state.layer >= state.layers - 1) return "moa_aggregate";
  return state.members.map(
    (proposer) =>
      new Send("moa_proposal", {
        proposer,
        layer: state.layer + 1,
        question: state.question,
        references: state.references.texts,
        timeoutMs: state.timeout_ms,
      } satisfies ProposalTask),
  );
}

/**
 * The /moa subgraph, on its own state: moa_planner → deliberation_answer ×N (Send) → moa_layer →
 * (moa_proposal ×N (Send) → moa_layer) for each later layer of proposers → moa_aggregate →
 * deliberation_title. The aggregator's answer (or the last layer's first standing in) is the run's `answer`.
 */
export function buildMoaGraph(deps: NodeDeps) {
  return new StateGraph({ state: MoaState, input: FormatInput })
    .addNode("moa_planner", makeMoaPlanner(deps))
    .addNode("deliberation_answer", taskNode(makeDeliberationAnswer(deps)))
    .addNode("moa_layer", moaLayer)
    .addNode("moa_proposal", taskNode(makeMoaProposal(deps)))
    .addNode(
      "moa_aggregate",
      answering(makeMoaAggregate(deps), (update) => update.final?.answer),
    )
    .addNode("deliberation_title", makeDeliberationTitle(deps))
    .addEdge(START, "moa_planner")
    .addConditionalEdges("moa_planner", routeToAnswers, ["deliberation_answer", END])
    .addEdge("deliberation_answer", "moa_layer")
    .addConditionalEdges("moa_layer", routeAfterLayer, ["moa_proposal", "moa_aggregate", END])
    .addEdge("moa_proposal", "moa_layer")
    .addEdge("moa_aggregate", "deliberation_title")
    .addEdge("deliberation_title", END)
    .compile({ name: "moa" });
}
