import { END, Send, START, StateGraph } from "@langchain/langgraph";
import { runIdentityNames, redactSelfIdentification } from "../nodes/shared/anonymity.js";
import { makeCouncilConsolidate } from "../nodes/council/council-consolidate.js";
import { makeCouncilJudge, type JudgeTask } from "../nodes/council/council-judge.js";
import { makeCouncilPlanner } from "../nodes/council/council-planner.js";
import { councilReview, roundOf } from "../nodes/council/council-review.js";
import { makeDeliberationTitle } from "../nodes/deliberation/deliberation-title.js";
import { DEFAULTS } from "../state/config.js";
import { GraphState, type State } from "../state/graph-state.js";
import type { GraphDeps } from "../ports/node-deps.js";

type Update = typeof GraphState.Update;

/** After the planner: every judge's round 1, in parallel (or the end: a refused request). */
export function routeToRoundOne(state: State): Send[] | typeof END {
  if (state.deliberation_error) return END;
  return state.deliberation_participants.map(
    (participant, index) =>
      new Send("council_judge", {
        round: 1,
        participant,
        index,
        perspective: state.council_perspectives[participant.key],
        claim: state.deliberation_question ?? "",
        timeoutMs: state.deliberation_timeout_ms,
      } satisfies JudgeTask),
  );
}

/**
 * After a review: round 2 for every judge with a round-1 verdict (its own conversation continued,
 * the others' full verdicts sent; seed 002), the consolidation, or the end.
 */
export function routeAfterReview(state: State): Send[] | "council_consolidate" | typeof END {
  if (state.deliberation_error) return END;
  if (!state.council_branch || state.council_rounds.some((r) => r.round === 2)) return "council_consolidate";
  const r1 = roundOf(state, 1).filter((r) => r.verdict);
  const byKey = new Map(state.deliberation_participants.map((p, i) => [p.key, { p, i }]));
  const timeoutMs = state.mode_config?.round2TimeoutMs ?? DEFAULTS.councilRound2TimeoutMs;
  const names = runIdentityNames(state);
  return r1.map((own) => {
    const { p, i } = byKey.get(own.modelKey)!;
    return new Send("council_judge", {
      round: 2,
      participant: p,
      index: i,
      perspective: own.perspective,
      claim: state.deliberation_question ?? "",
      timeoutMs,
      ownReply: own.text,
      ownVerdict: own.verdict,
      // Self-identification in a verdict's text is removed: judges see each other only as judge-N.
      otherVerdicts: r1
        .filter((o) => o !== own)
        .map((o) => `\`\`\`json\n${redactSelfIdentification(JSON.stringify(o.verdict, null, 2), names)}\n\`\`\``)
        .join("\n\n"),
      branch: state.council_branch!,
    } satisfies JudgeTask);
  });
}

/**
 * The /council subgraph (seed 002 and the verdict format): council_planner →
 * council_judge ×N (round 1) → council_review → [--debate] council_judge ×N (round 2, the same
 * conversations) → council_review → council_consolidate → deliberation_title.
 */
export function buildCouncilGraph(deps: GraphDeps) {
  return new StateGraph(GraphState)
    .addNode("council_planner", makeCouncilPlanner(deps))
    .addNode("council_judge", makeCouncilJudge(deps) as unknown as (task: JudgeTask) => Promise<Update>)
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
