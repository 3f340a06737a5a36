import { withoutAliases } from "../state/events/aliases.js";
import type { Reason } from "../state/errors.js";
import { createParser } from "eventsource-parser";
import type { ClientEvent } from "../state/events.js";

/** The body of the chat stream. */
export interface ChatRequest {
  message: string;
  threadId?: string;
  participants?: string[];
  /** A follow-up to one participant of a finished run. */
  continueWith?: { runId: string; participant: string };
  /** `/debatt --with-me`: the name the person joins under. */
  personName?: string;
}

/**
 * The server refused the request (4xx/5xx JSON error) or the connection failed. `code` says which
 * (`network`, `stream_dropped`, or the server's error code); `detail` is what went wrong, for the
 * page to show in its own words.
 */
export class StreamError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly detail = message,
    /** A refusal's values, for the page's own words. */
    readonly reason?: Reason,
  ) {
    super(message);
  }
}

/** Waits before each attempt to resume a dropped stream (three attempts without progress, then it gives up). */
const RESUME_DELAYS_MS = [100, 1_000, 2_000];

/**
 * Posts a message to `/api/v1/chat/stream` and hands each SSE event to `onEvent` as it arrives
 * (EventSource cannot POST, so the body is read with the same parser EventSource polyfills use).
 * If the stream drops before `done`, it resumes from the last event id with
 * `GET /api/v1/debates/<run id>/events` (the run goes on on the server), so no event is lost or
 * shown twice. Rejects with a StreamError when the request is refused, or the stream drops and
 * cannot be resumed.
 */
export async function streamChat(request: ChatRequest, onEvent: (e: ClientEvent) => void, signal?: AbortSignal): Promise<void> {
  const init = { method: "POST", headers: { "content-type": "application/json", accept: "text/event-stream" }, body: JSON.stringify(request), signal };
  await follow(await opened("/api/v1/chat/stream", init), "", onEvent, signal);
}

/** Follows a run that is going on (`GET /api/v1/debates/<run id>/events`) as `streamChat` follows the one it starts. */
export async function followRun(runId: string, onEvent: (e: ClientEvent) => void, signal?: AbortSignal): Promise<void> {
  await follow(
    await opened(`/api/v1/debates/${encodeURIComponent(runId)}/events`, { headers: { accept: "text/event-stream" }, signal }),
    runId,
    onEvent,
    signal,
  );
}

/** A stream's response; a StreamError when the server cannot be reached or refuses. */
async function opened(url: string, init: RequestInit): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (err) {
    throw new StreamError(`the server cannot be reached: ${(err as Error).message}`, "network", (err as Error).message);
  }
  if (!res.ok || !res.body) throw await refusal(res);
  return res;
}

/**
 * Reads a run's stream, and if it drops before `done`, resumes it from the last event id with
 * `GET /api/v1/debates/<run id>/events`, so no event is lost or shown twice.
 */
async function follow(res: Response, runId: string, onEvent: (e: ClientEvent) => void, signal?: AbortSignal): Promise<void> {
  const state = { lastId: 0, runId, done: false };
  const deliver = (id: number, event: ClientEvent) => {
    // A resumed stream starts after the last id seen; anything older is never shown twice. An
    // event without an id (a replay that cannot be complete says so) is not one of the run's.
    if (id > 0 && id <= state.lastId) return;
    if (id > 0) state.lastId = id;
    if (event.event === "metadata") state.runId = event.data.run_id;
    if (event.event === "done") state.done = true;
    onEvent(event);
  };
  let failure = await read(res, deliver, signal);
  // Attempts start over whenever a resumed stream brought new events (a proxy that cuts long streams).
  for (let attempt = 0; attempt < RESUME_DELAYS_MS.length && !state.done && !signal?.aborted && state.runId; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, RESUME_DELAYS_MS[attempt]));
    const before = state.lastId;
    try {
      const resumed = await fetch(`/api/v1/debates/${encodeURIComponent(state.runId)}/events`, { headers: { "last-event-id": String(state.lastId) }, signal });
      if (resumed.ok && resumed.body) failure = await read(resumed, deliver, signal);
    } catch (err) {
      failure = `the stream broke off: ${(err as Error).message}`;
    }
    if (state.lastId > before) attempt = -1;
  }
  if (!state.done && !signal?.aborted) throw new StreamError(failure ?? "the stream ended before the debate was done", "stream_dropped", failure ?? "");
}

/** Reads one SSE response to its end; returns why it broke off, if it did. */
async function read(res: Response, deliver: (id: number, e: ClientEvent) => void, signal?: AbortSignal): Promise<string | undefined> {
  const parser = createParser({
    onEvent: (m) => deliver(Number(m.id ?? 0), { event: m.event ?? "message", data: withoutAliases(JSON.parse(m.data)) } as ClientEvent),
  });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return undefined;
      parser.feed(value);
    }
  } catch (err) {
    return signal?.aborted ? undefined : `the stream broke off: ${(err as Error).message}`;
  }
}

/** The StreamError of a refused request, with the server's message when it gave one. */
async function refusal(res: Response): Promise<StreamError> {
  const body = (await res.json().catch(() => null)) as { error?: { message: string; code: string; reason?: Reason } } | null;
  const message = body?.error?.message ?? `the server answered ${res.status}`;
  return new StreamError(message, body?.error?.code ?? "http_error", message, body?.error?.reason);
}
