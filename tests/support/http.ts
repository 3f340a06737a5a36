import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import type { AppDeps } from "../../service/app-deps.js";
import { createApp, type App } from "../../routes/app.js";

/** An SSE event as a standard EventSource parser hands it over. */
export interface SseEvent {
  id?: string;
  event: string;
  data: any;
}

/** Serves `createApp(deps)` on a free loopback port. */
export async function startApp(deps: AppDeps, options: Parameters<typeof createApp>[1] = {}): Promise<App & { url: string; close: () => Promise<void> }> {
  const built = createApp(deps, options);
  const server: Server = await new Promise((resolve) => {
    const s = built.app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    // A shared queue's worker lets go of Redis (once the runs it holds have ended).
    await deps.runQueue?.close();
  };
  return { ...built, url, close };
}

/** Posts JSON to the chat stream. */
export function postChat(url: string, body: unknown, init: RequestInit = {}): Promise<Response> {
  return postJson(`${url}/api/v1/chat/stream`, body, init);
}

/** Posts JSON to the seeds' deliberation stream. */
export function postDeliberate(url: string, body: unknown, init: RequestInit = {}): Promise<Response> {
  return postJson(`${url}/api/v1/deliberate/stream`, body, init);
}

function postJson(url: string, body: unknown, init: RequestInit): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    ...init,
  });
}

/**
 * Reads an SSE response to its end with `eventsource-parser` (the parser EventSource polyfills
 * use), calling `onEvent` as each event arrives. Returns the events and the raw text.
 */
export async function readSse(res: Response, onEvent: (e: SseEvent) => void = () => {}): Promise<{ events: SseEvent[]; raw: string }> {
  const events: SseEvent[] = [];
  let raw = "";
  const parser = createParser({
    onEvent: (m: EventSourceMessage) => {
      const e = { id: m.id, event: m.event ?? "message", data: JSON.parse(m.data) };
      events.push(e);
      onEvent(e);
    },
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      const text = decoder.decode(chunk, { stream: true });
      raw += text;
      parser.feed(text);
    }
  } catch (err) {
    // An aborted fetch ends the body with an AbortError: the events so far are the result.
    if ((err as Error).name !== "AbortError") throw err;
  }
  return { events, raw };
}

/** Asserts the SSE framing contract: ids 1…n without gaps, ending in `done`. */
export function idsAreGapless(events: SseEvent[]): boolean {
  return events.every((e, i) => e.id === String(i + 1));
}
