import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { dataJson, replayIncomplete, SerializedEvent, type EventLog, type RunEvent } from "../ports/event-log.js";
import { DebattError } from "../state/errors.js";
import { firstConnection, newRedis, redisOptions } from "./redis-prompt-store.js";
import { APPEND, CLAIM, END_ORPHAN } from "./redis-event-scripts.js";

/** Key of a run's stream. */
const key = (runId: string) => `debatt:events:${runId}`;
const seenKey = (runId: string) => `debatt:events:${runId}:seen`;
/** Which instance writes a run's events (its id), kept as long as the events. */
const ownerKey = (runId: string) => `debatt:events:${runId}:owner`;
/** The channel on which instances ask each other to stop a run. */
const STOP_CHANNEL = "debatt:stop";
/** A stop request, kept a while so an instance that was cut off from Redis hears it when it is back. */
const stopKey = (runId: string) => `debatt:stop:${runId}`;
/** Set by the instance that stopped the run: the request has landed. */
const stopAckKey = (runId: string) => `debatt:stop:${runId}:ack`;
/** How long stop requests and their acknowledgements are kept. */
const STOP_KEEP_MS = 60_000;
/** How often a stop request looks for its acknowledgement. */
const STOP_POLL_MS = 50;
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
  /** How long a stop request waits for the instance running the run to acknowledge it (default 2 s). */
  stopWaitMs?: number;
  /** Most events held back while Redis is unreachable (default 200 000); past it the oldest run's are dropped, and its readers are told. */
  maxPending?: number;
}

/** An event held back for the next write, and what to tell once Redis has it (false: it never will). */
interface Held {
  event: RunEvent;
  written: (kept: boolean) => void;
}

