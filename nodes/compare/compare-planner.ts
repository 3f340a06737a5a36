import { refusalOf } from "../../state/errors.js";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { NodeDeps } from "../../ports/node-deps.js";
import type { CompareStateType, CompareUpdate } from "../../state/compare.js";
import { participantsFor } from "../../state/participants.js";
import type { Participant } from "../../state/participants.js";
import { askedOf } from "../../state/shared.js";

/**
 * compare_planner: picks who answers a /compare question (the roster or the requested subset)
 * and announces it with `compare_start`. A /compare message never touches the debate's state:
 * debate and compare are separate formats.
 */
export function makeComparePlanner(deps: NodeDeps) {
  return async function comparePlanner(state: CompareStateType, config: LangGraphRunnableConfig): Promise<CompareUpdate> {
    let participants: Participant[];
    try {
      participants = participantsFor("compare", deps.roster, state.participants);
    } catch (err) {
      emit(config, "error", refusalOf(err));
      return { members: [] };
    }
    emit(config, "compare_start", {
      question: askedOf(state),
      participants: participants.map((p) => ({ key: p.key, display: p.display, model: p.model })),
      simulated: deps.models.simulated,
    });
    return { members: participants };
  };
}
