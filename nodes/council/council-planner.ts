import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { GraphDeps } from "../../ports/node-deps.js";
import { emit } from "../../ports/emit.js";
import type { State, StateUpdate } from "../../state/graph-state.js";
import { judgeOf, perspectiveOf } from "./lib/verdict.js";
import { planDeliberation } from "../shared/plan.js";

/**
 * council_planner: picks the judges (the request's, else the first three of the roster), gives
 * each a distinct perspective (correctness, risk, completeness, …), and announces the run with
 * `council_start` and round 1's `council_round_start`. /council is single-turn (a validation).
 */
export function makeCouncilPlanner(deps: GraphDeps) {
  return async function councilPlanner(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
    const plan = planDeliberation(deps, state, config, "council", { multiTurn: false });
    if (!plan.ok) return plan.update;
    const perspectives = Object.fromEntries(plan.participants.map((p, i) => [p.key, perspectiveOf(i)]));
    emit(config, "council_start", {
      conversationId: plan.conversationId,
      messageId: plan.id,
      mode: "council",
      claim: state.deliberation_question ?? "",
      judges: plan.participants.map((p) => judgeOf(p, perspectives[p.key])),
      debate: plan.update.council_debate === true,
      simulated: deps.models.simulated,
    });
    emit(config, "council_round_start", { round: 1 });
    return { ...plan.update, council_perspectives: perspectives };
  };
}
