import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { GraphDeps } from "../../ports/node-deps.js";
import { emit } from "../../ports/emit.js";
import { whoIs } from "../../state/deliberation.js";
import type { State, StateUpdate } from "../../state/graph-state.js";
import { resolveParticipant, type Participant } from "../../state/participants.js";
import { planDeliberation, refuse } from "../shared/plan.js";

/** The chairman when a request names none: the internal model (it also writes /debatt's synthesis). */
export function defaultChairman(model: string): Participant {
  return { key: "chairman", display: "Chairman", model };
}

/**
 * vote_planner: picks the voting models (the request's, else the first seven of the roster) and
 * the chairman, resets the /vote state and announces the run with `vote_start` and
 * `stage1_start` (seed 001 §C). /vote is multi-turn.
 */
export function makeVotePlanner(deps: GraphDeps) {
  return async function votePlanner(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
    const plan = planDeliberation(deps, state, config, "vote", { multiTurn: true });
    if (!plan.ok) return plan.update;
    const named = state.mode_config?.chairman;
    let chairman: Participant;
    try {
      chairman = named ? resolveParticipant(deps.settings.roster, named) : defaultChairman(deps.settings.oneseekModel);
    } catch (err) {
      return refuse(config, "invalid_participants", (err as Error).message).update;
    }
    emit(config, "vote_start", {
      conversationId: plan.conversationId,
      messageId: plan.id,
      mode: "vote",
      question: state.deliberation_question ?? "",
      participants: plan.participants.map(whoIs),
      chairman: whoIs(chairman),
      simulated: deps.models.simulated,
    });
    emit(config, "stage1_start", {});
    return { ...plan.update, deliberation_chairman: chairman };
  };
}
