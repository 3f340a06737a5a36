import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { NodeDeps } from "../../ports/node-deps.js";
import { whoIs } from "../../state/deliberation.js";
import type { VoteStateType, VoteUpdate } from "../../state/vote.js";
import { chairmanOf, planDeliberation } from "../shared/plan.js";
import { askedOf } from "../../state/shared.js";

/**
 * vote_planner: picks the voting models (the request's, else the first seven of the roster) and
 * the chairman (the request's, else the internal model, which also writes /debatt's synthesis),
 * and announces the run with `vote_start` and `stage1_start`. /vote is multi-turn.
 */
export function makeVotePlanner(deps: NodeDeps) {
  return async function votePlanner(state: VoteStateType, config: LangGraphRunnableConfig): Promise<VoteUpdate> {
    const plan = planDeliberation(deps, await deps.context(config), state, config, "vote");
    if (!plan.ok) return plan.update;
    const chair = chairmanOf(deps, plan.options.chairman, config);
    if (!chair.ok) return chair.update;
    const { chairman } = chair;
    emit(config, "vote_start", {
      conversationId: plan.conversationId,
      messageId: plan.id,
      mode: "vote",
      question: askedOf(state),
      participants: plan.participants.map(whoIs),
      chairman: whoIs(chairman),
      simulated: deps.models.simulated,
    });
    emit(config, "stage1_start", {});
    return { ...plan.update, chairman };
  };
}
