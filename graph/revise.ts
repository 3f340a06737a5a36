import { END, Send, START, StateGraph } from "@langchain/langgraph";
import { runIdentityNames } from "../nodes/shared/anonymity.js";
import { makeDeliberationAnswer, type AnswerTask } from "../nodes/deliberation/deliberation-answer.js";
import { makeDeliberationBallot, type BallotTask } from "../nodes/deliberation/deliberation-ballot.js";
import { makeDeliberationTitle } from "../nodes/deliberation/deliberation-title.js";
import { labelledResponses } from "../nodes/shared/labels.js";
import { makeReviseAnonymize } from "../nodes/revise/revise-anonymize.js";
import { reviseDeclareWinner } from "../nodes/revise/revise-declare-winner.js";
import { makeRevisePlanner } from "../nodes/revise/revise-planner.js";
import { makeReviseRelabel } from "../nodes/revise/revise-relabel.js";
import { makeReviseRevision, type RevisionTask } from "../nodes/revise/revise-revision.js";
import { reviseTally } from "../nodes/revise/revise-tally.js";
import { GraphState, type State } from "../state/graph-state.js";
import { answerOf } from "../nodes/shared/outcomes.js";
import { answerSends, ballotSends } from "./deliberation.js";
import type { GraphDeps } from "../ports/node-deps.js";

type Update = typeof GraphState.Update;

/** After the planner: the first answers, in parallel (or the end: a refused request). */
export const routeToAnswers = (state: State) => answerSends(state, "revise");

/**
 * After anonymisation: one revision task per model that answered, each with its OWN prompt: its
 * own answer, and every other answer under its round-1 label (seed 000 buildRevisionPrompts).
 */
export function routeToRevisions(state: State): Send[] | typeof END {
  if (state.deliberation_error) return END;
  const names = runIdentityNames(state);
  const labels = state.revise_round1_labels;
  const byKey = new Map(state.deliberation_participants.map((p) => [p.key, p]));
  return Object.values(labels).map((key) => {
    const others = Object.fromEntries(Object.entries(labels).filter(([, k]) => k !== key));
    return new Send("revise_revision", {
      participant: byKey.get(key)!,
      question: state.deliberation_question ?? "",
      ownResponse: answerOf(state, key),
      otherResponses: labelledResponses(others, (k) => answerOf(state, k), names),
      antiAnchoring: state.revise_anti_anchoring,
      timeoutMs: state.deliberation_timeout_ms,
    } satisfies RevisionTask);
  });
}

/** After relabelling: every model that answered votes on the revised answers, in parallel. */
export const routeToBallots = (state: State) =>
  ballotSends(state, "revise", "revise.ballot", (key) => state.revise_revisions.find((r) => r.modelKey === key)?.revisedResponse ?? "");

/** After the tally: the winner, or the end when no vote counted. */
export function routeAfterTally(state: State): "revise_declare_winner" | typeof END {
  return state.deliberation_error ? END : "revise_declare_winner";
}

/**
 * The /revise subgraph (seed 000, "Debate Mode"): revise_planner → deliberation_answer ×N →
 * revise_anonymize → revise_revision ×N (unique prompts) → revise_relabel (new labels) →
 * deliberation_ballot ×N → revise_tally → revise_declare_winner → deliberation_title.
 */
export function buildReviseGraph(deps: GraphDeps) {
  return new StateGraph(GraphState)
    .addNode("revise_planner", makeRevisePlanner(deps))
    .addNode("deliberation_answer", makeDeliberationAnswer(deps) as unknown as (task: AnswerTask) => Promise<Update>)
    .addNode("revise_anonymize", makeReviseAnonymize(deps))
    .addNode("revise_revision", makeReviseRevision(deps) as unknown as (task: RevisionTask) => Promise<Update>)
    .addNode("revise_relabel", makeReviseRelabel(deps))
    .addNode("deliberation_ballot", makeDeliberationBallot(deps) as unknown as (task: BallotTask) => Promise<Update>)
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
