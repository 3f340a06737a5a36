import type { Redis } from "ioredis";
import type { SpeechCache } from "../ports/models.js";
import { firstConnection, newRedis, redisOptions } from "./redis-prompt-store.js";

/**
 * Synthesised speech in process memory, bounded by total bytes: the least recently used entries
 * go first. Identical sentences of repeated debates are then never synthesised (or paid for) twice.
 */
export class MemorySpeechCache implements SpeechCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  /** @param maxBytes the most audio kept (default 64 MB, about 22 minutes of speech). */
  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  async get(key: string): Promise<Buffer | undefined> {
    const pcm = this.entries.get(key);
    if (pcm) {
      // Map order is insertion order: re-inserting marks the entry as recently used.
      this.entries.delete(key);
      this.entries.set(key, pcm);
    }
    return pcm;
  }

  async set(key: string, pcm: Buffer): Promise<void> {
    if (pcm.length > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.length;
      this.entries.delete(key);
    }
    this.entries.set(key, pcm);
    this.bytes += pcm.length;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.length;
    }
  }
}

/** Key prefix and recency index of the speech cache in Redis. */
const PREFIX = "debatt:speech:";
const INDEX = "debatt:speech:index";
const CLOCK = "debatt:speech:clock";
/** Marks a key as just used: scores come from one counter, so no two uses ever tie. */
const TOUCH = "return redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[2]), ARGV[1])";

/**
 * Synthesised speech in Redis, shared by every instance: each entry expires after `ttlMs` and
 * at most `maxEntries` are kept (the least recently used go first, through a recency index).
 * A cache that fails is a miss, never a failed voice; its outage is logged once.
 */
export class RedisSpeechCache implements SpeechCache {
  private readonly client: Redis;
  private readonly connected: Promise<void>;
  private failing = false;

  constructor(
    url: string,
    private readonly log: (line: string) => void,
    private readonly maxEntries = 500,
    private readonly ttlMs = 7 * 24 * 3_600_000,
  ) {
    this.client = newRedis(url, redisOptions());
    this.client.on("error", () => {}); // reported through the failing commands
    this.connected = firstConnection(this.client);
  }

  async get(key: string): Promise<Buffer | undefined> {
    await this.connected;
    try {
      const pcm = await this.client.getBuffer(PREFIX + key);
      if (pcm) await this.client.eval(TOUCH, 2, INDEX, CLOCK, key);
      this.recovered();
      return pcm ?? undefined;
    } catch (err) {
      return this.failed(err as Error);
    }
  }

  async set(key: string, pcm: Buffer): Promise<void> {
    await this.connected;
    try {
      await this.client.set(PREFIX + key, pcm, "PX", this.ttlMs);
      await this.client.eval(TOUCH, 2, INDEX, CLOCK, key);
      const excess = (await this.client.zcard(INDEX)) - this.maxEntries;
      if (excess > 0) {
        const oldest = (await this.client.zpopmin(INDEX, excess)).filter((_, i) => i % 2 === 0);
        if (oldest.length) await this.client.del(...oldest.map((k) => PREFIX + k));
      }
      this.recovered();
    } catch (err) {
      this.failed(err as Error);
    }
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }

  private failed(err: Error): undefined {
    if (!this.failing) this.log(`speech cache in Redis unavailable (${err.message}): synthesising without it`);
    this.failing = true;
    return undefined;
  }

  private recovered(): void {
    if (this.failing) this.log("speech cache in Redis is back");
    this.failing = false;
  }
}
