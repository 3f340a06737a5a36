import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { NodeDeps } from "../../ports/node-deps.js";
import { emit } from "../../ports/emit.js";
import { whoIs } from "../../state/deliberation.js";
import type { ReviseStateType, ReviseUpdate } from "../../state/revise.js";
import { planDeliberation } from "../shared/plan.js";
import { askedOf } from "../../state/shared.js";

/**
 * revise_planner: picks the 3–6 peers (a model named twice is two participants), refuses a
 * follow-up (/revise is single-turn), resets the state and announces the run with `debate_start`
 * (`debate` is the stored name of /revise) and `round1_start`.
 */
export function makeRevisePlanner(deps: NodeDeps) {
  return async function revisePlanner(state: ReviseStateType, config: LangGraphRunnableConfig): Promise<ReviseUpdate> {
    const plan = planDeliberation(deps, await deps.context(config), state, config, "revise");
    if (!plan.ok) return plan.update;
    emit(config, "debate_start", {
      conversationId: plan.conversationId,
      messageId: plan.id,
      mode: "debate",
      question: askedOf(state),
      participants: plan.participants.map(whoIs),
      antiAnchoring: plan.options.antiAnchoring,
      simulated: deps.models.simulated,
    });
    emit(config, "round1_start", {});
    return plan.update;
  };
}
