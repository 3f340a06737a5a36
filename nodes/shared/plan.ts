import { randomUUID } from "node:crypto";
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { NodeDeps, RunContext } from "../../ports/node-deps.js";
import type { ResolvedOptions } from "../../state/run-config.js";
import { refusalOf, type ErrorCode, type Reason } from "../../state/errors.js";
import { FORMATS, type DeliberationMode } from "../../state/formats.js";
import { modelName, participantsFor, resolveParticipant } from "../../state/participants.js";
import type { Participant } from "../../state/participants.js";

/** What a deliberation format's planner reads: the keys its state takes from the top graph. */
export interface PlanInput {
  run_id: string | null;
  participants: string[] | null;
  options: ResolvedOptions;
  messages: BaseMessage[];
  conversation_mode: DeliberationMode | null;
}

/** What a deliberation format's planner starts from, or the update that stops the run. */
export type Plan =
  | {
      ok: true;
      id: string;
      conversationId: string;
      participants: Participant[];
      options: ResolvedOptions;
      update: { conversation_mode: DeliberationMode; members: Participant[]; timeout_ms: number; error: null };
    }
  | { ok: false; update: { error: string; members: Participant[] } };

/** Stops a run before it starts: the `error` event and the update that ends the subgraph. */
export function refuse(config: LangGraphRunnableConfig, code: ErrorCode, message: string, reason?: Reason): Plan & { ok: false } {
  emit(config, "error", { code, message, ...(reason ? { reason } : {}) });
  return { ok: false, update: { error: message, members: [] } };
}

/** Stops a run whose participants were refused (`unknown_model` for a model not allowed, else `invalid_participants`). */
export function refuseParticipants(config: LangGraphRunnableConfig, err: unknown): Plan & { ok: false } {
  const { code, message, reason } = refusalOf(err);
  return refuse(config, code, message, reason);
}

/**
 * The checks every deliberation format's planner makes: the conversation's format must match,
 * a single-turn format refuses a follow-up, and the members are resolved and counted (the
 * options' `models`, else the requested participants, else the format's default). The per-call
 * timeout is the options' `timeoutMs`.
 */
export function planDeliberation(deps: NodeDeps, ctx: RunContext, state: PlanInput, config: LangGraphRunnableConfig, mode: DeliberationMode): Plan {
  const { command, multiTurn } = FORMATS[mode];
  if (state.conversation_mode && state.conversation_mode !== mode) {
    return refuse(config, "mode_mismatch", `this conversation is a /${state.conversation_mode} conversation; start a new one for ${command}`);
  }
  if (!multiTurn && state.messages.filter((m) => HumanMessage.isInstance(m)).length > 1) {
    return refuse(config, "follow_up_unsupported", `${command} answers a single question and takes no follow-ups; start a new conversation`);
  }
  const options = state.options;
  let participants: Participant[];
  try {
    participants = participantsFor(mode, deps.roster, options.models ?? state.participants, deps.allowedModels);
  } catch (err) {
    return refuseParticipants(config, err);
  }
  const id = state.run_id ?? ctx.run.runId ?? randomUUID();
  return {
    ok: true,
    id,
    conversationId: ctx.run.threadId ?? id,
    participants,
    options,
    update: { conversation_mode: mode, members: participants, timeout_ms: options.timeoutMs, error: null },
  };
}

/**
 * The chairman of a run that has one (/vote's tiebreak, /rank's final answer): the request's
 * `chairman` (a roster key, name or model id), else the internal model; a chairman that cannot be
 * had refuses the run, as a participant would.
 */
export function chairmanOf(
  deps: NodeDeps,
  named: string | undefined,
  config: LangGraphRunnableConfig,
): { ok: true; chairman: Participant } | (Plan & { ok: false }) {
  try {
    return {
      ok: true,
      chairman: named
        ? resolveParticipant(deps.roster, named, deps.allowedModels)
        : { key: "chairman", display: modelName(deps.internalModel), model: deps.internalModel },
    };
  } catch (err) {
    return refuseParticipants(config, err);
  }
}
