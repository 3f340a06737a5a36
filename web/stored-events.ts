import type { ClientEvent } from "../state/events.js";

/**
 * A run read back from the history, replayed as the events it streamed, so that a conversation
 * reopened from `#history` shows the same view it showed live (the arena, the cards side by side…)
 * through the same reducers. Built from the stored result (`GET /api/v1/conversations/:id` gives
 * each answer's `mode` and `result`); the run's event log has expired by then.
 */

/** A /debatt or /dvoice result as the history stores it. */
interface DebattResult {
  topic?: string;
  voiceMode?: boolean;
  participants?: { key: string; display: string; model: string }[];
  rounds: { round: number; answers: { modelKey: string; display: string; text: string; position: number; status: "ok" | "error"; wordCount: number; latencyMs: number; error?: string }[] }[];
  votes: { voter: string; votedFor: string; motivation: string; bullets: string[]; valid: boolean }[];
  results?: Record<string, unknown>;
  synthesis?: string;
}

/** A /compare result as the history stores it. */
interface CompareResult {
  answers: { key: string; display: string; text: string; status: "ok" | "error"; word_count: number; responseTimeMs: number; error?: string }[];
}

const ROUND_TYPES = ["introduction", "argument", "deepening"] as const;
const at = new Date(0).toISOString();

/** The events of a stored /debatt or /dvoice run. */
function debattEvents(id: string, r: DebattResult): ClientEvent[] {
  const participants = (r.participants ?? []).map((p) => ({ ...p, oneseek: false }));
  const events: unknown[] = [{ event: "debate-init", data: { participants, topic: r.topic ?? "", total_rounds: 4, voice_mode: r.voiceMode ?? false, debate_id: id, simulated: false, timestamp: at } }];
  for (const { round, answers } of r.rounds) {
    if (answers.length === 0) continue;
    const spoken = [...answers].sort((a, b) => a.position - b.position);
    events.push({ event: "debate-round-start", data: { round, type: ROUND_TYPES[round - 1], order: spoken.map((a) => a.display), timestamp: at } });
    for (const a of spoken) {
      const who = { model: a.display, model_key: a.modelKey, round };
      events.push({ event: "debate-participant-start", data: { ...who, position: a.position, timestamp: at } });
      if (a.text) events.push({ event: "debate-participant-delta", data: { ...who, delta: a.text, timestamp: at } });
      events.push({
        event: "debate-participant-end",
        data: { ...who, position: a.position, word_count: a.wordCount, latency_ms: a.latencyMs, response_preview: "", status: a.status, ...(a.error ? { error: a.error } : {}), timestamp: at },
      });
    }
    events.push({ event: "debate-round-end", data: { round, participant_count: answers.filter((a) => a.status === "ok").length, timestamp: at } });
  }
  if (r.votes.length > 0 || r.results) {
    events.push({ event: "debate-round-start", data: { round: 4, type: "voting", order: (r.participants ?? []).map((p) => p.display), timestamp: at } });
    for (const v of r.votes.filter((v) => v.valid)) events.push({ event: "debate-vote-result", data: { voter: v.voter, voted_for: v.votedFor, motivation: v.motivation, bullets: v.bullets, timestamp: at } });
  }
  if (r.results) events.push({ event: "debate-results", data: { ...r.results, timestamp: at } });
  if (r.synthesis) events.push({ event: "text-delta", data: { delta: r.synthesis, timestamp: at } });
  return events as ClientEvent[];
}

/** The events of a stored /compare run. */
function compareEvents(question: string, r: CompareResult): ClientEvent[] {
  const participants = r.answers.map((a) => ({ key: a.key, display: a.display, model: "" }));
  const events: unknown[] = [{ event: "compare-start", data: { question, participants, simulated: false, timestamp: at } }];
  for (const a of r.answers) {
    const who = { model: a.display, model_key: a.key };
    events.push({ event: "compare-answer-start", data: { ...who, timestamp: at } });
    if (a.text) events.push({ event: "compare-answer-delta", data: { ...who, delta: a.text, timestamp: at } });
    events.push({ event: "compare-answer-end", data: { ...who, word_count: a.word_count, latency_ms: a.responseTimeMs, status: a.status, ...(a.error ? { error: a.error } : {}), timestamp: at } });
  }
  events.push({ event: "compare-complete", data: { answered: r.answers.filter((a) => a.status === "ok").length, failed: r.answers.filter((a) => a.status === "error").length, timestamp: at } });
  return events as ClientEvent[];
}

/**
 * The events a stored run streamed, ending with `done`; undefined for a mode without a live view
 * of its own (chat) or a result that holds nothing to show.
 */
export function storedEvents(id: string, mode: string | undefined, result: unknown, question: string): ClientEvent[] | undefined {
  if (!result) return undefined;
  const done = { event: "done", data: { timestamp: at } } as ClientEvent;
  switch (mode) {
    case "debatt":
    case "dvoice":
      return (result as DebattResult).participants ? [...debattEvents(id, result as DebattResult), done] : undefined;
    case "compare":
      return (result as CompareResult).answers.length > 0 ? [...compareEvents(question.replace(/^\s*\/compare\s+/i, ""), result as CompareResult), done] : undefined;
    default:
      return undefined;
  }
}
