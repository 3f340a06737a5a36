import type { Redis } from "ioredis";
import type { RunSlots } from "../ports/run-slots.js";
import { DebattError, RunLimitError } from "../state/errors.js";
import { firstConnection, newRedis, redisOptions } from "./redis-prompt-store.js";

/** A key's slots held now (id → when it lapses) and its starts of the last minute (id → when). */
const activeKey = (key: string) => `debatt:limits:${key}:active`;
const startsKey = (key: string) => `debatt:limits:${key}:starts`;
/** How long a slot lasts unless its run keeps it (the instance running it died). */
export const SLOT_MS = 60_000;

/**
 * Takes a slot (ARGV: id, runs a minute, runs at once, slot ms) by Redis's own clock, so that the
 * instances' clocks do not matter: {0} taken, {1} too many at once, {2, ms} too many this minute
 * (ms: until the oldest start leaves the minute). One script, so two instances never both take the last slot.
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - 60000)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return {1} end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then
  local first = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
  return {2, tonumber(first[2]) + 60000 - now}
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[4]), ARGV[1])
redis.call('ZADD', KEYS[2], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]))
redis.call('PEXPIRE', KEYS[2], 60000)
return {0}`;
/** Keeps a slot (ARGV: id, slot ms), again if it had lapsed meanwhile (its run waited long in the queue). */
const KEEP = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 0`;

/**
 * The limits of every instance sharing Redis: a user's runs of the last minute and their slots
 * held now are counted in Redis, so `RUNS_PER_MINUTE` and `MAX_CONCURRENT_RUNS` hold across the
 * cluster. A slot is given back by whichever instance ends its run; one whose instance died lapses
 * `SLOT_MS` after it was last kept (a run taken up again keeps it on).
 */
export class RedisRunSlots implements RunSlots {
  private readonly client: Redis;
  private readonly ready: Promise<void>;

  constructor(
    url: string,
    private readonly perMinute: number,
    private readonly concurrent: number,
    /** How long a slot lasts unless kept. */
    private readonly slotMs = SLOT_MS,
    /** What a slot is for, in the refusal: runs, or open streams. */
    private readonly noun = "runs",
  ) {
    this.client = newRedis(url, redisOptions());
    this.client.on("error", () => {});
    this.ready = firstConnection(this.client);
  }

  async acquire(key: string, id: string): Promise<void> {
    await this.ready;
    const reply = (await this.client
      .eval(ACQUIRE, 2, activeKey(key), startsKey(key), id, this.perMinute, this.concurrent, this.slotMs)
      .catch(unreachable)) as number[];
    if (reply[0] === 1) throw new RunLimitError(`at most ${this.concurrent} ${this.noun} at once; wait for one of yours to finish`, 5);
    if (reply[0] === 2) throw new RunLimitError(`at most ${this.perMinute} runs a minute`, Math.max(1, Math.ceil(reply[1] / 1000)));
  }

  /** A third of a slot's life: a kept slot outlives a keep that is lost or late. */
  get keepMs(): number {
    return this.slotMs / 3;
  }

  async release(key: string, id: string): Promise<void> {
    await this.client.zrem(activeKey(key), id).catch(() => {});
  }

  async keep(key: string, id: string): Promise<void> {
    await this.client.eval(KEEP, 1, activeKey(key), id, this.slotMs).catch(() => {});
  }

  close(): void {
    this.client.disconnect();
  }
}

/** Redis could not be asked: the run is refused with 503 `event_log_unavailable`, like the events it would write. */
function unreachable(err: unknown): never {
  throw new DebattError("event_log_unavailable", `the shared limits (Redis) cannot be reached: ${(err as Error).message}`);
}
