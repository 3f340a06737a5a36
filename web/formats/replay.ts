import type { AnswerNotes } from "../../state/answer.js";
import type { ClientEvent, ClientEventName, ClientPayload } from "../../state/events.js";

/**
 * What the formats' replays share: a run read back from the history is replayed as the events it
 * streamed, so that a conversation reopened from `#history` shows the view it showed live through
 * the same reducers. The run's event log has expired by then: the events are built from its stored
 * result (each format's module declares the result's shape and builds its events).
 */

/** When an event was sent is not stored: every replayed event has this time, which the view never shows. */
const at = new Date(0).toISOString();

/** A replayed event's payload: the live event's, less its time (added) and the conversation's id (a start event's, which the page does not read). */
type Replayed<N extends ClientEventName> = ClientPayload<N> extends infer P ? (P extends unknown ? Omit<P, "timestamp" | "conversationId"> : never) : never;

/**
 * A replayed event, its payload typed by the event's schema (state/events.ts): what the run
 * stored, typed by the format's stored result (which tests/api-contract.test-d.ts binds to its
 * history codec), must make the event the reducers read live. A payload-less event takes none.
 */
export const ev = <N extends ClientEventName>(event: N, ...data: {} extends Replayed<N> ? [Replayed<N>?] : [Replayed<N>]): ClientEvent =>
  // The one cast: the stored payload with the time added is the live event's (the id the page does not read aside).
  ({ event, data: { ...(data[0] ?? {}), timestamp: at } }) as unknown as ClientEvent;

/** A turn or answer that was still streaming when its run was stopped (kept with what it had said). */
export const stopped = (a: { error?: string }) => a.error === "cancelled";

/** A final text's `fallback` and `error`: whether its model failed and a computed text stands in. */
export function standIn(error: string | undefined) {
  return { fallback: error !== undefined, ...(error !== undefined ? { error } : {}) };
}

/** The end of a stored deliberation run: its title (when it is the conversation's first) and `complete` when it finished. */
export function ending(events: ClientEvent[], finished: boolean, title: string | undefined): ClientEvent[] {
  if (title) events.push(ev("title-complete", { data: { title } }));
  if (finished) events.push(ev("complete"));
  return events;
}

/** Who a deliberation format's payload is about. */
export type Who = { model: string; display: string; modelKey: string };
/** A first answer, with the reasoning, sources and ending it was stored with (passed on as they are: the reducers check them). */
export type Answer = { model: string; modelKey: string; response: string; responseTimeMs: number } & AnswerNotes;
/** An answer that failed (or, `cancelled`, was stopped with what it had streamed). */
export type Failure = { model: string; modelKey: string; error: string; response?: string };

/** Who takes part, as a deliberation format's result has it (runs stored before it lack it). */
export interface Panel {
  /** The question without its command and options. */
  question?: string;
  participants?: Who[];
  simulated?: boolean;
}

/**
 * Names the participants of a stored deliberation run: its panel's, else (a run stored before the
 * panel was) each model that spoke, under its model id.
 */
export function namesOf(r: Panel, spoke: { model: string; modelKey: string }[]) {
  const participants = r.participants ?? [...new Map(spoke.map((a) => [a.modelKey, { model: a.model, display: a.model, modelKey: a.modelKey }])).values()];
  const who = (modelKey: string, model = ""): Who => participants.find((p) => p.modelKey === modelKey) ?? { model, display: model || modelKey, modelKey };
  /** The winner's name: its participant's, else (no answer matched its row) the first participant of its model. */
  const displayOf = (key: string | undefined, model: string) =>
    key ? who(key, model).display : (participants.find((p) => p.model === model)?.display ?? model);
  return { participants, who, displayOf };
}

/** The names of a stored run's participants (see `namesOf`). */
export type Names = ReturnType<typeof namesOf>;

/**
 * The first answers of a stored deliberation run: the stage's complete event, or (a run stopped
 * before the stage ended, whose answers are all kept as cancelled) each answer as the text it had
 * streamed, as the page showed it when the run stopped.
 */
export function firstAnswers(
  event: "stage1-complete" | "round1-complete",
  mode: string,
  names: Names,
  answers: Answer[],
  failed: Failure[] = [],
): ClientEvent[] {
  if (answers.length === 0 && failed.length > 0 && failed.every((f) => f.error === "cancelled")) {
    return failed
      .filter((f) => f.response)
      .map((f) => ev("answer-delta", { mode, stage: "collect", ...names.who(f.modelKey, f.model), delta: f.response ?? "" }));
  }
  const data = answers.map((a) => ({ ...a, display: names.who(a.modelKey, a.model).display }));
  return [ev(event, { data, failed: failed.map((f) => ({ ...names.who(f.modelKey, f.model), error: f.error })) })];
}

/** Whether a stored run's first answers hold anything (an answer, or one that failed). */
export const answered = (answers: Answer[], failed: Failure[] = []) => answers.length + failed.length > 0;
