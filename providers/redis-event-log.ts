import { Redis } from "ioredis";
import type { EventLog, RunEvent } from "../ports/event-log.js";
import { DebattError } from "../state/errors.js";
import { firstConnection, redisOptions } from "./redis-prompt-store.js";

/** Key of a run's stream. */
const key = (runId: string) => `debatt:events:${runId}`;
const seenKey = (runId: string) => `debatt:events:${runId}:seen`;
/** The channel on which instances ask each other to stop a run. */
const STOP_CHANNEL = "debatt:stop";
/** How long one blocking read waits before it checks the follower's signal again. */
const BLOCK_MS = 2_000;
/** How often a follower tries again while Redis cannot be reached. */
const RETRY_MS = 500;

/** Options of the Redis event log. */
export interface RedisEventLogOptions {
  /** How long a run's stream is kept after its last event. */
  ttlMs: number;
  log: (line: string) => void;
  /** How long a follower waits for an unreachable Redis before it says its replay is incomplete (default 30 s). */
  outageWaitMs?: number;
  /** Most events held back while Redis is unreachable (default 200 000); past it the oldest run's are dropped, and its readers are told. */
  maxPending?: number;
}

/**
 * The events that end a replay that cannot be complete: an `error` (replay_incomplete) and, when
 * the missing events can never come (they are gone), `done`. Neither has an id (0): they are not
 * the run's own, so the client's last event id stays at the last event it really got. Without
 * `done` (Redis is unreachable), a client that reconnects later may still get the rest.
 */
function replayIncomplete(lastId: number, why: string, final: boolean): RunEvent[] {
  const timestamp = new Date().toISOString();
  const error: RunEvent = { id: 0, event: "error", data: { code: "replay_incomplete", message: `the replay stops after event ${lastId}: ${why}`, last_event_id: lastId, timestamp } };
  return final ? [error, { id: 0, event: "done", data: { timestamp } }] : [error];
}

/**
 * The event log in Redis streams, so any instance can serve a run's events: one stream per run
 * (`debatt:events:<run id>`) whose entry ids are the SSE ids (`0-1`, `0-2`, …), expiring
 * `ttlMs` after the last event. Appends never make the run wait. While Redis is unreachable they
 * are held back, in order, and written when it is back (so a run's stream never has a gap while
 * this process lives), as are deletions; the outage is logged once. A follower on another
 * instance waits out an outage of up to `outageWaitMs`, and says so with a `replay_incomplete`
 * error, never a silent jump in ids, when its replay cannot be complete.
 */
export class RedisEventLog implements EventLog {
  private readonly client: Redis;
  /** The first connection (commands fail fast without an offline queue, so the first ones wait for it). */
  private readonly ready: Promise<void>;
  private queue: Promise<void> = Promise.resolve();
  /** The flush queued and not started yet, which every append joins (one write per batch, not per event). */
  private next: Promise<void> | undefined;
  private closed = false;
  /** Events not in Redis yet, per run, in id order. */
  private readonly pending = new Map<string, RunEvent[]>();
  private pendingCount = 0;
  /** Runs forgotten while Redis could not be reached: deleted there once it is back. */
  private readonly forgotten = new Set<string>();
  private failing = false;
  private subscriber: Redis | undefined;
  private readonly stopListeners = new Set<(runId: string) => void>();
  private retry: NodeJS.Timeout | undefined;
  private readonly outageWaitMs: number;
  private readonly maxPending: number;

  constructor(
    url: string,
    private readonly options: RedisEventLogOptions,
  ) {
    this.outageWaitMs = options.outageWaitMs ?? 30_000;
    this.maxPending = options.maxPending ?? 200_000;
    this.client = new Redis(url, redisOptions());
    this.client.on("error", () => {});
    // Back after an outage: write what was held back without waiting for the next event.
    this.client.on("ready", () => void this.flushSoon());
    this.ready = firstConnection(this.client);
  }

  append(runId: string, event: RunEvent): Promise<void> {
    if (this.closed) return Promise.resolve();
    let events = this.pending.get(runId);
    if (!events) this.pending.set(runId, (events = []));
    events.push(event);
    this.pendingCount++;
    return this.flushSoon();
  }

  /**
   * Queues a write of everything held back, or joins the one queued and not started yet; resolves
   * when it is done (it never rejects). At most one write runs and one waits, however many
   * events arrive while Redis is slow.
   */
  private flushSoon(): Promise<void> {
    this.next ??= this.queue = this.queue.then(() => {
      this.next = undefined;
      return this.flush();
    });
    return this.next;
  }

  /** Writes the deletions and events held back, oldest run first. Runs one at a time (the queue). */
  private async flush(): Promise<void> {
    if (this.pending.size === 0 && this.forgotten.size === 0) return;
    try {
      await this.ready;
      for (const runId of [...this.forgotten]) {
        await this.client.del(key(runId), seenKey(runId));
        this.forgotten.delete(runId);
      }
      for (const [runId, events] of [...this.pending]) {
        // Events appended while this write is under way stay for the next one.
        const count = events.length;
        const k = key(runId);
        const batch = this.client.multi();
        for (const e of events.slice(0, count)) batch.xadd(k, `0-${e.id}`, "e", e.event, "d", JSON.stringify(e.data));
        const replies = await batch.pexpire(k, this.options.ttlMs).exec();
        if (!replies) throw new Error("the write was aborted");
        // An entry Redis already holds (a retry after a lost reply) is refused as "equal or smaller": it is there.
        const refused = replies.find(([err]) => err && !/equal or smaller/.test(err.message));
        if (refused) this.options.log(`event log: Redis refused an event of run ${runId}: ${refused[0]!.message}`);
        // Forgotten meanwhile, the run's events are gone from the books already (and its deletion comes next).
        if (this.pending.get(runId) !== events) continue;
        events.splice(0, count);
        this.pendingCount -= count;
        if (events.length === 0) this.pending.delete(runId);
      }
      if (this.failing) this.options.log("event log: Redis is back; the events held back meanwhile are written");
      this.failing = false;
    } catch (err) {
      if (!this.failing) this.options.log(`event log: Redis unavailable; events are held back in this process until it is back (${(err as Error).message})`);
      this.failing = true;
      this.dropOverLimit();
      // Also try again by the clock: a command can time out while the connection stays up.
      if (!this.retry && !this.closed) {
        this.retry = setTimeout(() => {
          this.retry = undefined;
          void this.flushSoon();
        }, RETRY_MS * 4);
        this.retry.unref();
      }
    }
  }

