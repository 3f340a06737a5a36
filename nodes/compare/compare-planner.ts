import { randomUUID } from "node:crypto";
import { Overwrite, type LangGraphRunnableConfig } from "@langchain/langgraph";
import type { GraphDeps } from "../../ports/node-deps.js";
import { emit } from "../../ports/emit.js";
import type { State, StateUpdate } from "../../state/graph-state.js";
import { selectParticipants } from "../../state/participants.js";

/**
 * compare_planner: picks who answers a /compare question (the roster or the requested subset)
 * and announces it with `compare_start`. A /compare message never touches the debate state
 * (seed 003 §2: debate and compare are mutually exclusive).
 */
export function makeComparePlanner(deps: GraphDeps) {
  return async function comparePlanner(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
    let participants;
    try {
      participants = selectParticipants(deps.settings.roster, state.participants);
    } catch (err) {
      emit(config, "error", { code: "invalid_participants", message: (err as Error).message });
      return { compare_id: null, compare_participants: [] };
    }
    emit(config, "compare_start", {
      question: state.compare_question ?? "",
      participants: participants.map((p) => ({ key: p.key, display: p.display, model: p.model })),
      simulated: deps.models.simulated,
    });
    const id = (config.configurable?.run_id as string | undefined) ?? randomUUID();
    return { compare_id: id, compare_participants: participants, compare_answers: new Overwrite([]) };
  };
}
