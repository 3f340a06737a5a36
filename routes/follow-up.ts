import { FORMATS, type DeliberationMode } from "../state/formats.js";
import type { RunService } from "../service/run-service.js";
import type { Requester } from "../state/ownership.js";
import { HttpError } from "./errors.js";

/**
 * A conversation id (`threadId`): the thread of a run. The names JavaScript objects reserve are
 * refused: a checkpointer that keys objects by thread (LangGraph's MemorySaver) rejects them.
 */
export const CONVERSATION_ID = /^(?!(?:__proto__|constructor|prototype)$)[A-Za-z0-9._:-]{1,128}$/;
/** What CONVERSATION_ID allows, for error messages. */
export const ID_RULE = "1–128 characters of A–Z, a–z, 0–9, '.', '_', ':' or '-' (and not __proto__, constructor or prototype)";
export const CONVERSATION_ID_RULE = `conversationId must be ${ID_RULE}`;

/**
 * The checks of a follow-up (`conversationId`, the thread of an earlier run): it must exist
 * (404); for a deliberation format (`mode`), the conversation must be of the same format and
 * the format multi-turn (400). Any other message may follow up any conversation.
 */
export async function checkFollowUp(service: RunService, user: Requester, conversationId: string, mode: DeliberationMode | undefined): Promise<void> {
  if (!CONVERSATION_ID.test(conversationId)) throw new HttpError(400, "invalid_body", CONVERSATION_ID_RULE);
  const graph = service.graph;
  const state = graph.checkpointer ? await graph.getState({ configurable: { thread_id: conversationId } }) : undefined;
  // Another user's conversation is answered as one that does not exist.
  if (!state?.createdAt || !(await service.mayUseThread(user, conversationId))) {
    throw new HttpError(404, "conversation_not_found", `conversation "${conversationId}" not found: leave conversationId out to start a new one`);
  }
  await checkNotRunning(service, conversationId);
  if (mode === undefined) return;
  const previous = state.values.conversation_mode as DeliberationMode | null;
  if (previous !== mode) {
    throw new HttpError(
      400,
      "mode_mismatch",
      `conversation "${conversationId}" is ${previous ? `a /${previous}` : "a chat or /debatt"} conversation; a ${FORMATS[mode].command} question needs its own`,
    );
  }
  if (!FORMATS[mode].multiTurn) {
    throw new HttpError(400, "follow_up_unsupported", `${FORMATS[mode].command} answers a single question and takes no follow-ups; leave conversationId out`);
  }
}

/**
 * A `threadId` that names another user's thread is answered as a conversation that does not
 * exist (404): a run may start a new thread or continue its user's own, never someone else's.
 */
export async function checkThreadOwner(service: RunService, user: Requester, threadId: string): Promise<void> {
  if (!(await service.mayUseThread(user, threadId))) {
    throw new HttpError(404, "conversation_not_found", `conversation "${threadId}" not found: leave threadId out to start a new one`);
  }
  await checkNotRunning(service, threadId);
}

/** A thread has one run at a time, across the instances: a run of it still going is followed, not joined by a second (409). */
async function checkNotRunning(service: RunService, threadId: string): Promise<void> {
  if (await service.threadRunning(threadId)) {
    throw new HttpError(
      409,
      "run_in_progress",
      `conversation "${threadId}" has a run going on; follow it with GET /api/v1/debates/<run_id>/events, or ask again once it has ended`,
    );
  }
}