/**
 * The event log in Redis streams, so any instance can serve a run's events: one stream per run
 * (`debatt:events:<run id>`) whose entry ids are the SSE ids (`0-1`, `0-2`, …), expiring
 * `ttlMs` after the last event. Appends never make the run wait, and each tells when Redis has
 * its event: this instance's readers see an event only then (see `RunHub.append`), so no reader
 * anywhere ever holds an id the shared log does not. While Redis is unreachable events are held
 * back, in order, and written when it is back (so a run's stream never has a gap while this
 * process lives), as are deletions; the outage is logged once. A follower on another
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
  private readonly pending = new Map<string, Held[]>();
  private pendingCount = 0;
  /** Runs forgotten while Redis could not be reached: deleted there once it is back. */
  private readonly forgotten = new Set<string>();
  private failing = false;
  private subscriber: Redis | undefined;
  private readonly stopListeners = new Set<(runId: string) => boolean>();
  private readonly endedListeners = new Set<(runId: string) => void>();
  private readonly takenListeners = new Set<(runId: string) => void>();
  private retry: NodeJS.Timeout | undefined;
  private readonly outageWaitMs: number;
  private readonly maxPending: number;
  /** This instance's id, in the owner key of every run whose events it writes. */
  private readonly instance = randomUUID();

  constructor(
    url: string,
    private readonly options: RedisEventLogOptions,
  ) {
    this.outageWaitMs = options.outageWaitMs ?? 30_000;
    this.maxPending = options.maxPending ?? 200_000;
    this.client = newRedis(url, redisOptions());
    this.client.on("error", () => {});
    // Back after an outage: write what was held back without waiting for the next event.
    this.client.on("ready", () => void this.flushSoon());
    this.ready = firstConnection(this.client);
  }

  /**
   * Holds the event back for the next write; resolves true once Redis has it (or, past
   * `maxPending`, once it is given up on), so that a caller can show it only when every instance
   * can replay it; false when it never will be written (another instance has taken the run over).
   */
  append(runId: string, event: RunEvent): Promise<boolean> {
    if (this.closed) return Promise.resolve(true);
    let events = this.pending.get(runId);
    if (!events) this.pending.set(runId, (events = []));
    let written!: (kept: boolean) => void;
    const promise = new Promise<boolean>((resolve) => (written = resolve));
    events.push({ event, written });
    this.pendingCount++;
    void this.flushSoon();
    return promise;
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
        await this.client.del(key(runId), seenKey(runId), ownerKey(runId));
        this.forgotten.delete(runId);
      }
      for (const [runId, events] of [...this.pending]) {
        // Events appended while this write is under way stay for the next one.
        const count = events.length;
        const args = events.slice(0, count).flatMap(({ event: e }) => [String(e.id), e.event, dataJson(e)]);
        const reply = (await this.client.eval(APPEND, 2, key(runId), ownerKey(runId), this.instance, String(this.options.ttlMs), ...args)) as
          number | [number, number];
        if (reply === -1) {
          // Another instance has taken the run up (it took this one for dead): it stops here, and its events stay out.
          this.options.log(`event log: another instance has taken up run ${runId}; it stops here`);
          this.settle(runId, events, false);
          for (const listener of this.takenListeners) listener(runId);
          continue;
        }
        // Ids that are taken: a retry after a lost reply (they are ours), or another instance ended
        // the run's log (its stop, when no instance answered for it). Then the run stops here too.
        const taken = Array.isArray(reply) && reply[1] > 0;
        if (taken && !events.slice(0, count).some((h) => h.event.event === "done") && (await this.endedByOther(runId))) {
          this.options.log(`event log: another instance ended the log of run ${runId}; the run stops here`);
          for (const listener of this.endedListeners) listener(runId);
        }
        // Forgotten meanwhile, the run's events are gone from the books already (and its deletion comes next).
        if (this.pending.get(runId) !== events) continue;
        for (const h of events.splice(0, count)) h.written(true);
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
      // Given up on: this instance's readers get them (the shared log's readers are told of the gap).
      for (const h of events) h.written(true);
    }
  }

  /** Lets go of the run's events held back: written (`kept`) or not. */
  private settle(runId: string, events: Held[], kept: boolean): void {
    this.pendingCount -= events.length;
    this.pending.delete(runId);
    for (const h of events) h.written(kept);
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
          reply = await reader.xread("COUNT", 500, "BLOCK", BLOCK_MS, "STREAMS", k, `0-${last}`);
          if (!reply && !(await this.client.exists(k))) {
            yield* replayIncomplete(last, "the run's events are no longer kept (deleted, or expired)", true);
            return;
          }
          downSince = undefined;
        } catch (err) {
          if (signal.aborted) return;
          downSince ??= Date.now();
          if (Date.now() - downSince >= this.outageWaitMs) {
            yield* replayIncomplete(
              last,
              `the shared event log (Redis) has been unreachable for ${Math.round(this.outageWaitMs / 1000)} s (${(err as Error).message})`,
              false,
            );
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
          yield new SerializedEvent(last, event, fields[3]);
          if (event === "done") return;
        }
      }
    } finally {
      signal.removeEventListener("abort", stop);
      reader.disconnect();
    }
  }

  /** Whether the run's log ends with `done`, written by another instance over this one's events. */
  private async endedByOther(runId: string): Promise<boolean> {
    const [last] = (await this.client.xrevrange(key(runId), "+", "-", "COUNT", 1)) as [string, string[]][];
    return last?.[1][1] === "done";
  }

  onEndedElsewhere(listener: (runId: string) => void): void {
    this.endedListeners.add(listener);
  }

  onTakenOver(listener: (runId: string) => void): void {
    this.takenListeners.add(listener);
  }

  /**
   * Makes this instance the run's only writer (another that still writes is stopped at its next
   * write) and returns the last id of its log: undefined when it has none or it has ended.
   */
  async claim(runId: string): Promise<number | undefined> {
    await this.ready;
    const last = Number(await this.client.eval(CLAIM, 2, key(runId), ownerKey(runId), this.instance, String(this.options.ttlMs)).catch(unreachable));
    return last >= 0 ? last : undefined;
  }

  /** The run's events up to `lastId`, in order (for a worker taking the run up here). */
  async upTo(runId: string, lastId: number): Promise<RunEvent[]> {
    const entries = (await this.client.xrange(key(runId), "0-1", `0-${lastId}`).catch(unreachable)) as [string, string[]][];
    return entries.map(([id, fields]) => new SerializedEvent(Number(id.split("-")[1]), fields[1], fields[3]));
  }

  /** Whether a stop of the run was asked for in the last minute (on any instance). */
  async stopRequested(runId: string): Promise<boolean> {
    await this.ready;
    return (await this.client.exists(stopKey(runId)).catch(() => 0)) === 1;
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
    if (this.pending.has(runId)) return this.pending.get(runId)!.at(-1)!.event.event === "done";
    const [last] = (await this.client.xrevrange(key(runId), "+", "-", "COUNT", 1).catch(unreachable)) as [string, string[]][];
    return last?.[1][1] === "done";
  }

  /**
   * Publishes the stop and keeps it a minute (for an instance that is reconnecting), then waits
   * up to `stopWaitMs` for the instance running the run to acknowledge it, or for the run to end.
   */
  async requestStop(runId: string): Promise<boolean> {
    await this.ready;
    await this.client.set(stopKey(runId), "1", "PX", STOP_KEEP_MS).catch(unreachable);
    await this.client.publish(STOP_CHANNEL, runId).catch(unreachable);
    const until = Date.now() + (this.options.stopWaitMs ?? 2_000);
    for (;;) {
      if ((await this.client.exists(stopAckKey(runId)).catch(unreachable)) === 1 || (await this.finished(runId))) return true;
      if (Date.now() >= until) return false;
      await new Promise((resolve) => setTimeout(resolve, STOP_POLL_MS));
    }
  }

  onStopRequest(listener: (runId: string) => boolean): void {
    if (!this.subscriber) {
      // Subscribed connections take no other commands: a connection of its own. It subscribes on
      // every (re)connection, so an instance that starts while Redis is down still hears stops later,
      // and then takes the requests of the last minute, which it may have missed meanwhile.
      this.subscriber = this.client.duplicate({ ...redisOptions(), enableOfflineQueue: true, maxRetriesPerRequest: null });
      const subscriber = this.subscriber;
      subscriber.on("error", () => {});
      subscriber.on("ready", () => {
        void subscriber.subscribe(STOP_CHANNEL).catch(() => {});
        void this.missedStops().catch(() => {});
      });
      subscriber.on("message", (_channel: string, runId: string) => this.heardStop(runId));
    }
    this.stopListeners.add(listener);
  }

  /** Stops the run if a listener here runs it, and says so to the instance that asked. */
  private heardStop(runId: string): void {
    let stopped = false;
    for (const l of this.stopListeners) stopped = l(runId) || stopped;
    if (stopped) void this.client.set(stopAckKey(runId), "1", "PX", STOP_KEEP_MS).catch(() => {});
  }

  /** The stop requests still kept (the last minute's), for a subscriber that has just (re)connected. */
  private async missedStops(): Promise<void> {
    await this.ready;
    let cursor = "0";
    do {
      const [next, keys] = await this.client.scan(cursor, "MATCH", stopKey("*"), "COUNT", 500);
      cursor = next;
      for (const k of keys) if (!k.endsWith(":ack")) this.heardStop(k.slice(stopKey("").length));
    } while (cursor !== "0");
  }

  async endOrphan(runId: string, events: Omit<RunEvent, "id">[]): Promise<boolean> {
    await this.ready;
    const args = events.flatMap((e) => [e.event, JSON.stringify(e.data)]);
    const appended = await this.client.eval(END_ORPHAN, 1, key(runId), String(this.options.ttlMs), ...args).catch(unreachable);
    return Number(appended) > 0;
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
    const held = this.pending.get(runId) ?? [];
    this.pendingCount -= held.length;
    this.pending.delete(runId);
    for (const h of held) h.written(false);
    this.forgotten.add(runId);
    await this.flushSoon();
  }

  /** Writes what was held back (one try), says what could not be, and closes the connection. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.flushSoon();
    if (this.pendingCount > 0 || this.forgotten.size > 0) {
      this.options.log(
        `event log: Redis is still unavailable; ${this.pendingCount} events and ${this.forgotten.size} deletions did not reach it (the events expire by themselves)`,
      );
    }
    for (const held of this.pending.values()) for (const h of held) h.written(true);
    this.client.disconnect();
    this.subscriber?.disconnect();
  }
}

/** Redis could not be asked: answered 503 `event_log_unavailable`. */
function unreachable(err: unknown): never {
  throw new DebattError("event_log_unavailable", `the shared event log (Redis) cannot be reached: ${(err as Error).message}`);
}
