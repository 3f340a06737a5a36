import { createParser } from "eventsource-parser";
import type { ArenaEvent } from "./arena-state.js";

/** The body of the chat stream. */
export interface ChatRequest {
  message: string;
  threadId?: string;
  participants?: string[];
}

/** The server refused the request (4xx/5xx JSON error) or the connection failed. */
export class StreamError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/**
 * Posts a message to `/api/v1/chat/stream` and hands each SSE event to `onEvent` as it arrives
 * (EventSource cannot POST, so the body is read with the same parser EventSource polyfills use).
 * Rejects with a StreamError when the request is refused or the stream drops before `done`.
 */
export async function streamChat(request: ChatRequest, onEvent: (e: ArenaEvent) => void, signal?: AbortSignal): Promise<void> {
  let res: Response;
  try {
    res = await fetch("/api/v1/chat/stream", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify(request),
      signal,
    });
  } catch (err) {
    throw new StreamError(`the server cannot be reached: ${(err as Error).message}`, "network");
  }
  if (!res.ok || !res.body) {
    const body = (await res.json().catch(() => null)) as { error?: { message: string; code: string } } | null;
    throw new StreamError(body?.error?.message ?? `the server answered ${res.status}`, body?.error?.code ?? "http_error");
  }
  let done = false;
  const parser = createParser({
    onEvent: (m) => {
      if (m.event === "done") done = true;
      onEvent({ event: m.event ?? "message", data: JSON.parse(m.data) });
    },
  });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { value, done: end } = await reader.read();
      if (end) break;
      parser.feed(value);
    }
  } catch (err) {
    if (signal?.aborted) return;
    throw new StreamError(`the stream broke off: ${(err as Error).message}`, "stream_dropped");
  }
  if (!done && !signal?.aborted) throw new StreamError("the stream ended before the debate was done", "stream_dropped");
}
