import { once } from "node:events";
import type { Response } from "express";
import { dataJson, type RunEvent } from "../ports/event-log.js";

/** The headers an SSE stream needs, including through buffering proxies (nginx). */
export const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  Connection: "keep-alive",
  "X-Accel-Buffering": "no",
} as const;

/**
 * Frames one event: `id:` sequence, kebab-case `event:`, one line of JSON `data:`. An event with
 * id 0 is not one of the run's events (a replay's `replay_incomplete` error) and goes without
 * `id:`, so the client's last event id stays where it was. The run's `error` goes out as `event:
 * error`, the name a browser EventSource also gives its own connection errors: a listener tells
 * them apart by type (the run's is a MessageEvent with `data`, the connection's a plain Event; see
 * docs/api.md, resumable streams).
 */
export function frameEvent(id: number, event: Pick<RunEvent, "event" | "data" | "json">): string {
  // The data is JSON.stringify's (kept as `json`, or made here), which escapes CR and LF: always one line.
  return `${id > 0 ? `id: ${id}\n` : ""}event: ${event.event}\ndata: ${dataJson(event)}\n\n`;
}

/**
 * What a stream may call the run's `error` event instead, when its reader asks (`?error_event=`
 * on a GET stream): a browser EventSource hears its own connection errors as `error` too.
 */
export const ERROR_EVENT_NAMES = ["error", "run-error"] as const;
/** A name the run's `error` event may go out under. */
export type ErrorEventName = (typeof ERROR_EVENT_NAMES)[number];

/**
 * An open SSE response. Each event goes out with its run's id (1, 2, 3, … without gaps, so a
 * client resumes after the last id it saw); a keep-alive comment goes out whenever the stream has
 * been quiet for `keepAliveMs`. `send` waits when the client reads slowly: the run's events wait
 * in its log, not in the socket's buffer. `retryMs` tells an EventSource how soon to reconnect.
 */
export class SseStream {
  private timer: NodeJS.Timeout;

  constructor(
    private readonly res: Response,
    keepAliveMs: number,
    retryMs?: number,
    /** The name the run's `error` event goes out under. */
    private readonly errorEvent: ErrorEventName = "error",
  ) {
    res.writeHead(200, SSE_HEADERS);
    if (retryMs !== undefined) res.write(`retry: ${retryMs}\n\n`);
    res.flushHeaders();
    this.timer = setInterval(() => this.comment("keep-alive"), keepAliveMs);
    this.timer.unref();
  }

  /** Whether the client is still there to receive events. */
  get open(): boolean {
    return !this.res.writableEnded && !this.res.destroyed;
  }

  /** Writes one event; resolves when it is handed to the socket (or the client is gone). */
  async send(event: RunEvent): Promise<void> {
    if (!this.open) return;
    this.timer.refresh();
    const named = event.event === "error" && this.errorEvent !== "error" ? { ...event, event: this.errorEvent } : event;
    if (!this.res.write(frameEvent(event.id, named))) {
      // Whichever comes first; the other listener is removed, or every slow write would leave one behind.
      const settled = new AbortController();
      try {
        await Promise.race([once(this.res, "drain", { signal: settled.signal }), once(this.res, "close", { signal: settled.signal })]);
      } finally {
        settled.abort();
      }
    }
  }

  /** Ends the response. */
  end(): void {
    clearInterval(this.timer);
    if (this.open) this.res.end();
  }

  private comment(text: string): void {
    if (this.open) this.res.write(`: ${text}\n\n`);
  }
}
