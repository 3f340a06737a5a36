import { parseCommand } from "../state/commands.js";
import type { ClientEvent } from "../state/events.js";
import type { RunKind } from "../state/formats.js";
import { viewOf } from "./formats/index.js";
import { ev } from "./formats/replay.js";

/**
 * A run read back from the history, replayed as the events it streamed, so that a conversation
 * reopened from `#history` shows the same view it showed live (the arena, the cards side by side…)
 * through the same reducers. Built from the stored result (`GET /api/v1/conversations/:id` gives
 * each answer's `format` and `result`) by its format's `replay` (`web/formats/`); the run's event
 * log has expired by then.
 */

/** A chat answer's stored result: a follow-up to one participant names who answered. */
interface ChatResult {
  continuation?: { run_id: string; participant: { key: string; display: string; model: string } };
  answer?: string;
}

/** The question a stored run answered: its panel's, else (a run stored before it) the message without its command and options. */
function questionOf(result: { question?: string }, message: string): string {
  const command = parseCommand(message);
  return result.question ?? (command.kind === "deliberation" ? command.question : message.replace(/^\s*\/\S+\s+/, "").trim());
}

/**
 * The events a stored run streamed, ending with `done`; undefined for a chat answer without a live view
 * of its own (chat) or a result that holds nothing to show. `title` is the conversation's title,
 * given with its first run (the run that made it); `stopped`, whether the run was stopped.
 */
export function storedEvents(
  id: string,
  format: RunKind | undefined,
  result: unknown,
  question: string,
  title?: string,
  stopped = false,
): ClientEvent[] | undefined {
  if (!result || format === undefined) return undefined;
  if (format === "chat") {
    // A follow-up to one participant: who answered, and the answer, as it was streamed.
    const r = result as ChatResult;
    return r.continuation ? [ev("continue-start", r.continuation), ev("text-delta", { delta: r.answer ?? "" }), ev("done")] : undefined;
  }
  const events = viewOf(format).replay({ id, result, question: questionOf(result, question), title, stopped });
  return events && [...events, ev("done")];
}
