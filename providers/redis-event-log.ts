import { Redis } from "ioredis";
import type { EventLog, RunEvent } from "../ports/event-log.js";
import { firstConnection, redisOptions } from "./redis-prompt-store.js";

/** Key of a run's stream. */
const key = (runId: string) => `debatt:events:${runId}`;
const seenKey = (runId: string) => `debatt:events:${runId}:seen`;
/** How long one blocking read waits before it checks the follower's signal again. */
const BLOCK_MS = 2_000;

/**
 * The event log in Redis streams, so any instance can serve a run's events: one stream per run
 * (`debatt:events:<run id>`) whose entry ids are the SSE ids (`0-1`, `0-2`, …), expiring
 * `ttlMs` after the last event. Appends are queued in order and never make the run wait; while
 * Redis is down they are dropped (the local log still serves this instance) and the outage is
 * logged once.
 */
export class RedisEventLog implements EventLog {
  private readonly client: Redis;
  /** The first connection (commands fail fast without an offline queue, so the first ones wait for it). */
  private readonly ready: Promise<void>;
  private queue: Promise<void> = Promise.resolve();
  private failing = false;

  constructor(
    url: string,
    private readonly options: { ttlMs: number; log: (line: string) => void },
  ) {
    this.client = new Redis(url, redisOptions());
    this.client.on("error", () => {});
    this.ready = firstConnection(this.client);
  }

  async append(runId: string, event: RunEvent): Promise<void> {
    const k = key(runId);
    this.queue = this.queue.then(async () => {
      try {
        await this.ready;
        await this.client
          .multi()
          .xadd(k, `0-${event.id}`, "e", event.event, "d", JSON.stringify(event.data))
          .pexpire(k, this.options.ttlMs)
          .exec();
        if (this.failing) this.options.log("event log: Redis is back");
        this.failing = false;
      } catch (err) {
        if (!this.failing) this.options.log(`event log: Redis unavailable, events are kept in this process only (${(err as Error).message})`);
        this.failing = true;
      }
    });
    return this.queue;
  }

  async *follow(runId: string, afterId: number, signal: AbortSignal): AsyncGenerator<RunEvent> {
    const k = key(runId);
    let last = afterId;
    // Blocking reads need a connection of their own.
    const reader = this.client.duplicate({ ...redisOptions(BLOCK_MS + 2_000) });
    reader.on("error", () => {});
    const stop = () => reader.disconnect();
    signal.addEventListener("abort", stop, { once: true });
    try {
      await firstConnection(reader);
      while (!signal.aborted) {
        const reply = (await reader.xread("COUNT", 500, "BLOCK", BLOCK_MS, "STREAMS", k, `0-${last}`)) as [string, [string, string[]][]][] | null;
        if (!reply) {
          if (!(await this.client.exists(k))) return;
          continue;
        }
        for (const [id, fields] of reply[0][1]) {
          last = Number(id.split("-")[1]);
          const event = fields[1];
          yield { id: last, event, data: JSON.parse(fields[3]) as Record<string, unknown> };
          if (event === "done") return;
        }
      }
    } catch (err) {
      if (!signal.aborted) throw err;
    } finally {
      signal.removeEventListener("abort", stop);
      reader.disconnect();
    }
  }

  async has(runId: string): Promise<boolean> {
    try {
      await this.ready;
      return (await this.client.exists(key(runId))) === 1;
    } catch {
      return false;
    }
  }

  async touch(runId: string): Promise<void> {
    await this.ready;
    await this.client.set(seenKey(runId), String(Date.now()), "PX", this.options.ttlMs).catch(() => {});
  }

  async lastSeen(runId: string): Promise<number | null> {
    await this.ready;
    const v = await this.client.get(seenKey(runId)).catch(() => null);
    return v === null ? null : Number(v);
  }

  async forget(runId: string): Promise<void> {
    await this.ready;
    await this.queue;
    await this.client.del(key(runId), seenKey(runId));
  }

  /** Waits for the queued appends, then closes the connection. */
  async close(): Promise<void> {
    await this.queue;
    this.client.disconnect();
  }
}
