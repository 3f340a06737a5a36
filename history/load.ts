import type { StoredConversation } from "../state/api.js";
import { kindOfStoredMode, storedModeOf, type FormatId, type RunKind } from "../state/formats.js";
import type { HistoryFormats } from "./codec.js";
import { find } from "./stage-read.js";
import { stageData, type ConversationRow, type HistoryStore, type MessageRow, type StageRow } from "./store.js";

/**
 * A run's result read back from the history: one ordered read of a message's
 * `deliberation_stages`, put back by its format's codec into the result the run streamed.
 */

/**
 * The format whose rows these are: the one whose codec writes the last row's type (every format
 * has its own stage types; /debatt and /dvoice share theirs, told apart by their first row).
 * "chat" when there are none, or for a follow-up to one participant (its row says whose).
 */
export function formatOfStages(formats: HistoryFormats, stages: StageRow[]): RunKind {
  const type = stages[stages.length - 1]?.stageType ?? "";
  const format = (Object.keys(formats) as FormatId[]).find((id) => {
    const codec = formats[id];
    return codec.stageTypes.includes(type) && (!codec.ownsPanel || codec.ownsPanel(stageData(find(stages, codec.stageTypes[0]))));
  });
  return format ?? "chat";
}

/**
 * The format and full result of one run (null for a chat message: it has no stages), from one
 * read; with the mode it is stored under (the API's `mode`, which names /revise `debate`).
 */
export async function loadResult(history: HistoryStore, messageId: string): Promise<{ format: RunKind; mode: string; result: unknown }> {
  const stages = await history.stagesOf(messageId);
  const format = formatOfStages(history.formats, stages);
  return { format, mode: storedModeOf(format), result: format === "chat" ? continueResultOf(stages) : history.formats[format].result(stages) };
}

/** A follow-up to one participant's answer: who answered, from which run, and the answer; null for any other chat answer. */
function continueResultOf(stages: StageRow[]) {
  const row = find(stages, "continue_answer");
  if (!row) return null;
  const { run_id, participant } = row.parsedData as { run_id: string; participant: { key: string; display: string; model: string } };
  return { continuation: { run_id, participant }, answer: row.content };
}

/** A message as the history API shows it; an answer carries its run's full result. */
export async function messageView(history: HistoryStore, m: MessageRow) {
  const base = { id: m.id, role: m.role, content: m.content, status: m.status, error: m.error, createdAt: m.createdAt.toISOString() };
  if (m.role !== "assistant") return base;
  // What the run cost, when it was counted (runs stored before it was have none).
  return { ...base, ...(await loadResult(history, m.id)), ...(m.usage ? { usage: m.usage } : {}) };
}

/** A conversation as the history API lists it. */
export function conversationSummary(c: ConversationRow) {
  return {
    id: c.id,
    title: c.title,
    format: kindOfStoredMode(c.mode),
    mode: c.mode,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

/** A conversation as the history API shows it: with its messages, each answer with its full result. */
export async function conversationView(history: HistoryStore, c: ConversationRow) {
  const messages = await Promise.all((await history.messagesOf(c.id)).map((m) => messageView(history, m)));
  return { ...conversationSummary(c), messages } satisfies StoredConversation;
}
