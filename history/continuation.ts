import type { Continuation } from "../state/continuation.js";
import { formatOfStages } from "./load.js";
import type { HistoryFormats } from "./codec.js";
import type { HistoryStore } from "./store.js";

/** The rows that name a run's participants: each format's first. */
const panelsOf = (formats: HistoryFormats) => Object.values(formats).map((f) => f.stageTypes[0]);
/** The roles of a participant's own words: answers, turns, revisions, arguments, verdicts (not its votes). */
const SPEAKING_ROLES = new Set(["respondent", "debater", "judge"]);

/**
 * A panel's models, as `{key, display, model}` (the deliberation panels name the key `modelKey`);
 * not the seat of a person who joined a debate, who has no model to go on with.
 */
function participantsOf(data: unknown): Continuation["participant"][] {
  const list = (data as { participants?: { key?: string; modelKey?: string; display: string; model: string; person?: boolean }[] } | null)?.participants ?? [];
  return list.filter((p) => p.person !== true).map((p) => ({ key: p.key ?? p.modelKey ?? "", display: p.display, model: p.model }));
}

/**
 * What a follow-up to participant `key` of run `runId` goes on from: the run's question (without
 * its command and options), its format and the participant's own words in it, in order. Undefined
 * when the run has no such participant (or no stages: a chat answer).
 */
export async function continuationOf(store: HistoryStore, runId: string, key: string): Promise<Continuation | undefined> {
  const stages = await store.stagesOf(runId);
  const panels = panelsOf(store.formats);
  const panel = stages.find((s) => panels.includes(s.stageType));
  const participant = participantsOf(panel?.parsedData).find((p) => p.key === key);
  if (!participant) return undefined;
  const asked = (await store.message(`${runId}:question`))?.content ?? "";
  const said = stages.filter((s) => s.id.endsWith(`:${key}`) && SPEAKING_ROLES.has(s.role ?? "") && s.content.trim() !== "").map((s) => s.content);
  const format = formatOfStages(store.formats, stages);
  return {
    run_id: runId,
    participant,
    format: format === "chat" ? "discussion" : `/${format}`,
    question: asked.replace(/^\s*\/\S+\s+(--\S+\s+)*/, "").trim() || asked,
    said,
    follow_ups: await followUpsOf(store, runId, key),
  };
}

/** The follow-ups to participant `key` of run `runId` in its conversation since, each question with its answer. */
async function followUpsOf(store: HistoryStore, runId: string, key: string): Promise<Continuation["follow_ups"]> {
  const run = await store.message(runId);
  if (!run) return [];
  const messages = await store.messagesOf(run.conversationId);
  const out: Continuation["follow_ups"] = [];
  for (const [i, m] of messages.entries()) {
    if (m.role !== "assistant" || m.id === runId || i === 0) continue;
    const row = (await store.stagesOf(m.id)).find((s) => s.stageType === "continue_answer");
    const of = row?.parsedData as { run_id?: string; participant?: { key?: string } } | undefined;
    if (of?.run_id === runId && of.participant?.key === key) out.push({ question: messages[i - 1].content, answer: m.content });
  }
  return out;
}

/** The participants a run's follow-up may go to (their keys), for telling a client which exist. */
export async function participantKeysOf(store: HistoryStore, runId: string): Promise<string[]> {
  const panels = panelsOf(store.formats);
  const panel = (await store.stagesOf(runId)).find((s) => panels.includes(s.stageType));
  return participantsOf(panel?.parsedData).map((p) => p.key);
}
