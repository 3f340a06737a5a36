import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { NodeDeps } from "../../ports/node-deps.js";
import type { DeepStateType, DeepUpdate } from "../../state/deep.js";
import { whoIs } from "../../state/deliberation.js";
import { FORMATS } from "../../state/formats.js";
import { planDeliberation, refuse } from "../shared/plan.js";
import { askedOf } from "../../state/shared.js";

/**
 * deep_planner: checks the most rounds (2–6), picks the debaters (the request's, else the first
 * four of the roster), and announces the run with `deep_start` (with min and max rounds) and
 * `stage1_start`.
 */
export function makeDeepPlanner(deps: NodeDeps) {
  return async function deepPlanner(state: DeepStateType, config: LangGraphRunnableConfig): Promise<DeepUpdate> {
    const ctx = await deps.context(config);
    const { min, max } = FORMATS.deep.rounds;
    const maxRounds = state.options.maxRounds;
    if (!Number.isInteger(maxRounds) || maxRounds < min || maxRounds > max) {
      return refuse(config, "invalid_mode_config", `maxRounds must be a whole number from ${min} to ${max}, got ${maxRounds}`, {
        key: "maxRounds",
        values: { min, max, got: String(maxRounds) },
      }).update;
    }
    const plan = planDeliberation(deps, ctx, state, config, "deep");
    if (!plan.ok) return plan.update;
    emit(config, "deep_start", {
      conversationId: plan.conversationId,
      messageId: plan.id,
      mode: "deep",
      question: askedOf(state),
      participants: plan.participants.map(whoIs),
      minRounds: min,
      maxRounds,
      simulated: deps.models.simulated,
    });
    emit(config, "stage1_start", {});
    return plan.update;
  };
}
