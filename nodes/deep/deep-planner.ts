import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { GraphDeps } from "../../ports/node-deps.js";
import { emit } from "../../ports/emit.js";
import { whoIs } from "../../state/deliberation.js";
import type { State, StateUpdate } from "../../state/graph-state.js";
import { planDeliberation, refuse } from "../shared/plan.js";
import { DEEP_DEFAULT_MAX_ROUNDS, DEEP_MAX_ROUNDS_LIMIT, DEEP_MIN_ROUNDS } from "./lib/stopping-rule.js";

/**
 * deep_planner: checks `maxRounds` (2–6), picks the debaters (the request's, else the first four
 * of the roster), resets the state, and announces the run with `deep_start` (with min and max rounds) and `stage1_start`.
 */
export function makeDeepPlanner(deps: GraphDeps) {
  return async function deepPlanner(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
    const maxRounds = state.mode_config?.maxRounds ?? DEEP_DEFAULT_MAX_ROUNDS;
    if (!Number.isInteger(maxRounds) || maxRounds < DEEP_MIN_ROUNDS || maxRounds > DEEP_MAX_ROUNDS_LIMIT) {
      return refuse(config, "invalid_mode_config", `maxRounds must be a whole number from ${DEEP_MIN_ROUNDS} to ${DEEP_MAX_ROUNDS_LIMIT}, got ${maxRounds}`).update;
    }
    const plan = planDeliberation(deps, state, config, "deep", { multiTurn: true });
    if (!plan.ok) return plan.update;
    emit(config, "deep_start", {
      conversationId: plan.conversationId,
      messageId: plan.id,
      mode: "deep",
      question: state.deliberation_question ?? "",
      participants: plan.participants.map(whoIs),
      minRounds: DEEP_MIN_ROUNDS,
      maxRounds,
      simulated: deps.models.simulated,
    });
    emit(config, "stage1_start", {});
    return { ...plan.update, deep_max_rounds: maxRounds };
  };
}
