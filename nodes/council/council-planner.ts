import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { NodeDeps } from "../../ports/node-deps.js";
import type { CouncilStateType, CouncilUpdate } from "../../state/council.js";
import { planDeliberation } from "../shared/plan.js";
import { judgeOf, perspectiveOf } from "./lib/verdict.js";
import { askedOf } from "../../state/shared.js";

/**
 * council_planner: picks the judges (the request's, else the first three of the roster), gives
 * each a distinct perspective (correctness, risk, completeness, …), and announces the run with
 * `council_start` and round 1's `council_round_start`. /council is single-turn (a validation).
 */
export function makeCouncilPlanner(deps: NodeDeps) {
  return async function councilPlanner(state: CouncilStateType, config: LangGraphRunnableConfig): Promise<CouncilUpdate> {
    const plan = planDeliberation(deps, await deps.context(config), state, config, "council");
    if (!plan.ok) return plan.update;
    const perspectives = Object.fromEntries(plan.participants.map((p, i) => [p.key, perspectiveOf(i)]));
    emit(config, "council_start", {
      conversationId: plan.conversationId,
      messageId: plan.id,
      mode: "council",
      claim: askedOf(state),
      judges: plan.participants.map((p) => judgeOf(p, perspectives[p.key])),
      debate: plan.options.debate,
      simulated: deps.models.simulated,
    });
    emit(config, "council_round_start", { round: 1 });
    return { ...plan.update, perspectives };
  };
}
