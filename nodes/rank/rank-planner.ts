import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { NodeDeps } from "../../ports/node-deps.js";
import { whoIs } from "../../state/deliberation.js";
import type { RankStateType, RankUpdate } from "../../state/rank.js";
import { chairmanOf, planDeliberation } from "../shared/plan.js";
import { askedOf } from "../../state/shared.js";

/**
 * rank_planner: picks the models (the request's, else the first four of the roster) and the
 * chairman (the request's `chairman`, else the internal model, as /vote's), and announces the run
 * with `rank_start` and `stage1_start`. /rank answers one question: no follow-ups.
 */
export function makeRankPlanner(deps: NodeDeps) {
  return async function rankPlanner(state: RankStateType, config: LangGraphRunnableConfig): Promise<RankUpdate> {
    const plan = planDeliberation(deps, await deps.context(config), state, config, "rank");
    if (!plan.ok) return plan.update;
    const chair = chairmanOf(deps, plan.options.chairman, config);
    if (!chair.ok) return chair.update;
    const { chairman } = chair;
    emit(config, "rank_start", {
      conversationId: plan.conversationId,
      messageId: plan.id,
      mode: "rank",
      question: askedOf(state),
      participants: plan.participants.map(whoIs),
      chairman: whoIs(chairman),
      simulated: deps.models.simulated,
    });
    emit(config, "stage1_start", {});
    return { ...plan.update, chairman };
  };
}
