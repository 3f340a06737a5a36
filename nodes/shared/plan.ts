import { randomUUID } from "node:crypto";
import { HumanMessage } from "@langchain/core/messages";
import { Overwrite, type LangGraphRunnableConfig } from "@langchain/langgraph";
import type { GraphDeps } from "../../ports/node-deps.js";
import { emit } from "../../ports/emit.js";
import { DEFAULTS } from "../../state/config.js";
import { MODE_MODELS, type DeliberationMode } from "../../state/deliberation.js";
import type { State, StateUpdate } from "../../state/graph-state.js";
import { resolveDeliberators, type Participant } from "../../state/participants.js";

/** What a seed format's planner starts from, or the update that stops the run. */
export type Plan =
  | { ok: true; id: string; conversationId: string; participants: Participant[]; update: StateUpdate }
  | { ok: false; update: StateUpdate };

/** Stops a run before it starts: the `error` event and the state that ends the subgraph. */
export function refuse(config: LangGraphRunnableConfig, code: string, message: string): Plan {
  emit(config, "error", { code, message });
  return { ok: false, update: { deliberation_error: message, deliberation_participants: [] } };
}

/**
 * The checks and the reset every seed format's planner makes: the thread's format must match
 * (seeds: "conversation mode mismatch"), a single-turn format refuses a follow-up, the models are
 * resolved and counted. The update resets all per-run state (answers, labels, votes) and sets the
 * per-call timeout: `modeConfig.timeoutMs`, else the run's `response_timeout_ms`, else 120 s.
 */
export function planDeliberation(
  deps: GraphDeps,
  state: State,
  config: LangGraphRunnableConfig,
  mode: DeliberationMode,
  options: { multiTurn: boolean },
): Plan {
  const { command } = MODE_MODELS[mode];
  if (state.conversation_mode && state.conversation_mode !== mode) {
    return refuse(config, "mode_mismatch", `this conversation is a /${state.conversation_mode} conversation; start a new one for ${command}`);
  }
  if (!options.multiTurn && state.messages.filter((m) => HumanMessage.isInstance(m)).length > 1) {
    return refuse(config, "follow_up_unsupported", `${command} answers a single question and takes no follow-ups; start a new conversation`);
  }
  const mc = state.mode_config ?? {};
  let participants: Participant[];
  try {
    participants = resolveDeliberators(deps.settings.roster, mc.models ?? state.participants, MODE_MODELS[mode]);
  } catch (err) {
    return refuse(config, "invalid_participants", (err as Error).message);
  }
  const id = (config.configurable?.run_id as string | undefined) ?? randomUUID();
  return {
    ok: true,
    id,
    conversationId: String(config.configurable?.thread_id ?? id),
    participants,
    update: {
      deliberation_id: id,
      conversation_mode: mode,
      deliberation_participants: participants,
      deliberation_chairman: null,
      deliberation_timeout_ms: mc.timeoutMs ?? (config.configurable?.response_timeout_ms as number | undefined) ?? DEFAULTS.deliberationTimeoutMs,
      deliberation_error: null,
      deliberation_answers: new Overwrite([]),
      deliberation_labels: {},
      vote_ballots: new Overwrite([]),
      vote_round: null,
      vote_tiebreaker: null,
      vote_winner: null,
      revise_round1_labels: {},
      revise_revisions: new Overwrite([]),
      revise_anti_anchoring: mc.antiAnchoring === true,
      revise_vote: null,
      revise_winner: null,
      deep_round: 0,
      deep_turns: new Overwrite([]),
      deep_outcomes: new Overwrite([]),
      deep_output: null,
      deep_synthesis: null,
      council_debate: mc.debate === true,
      council_perspectives: {},
      council_rounds: new Overwrite([]),
      council_branch: null,
      council_result: null,
      council_report: null,
    },
  };
}
