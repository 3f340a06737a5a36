import { END, Send, START, StateGraph } from "@langchain/langgraph";
import type { NodeDeps } from "../ports/node-deps.js";
import { makeDeliberationAnswer } from "../nodes/deliberation/deliberation-answer.js";
import { makeDeliberationBallot } from "../nodes/deliberation/deliberation-ballot.js";
import { makeDeliberationTitle } from "../nodes/deliberation/deliberation-title.js";
import { revisionTasks } from "../nodes/revise/lib/revisions.js";
import { makeReviseAnonymize } from "../nodes/revise/revise-anonymize.js";
import { reviseDeclareWinner } from "../nodes/revise/revise-declare-winner.js";
import { makeRevisePlanner } from "../nodes/revise/revise-planner.js";
import { makeReviseRelabel } from "../nodes/revise/revise-relabel.js";
import { makeReviseRevision } from "../nodes/revise/revise-revision.js";
import { reviseTally } from "../nodes/revise/revise-tally.js";
import { ballotTasks } from "../nodes/shared/tasks.js";
import { ReviseState, type ReviseStateType } from "../state/revise.js";
import { FormatInput } from "../state/shared.js";
import { answersRoute, isVoterTask, parallelCalls, taskNode } from "./tasks.js";

/** After the planner: the first answers, in parallel (or the end: a refused request). */
export const routeToAnswers = answersRoute("revise");

/** After anonymisation: one revision per model that answered, each with its own prompt. */
export function routeToRevisions(state: ReviseStateType): Send[] | typeof END {
  if (state.error) return END;
  return revisionTasks(state).map((task) => new Send("revise_revision", task));
}

/** After relabelling: the votes on the revised answers, or the end. */
export function routeToBallots(state: ReviseStateType): "deliberation_ballot" | typeof END {
  return state.error ? END : "deliberation_ballot";
}

/** One vote per model that answered, on the revised answers under their new labels. */
function ballotsOf(state: ReviseStateType) {
  const revised = (key: string) => state.revisions.find((r) => r.modelKey === key)?.revisedResponse ?? "";
  return ballotTasks(state, "revise", "revise.ballot", revised);
}

/** After the tally: the winner, or the end when no vote counted. */
export function routeAfterTally(state: ReviseStateType): "revise_declare_winner" | typeof END {
  return state.error ? END : "revise_declare_winner";
}

/**
 * The /revise subgraph, on its own state: revise_planner → deliberation_answer ×N →
 * revise_anonymize → revise_revision ×N (own prompts) → revise_relabel (new labels) →
 * deliberation_ballot (a call per voter, in parallel) → revise_tally → revise_declare_winner →
 * deliberation_title.
 */
export function buildReviseGraph(deps: NodeDeps) {
  return new StateGraph({ state: ReviseState, input: FormatInput })
    .addNode("revise_planner", makeRevisePlanner(deps))
    .addNode("deliberation_answer", taskNode(makeDeliberationAnswer(deps)))
    .addNode("revise_anonymize", makeReviseAnonymize(deps))
    .addNode("revise_revision", taskNode(makeReviseRevision(deps)))
    .addNode("revise_relabel", makeReviseRelabel(deps))
    .addNode("deliberation_ballot", parallelCalls("deliberation_ballot", makeDeliberationBallot(deps), ballotsOf, isVoterTask))
    .addNode("revise_tally", reviseTally)
    .addNode("revise_declare_winner", reviseDeclareWinner)
    .addNode("deliberation_title", makeDeliberationTitle(deps))
    .addEdge(START, "revise_planner")
    .addConditionalEdges("revise_planner", routeToAnswers, ["deliberation_answer", END])
    .addEdge("deliberation_answer", "revise_anonymize")
    .addConditionalEdges("revise_anonymize", routeToRevisions, ["revise_revision", END])
    .addEdge("revise_revision", "revise_relabel")
    .addConditionalEdges("revise_relabel", routeToBallots, ["deliberation_ballot", END])
    .addEdge("deliberation_ballot", "revise_tally")
    .addConditionalEdges("revise_tally", routeAfterTally, ["revise_declare_winner", END])
    .addEdge("revise_declare_winner", "deliberation_title")
    .addEdge("deliberation_title", END)
    .compile({ name: "revise" });
}
