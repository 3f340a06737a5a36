import { randomUUID } from "node:crypto";
import { Overwrite, type LangGraphRunnableConfig } from "@langchain/langgraph";
import type { GraphDeps } from "../graph/deps.js";
import { DEFAULTS } from "../state/config.js";
import { emit } from "../graph/events.js";
import { MODE_MODELS, whoIs } from "../state/deliberation.js";
import type { State, StateUpdate } from "../state/graph-state.js";
import { resolveDeliberators, resolveParticipant, type Participant } from "../state/participants.js";

/** The chairman when a request names none: the internal model (it also writes /debatt's synthesis). */
export function defaultChairman(model: string): Participant {
  return { key: "chairman", display: "Chairman", model };
}

/**
 * vote_planner: picks the voting models (the request's, else the first seven of the roster) and
 * the chairman, resets the /vote state and announces the run with `vote_start` and
 * `stage1_start` (seed 001 §C).
 */
export function makeVotePlanner(deps: GraphDeps) {
  return async function votePlanner(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
    const mc = state.mode_config ?? {};
    if (state.conversation_mode && state.conversation_mode !== "vote") {
      const message = `this conversation is a /${state.conversation_mode} conversation; start a new one for /vote`;
      emit(config, "error", { code: "mode_mismatch", message });
      return { deliberation_error: message, deliberation_participants: [] };
    }
    let participants: Participant[];
    let chairman: Participant;
    try {
      participants = resolveDeliberators(deps.settings.roster, mc.models ?? state.participants, MODE_MODELS.vote);
      chairman = mc.chairman ? resolveParticipant(deps.settings.roster, mc.chairman) : defaultChairman(deps.settings.oneseekModel);
    } catch (err) {
      const message = (err as Error).message;
      emit(config, "error", { code: "invalid_participants", message });
      return { deliberation_error: message, deliberation_participants: [] };
    }
    const id = randomUUID();
    emit(config, "vote_start", {
      conversationId: String(config.configurable?.thread_id ?? id),
      messageId: id,
      mode: "vote",
      question: state.deliberation_question ?? "",
      participants: participants.map(whoIs),
      chairman: whoIs(chairman),
      simulated: deps.models.simulated,
    });
    emit(config, "stage1_start", {});
    return {
      deliberation_id: id,
      conversation_mode: "vote",
      deliberation_participants: participants,
      deliberation_chairman: chairman,
      // Seed 001: 120 s per call unless the request (modeConfig.timeoutMs) or the run config says otherwise.
      deliberation_timeout_ms: mc.timeoutMs ?? (config.configurable?.response_timeout_ms as number | undefined) ?? DEFAULTS.deliberationTimeoutMs,
      deliberation_error: null,
      deliberation_answers: new Overwrite([]),
      deliberation_labels: {},
      vote_ballots: new Overwrite([]),
      vote_round: null,
      vote_tiebreaker: null,
      vote_winner: null,
    };
  };
}