  /** Past `maxPending`, the oldest runs' held-back events go (their readers will see the gap and say so). */
  private dropOverLimit(): void {
    for (const [runId, events] of this.pending) {
      if (this.pendingCount <= this.maxPending) return;
      this.options.log(`event log: Redis has been unavailable too long; ${events.length} events of run ${runId} are dropped from the shared log`);
      this.pendingCount -= events.length;
      this.pending.delete(runId);
    }
  }

  async *follow(runId: string, afterId: number, signal: AbortSignal): AsyncGenerator<RunEvent> {
    const k = key(runId);
    let last = afterId;
    // Blocking reads need a connection of their own.
    const reader = this.client.duplicate({ ...redisOptions(BLOCK_MS + 2_000) });
    reader.on("error", () => {});
    const stop = () => reader.disconnect();
    signal.addEventListener("abort", stop, { once: true });
    let downSince: number | undefined;
    try {
      await firstConnection(reader);
      while (!signal.aborted) {
        let reply: [string, [string, string[]][]][] | null;
        try {
          reply = (await reader.xread("COUNT", 500, "BLOCK", BLOCK_MS, "STREAMS", k, `0-${last}`)) as typeof reply;
          if (!reply && !(await this.client.exists(k))) {
            yield* replayIncomplete(last, "the run's events are no longer kept (deleted, or expired)", true);
            return;
          }
          downSince = undefined;
        } catch (err) {
          if (signal.aborted) return;
          downSince ??= Date.now();
          if (Date.now() - downSince >= this.outageWaitMs) {
            yield* replayIncomplete(last, `the shared event log (Redis) has been unreachable for ${Math.round(this.outageWaitMs / 1000)} s (${(err as Error).message})`, false);
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
          continue;
        }
        for (const [id, fields] of reply?.[0][1] ?? []) {
          const next = Number(id.split("-")[1]);
          if (next !== last + 1) {
            // Lost for good: the instance that held them back died, or Redis lost its data (no persistence).
            yield* replayIncomplete(last, `events ${last + 1} to ${next - 1} are missing from the shared event log`, true);
            return;
          }
          last = next;
          const event = fields[1];
          yield { id: last, event, data: JSON.parse(fields[3]) as Record<string, unknown> };
          if (event === "done") return;
        }
      }
    } finally {
      signal.removeEventListener("abort", stop);
      reader.disconnect();
    }
  }

  /** Whether Redis holds the run; throws `event_log_unavailable` when it cannot be asked. */
  async has(runId: string): Promise<boolean> {
    if (this.forgotten.has(runId)) return false;
    if (this.pending.has(runId)) return true;
    try {
      await this.ready;
      return (await this.client.exists(key(runId))) === 1;
    } catch (err) {
      unreachable(err);
    }
  }

  async finished(runId: string): Promise<boolean> {
    if (this.pending.has(runId)) return this.pending.get(runId)!.at(-1)!.event === "done";
    const [last] = (await this.client.xrevrange(key(runId), "+", "-", "COUNT", 1).catch(unreachable)) as [string, string[]][];
    return last?.[1][1] === "done";
  }

  async requestStop(runId: string): Promise<void> {
    await this.ready;
    await this.client.publish(STOP_CHANNEL, runId).catch(unreachable);
  }

  onStopRequest(listener: (runId: string) => void): void {
    if (!this.subscriber) {
      // Subscribed connections take no other commands: a connection of its own. It subscribes on
      // every (re)connection, so an instance that starts while Redis is down still hears stops later.
      this.subscriber = this.client.duplicate({ ...redisOptions(), enableOfflineQueue: true, maxRetriesPerRequest: null });
      const subscriber = this.subscriber;
      subscriber.on("error", () => {});
      subscriber.on("ready", () => void subscriber.subscribe(STOP_CHANNEL).catch(() => {}));
      subscriber.on("message", (_channel: string, runId: string) => {
        for (const l of this.stopListeners) l(runId);
      });
    }
    this.stopListeners.add(listener);
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

  /** Drops the run's events; while Redis is unreachable the deletion waits for it (it never fails). */
  async forget(runId: string): Promise<void> {
    this.pendingCount -= this.pending.get(runId)?.length ?? 0;
    this.pending.delete(runId);
    this.forgotten.add(runId);
    await this.flushSoon();
  }

  /** Writes what was held back (one try), says what could not be, and closes the connection. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.flushSoon();
    if (this.pendingCount > 0 || this.forgotten.size > 0) {
      this.options.log(`event log: Redis is still unavailable; ${this.pendingCount} events and ${this.forgotten.size} deletions did not reach it (the events expire by themselves)`);
    }
    this.client.disconnect();
    this.subscriber?.disconnect();
  }
}

/** Redis could not be asked: answered 503 `event_log_unavailable`. */
function unreachable(err: unknown): never {
  throw new DebattError("event_log_unavailable", `the shared event log (Redis) cannot be reached: ${(err as Error).message}`);
}
