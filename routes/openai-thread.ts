import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { DELIBERATION_MODES, FORMATS, storedModeOf, type DeliberationMode, type FormatId } from "../state/formats.js";
import type { Requester } from "../state/ownership.js";
import type { ChatRouteDeps } from "./chat.js";
import { checkFollowUp } from "./follow-up.js";

/** How many of the user's latest answers a chat's earlier answer is looked for among. */
const RECENT_ANSWERS = 50;
/** The characters of an answer compared (the head of a long one says whose it is). */
const COMPARED_CHARS = 400;

/** Text as compared: its words, whatever the whitespace and the emphasis around them. */
const words = (text: string) =>
  text
    .replace(/[*_`>#-]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/** Whether a chat's assistant message is the stored answer (as the client shows it: with what debatt told around it). */
function sameAnswer(stored: string, said: string): boolean {
  const head = words(stored).slice(0, COMPARED_CHARS);
  return head.length > 0 && words(said).includes(head);
}

/**
 * The conversation a chat client's request goes on with: a request that sends the whole chat each
 * time (chat completions) continues the user's conversation whose latest answer its last assistant
 * message is, when that conversation takes a follow-up of the format (the same format, one that
 * takes follow-ups, nothing running); otherwise none, and the run starts a new one. So one chat in
 * Open WebUI or LibreChat is one conversation in debatt's history.
 */
export async function continuedConversation(deps: ChatRouteDeps, user: Requester, format: FormatId, history: BaseMessage[]): Promise<string | undefined> {
  if (!deps.history || !FORMATS[format].multiTurn) return undefined;
  const said = history.findLast((m) => AIMessage.isInstance(m))?.text;
  if (!said) return undefined;
  const answers = await deps.history.recentAnswers([user.id], RECENT_ANSWERS);
  const mode = storedModeOf(format);
  const match = answers.find((a) => a.mode === mode && sameAnswer(a.content, said));
  if (!match) return undefined;
  // Only if it is that conversation's latest answer: an earlier one would branch the chat.
  const latest = (await deps.history.messagesOf(match.conversationId)).findLast((m) => m.role === "assistant");
  if (!latest || !sameAnswer(latest.content, said)) return undefined;
  const deliberation = (DELIBERATION_MODES as readonly string[]).includes(format) ? (format as DeliberationMode) : undefined;
  return checkFollowUp(deps.service, user, match.conversationId, deliberation).then(
    () => match.conversationId,
    () => undefined,
  );
}
