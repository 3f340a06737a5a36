import { createRequire } from "node:module";
import type { Redis, RedisOptions } from "ioredis";
import { StoreUnavailableError, type PromptStore, type StoreHealth } from "../prompts/store.js";

/** The Redis hash holding every override (field = prompt key, value = text). */
export const OVERRIDES_KEY = "debatt:prompts:overrides";
/** The pub/sub channel on which every instance announces a change, so the others drop their cache. */
export const CHANGES_CHANNEL = "debatt:prompts:changed";

/** Options of the Redis prompt store. */
export interface RedisPromptStoreOptions {
  /** Where operational log lines go. */
  log: (line: string) => void;
  /** Longest wait for one Redis command before the store counts as unavailable (default 1000 ms). */
  commandTimeoutMs?: number;
}

const require = createRequire(import.meta.url);

/** A Redis client. ioredis is loaded with the first one: a server without REDIS_URL never loads it. */
export function newRedis(url: string, options: RedisOptions): Redis {
  const { Redis: Client } = require("ioredis") as typeof import("ioredis");
  return new Client(url, options);
}

/**
 * Connection options for every Redis client of the app: commands fail at once while Redis is
 * unreachable (no offline queue, no retries, a short timeout) and ioredis keeps reconnecting.
 */
export function redisOptions(commandTimeoutMs = 1_000) {
  return {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    commandTimeout: commandTimeoutMs,
    // Keep trying for as long as the process lives, at most every 2 s.
    retryStrategy: (attempt: number) => Math.min(100 * attempt, 2_000),
  };
}

/** Resolves when the client is connected, or after `timeoutMs` (the caller then sees it fail). */
export function firstConnection(client: Redis, timeoutMs = 2_000): Promise<void> {
  if (client.status === "ready") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off("ready", done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    client.once("ready", done);
  });
}

/**
 * Prompt overrides in Redis, shared by every server instance; also plain values for other
 * settings (`getValue`/`setValue`), so one connection and one outage policy serve them all.
 *
 * Reads are served from a local cache that a pub/sub message from any instance invalidates, so an
 * override saved on one instance takes effect on the next debate everywhere without a restart. The
 * cache is trusted only while the subscription is up (a missed message would leave it stale).
 *
 * While Redis is unreachable every call fails at once with StoreUnavailableError (no offline
 * queue, no hanging debates): debates fall back to the default prompts and admin writes answer 503.
 * The outage is logged once when it starts and once when it ends; ioredis keeps reconnecting.
 */
export class RedisPromptStore implements PromptStore {
  private readonly client: Redis;
  private readonly subscriber: Redis;
  private cache: Record<string, string> | undefined;
  /** Bumped by every invalidation, so a read that raced with one does not refill the cache. */
  private generation = 0;
  private down = false;
  /** The first calls wait (briefly, once) for the first connection instead of failing at once. */
  private startup: Promise<void> | undefined;

  constructor(
    url: string,
    private readonly options: RedisPromptStoreOptions,
  ) {
    const common = redisOptions(options.commandTimeoutMs);
    this.client = newRedis(url, common);
    // A subscriber connection may not time out waiting: it idles until a message comes.
    this.subscriber = newRedis(url, { ...common, commandTimeout: undefined, enableOfflineQueue: true });
    for (const conn of [this.client, this.subscriber]) {
      conn.on("error", (err: Error) => this.markDown(err));
      conn.on("close", () => this.invalidate());
      conn.on("ready", () => this.markUp());
    }
    this.subscriber.on("message", () => this.invalidate());
    this.subscriber.subscribe(CHANGES_CHANNEL).catch((err: Error) => this.markDown(err));
  }

  /** Resolves once both connections are ready, or rejects after `timeoutMs`. */
  async ready(timeoutMs = 5_000): Promise<void> {
    await Promise.all([firstConnection(this.client, timeoutMs), firstConnection(this.subscriber, timeoutMs)]);
    if (this.client.status !== "ready" || this.subscriber.status !== "ready") {
      throw new StoreUnavailableError(`Redis is not reachable (${this.client.status})`);
    }
  }

  async all(): Promise<Record<string, string>> {
    await this.assertReady();
    if (this.cache && this.subscriber.status === "ready") return this.cache;
    const generation = this.generation;
    const overrides = await this.command(() => this.client.hgetall(OVERRIDES_KEY));
    if (generation === this.generation && this.subscriber.status === "ready") this.cache = overrides;
    return overrides;
  }

  async set(key: string, text: string): Promise<void> {
    await this.assertReady();
    await this.command(() => this.client.hset(OVERRIDES_KEY, key, text));
    await this.announce();
  }

  async delete(key: string): Promise<void> {
    await this.assertReady();
    await this.command(() => this.client.hdel(OVERRIDES_KEY, key));
    await this.announce();
  }

  /** One string value by key (other settings kept beside the overrides, e.g. voice settings). */
  async getValue(key: string): Promise<string | null> {
    await this.assertReady();
    return this.command(() => this.client.get(key));
  }

  async setValue(key: string, value: string): Promise<void> {
    await this.assertReady();
    await this.command(() => this.client.set(key, value));
  }

  health(): StoreHealth {
    return { backend: "redis", ok: this.client.status === "ready", state: this.client.status };
  }

  async close(): Promise<void> {
    this.client.disconnect();
    this.subscriber.disconnect();
  }

  private async announce(): Promise<void> {
    this.invalidate();
    await this.command(() => this.client.publish(CHANGES_CHANNEL, String(Date.now())));
  }

  private async assertReady(): Promise<void> {
    this.startup ??= this.ready(2_000).catch((err: Error) => this.markDown(err));
    await this.startup;
    if (this.client.status !== "ready") {
      throw new StoreUnavailableError(`Redis is unavailable (connection ${this.client.status})`);
    }
  }

  /** Runs one command; any failure becomes StoreUnavailableError and starts an outage. */
  private async command<T>(run: () => Promise<T>): Promise<T> {
    try {
      const result = await run();
      if (this.down) this.markUp();
      return result;
    } catch (err) {
      this.markDown(err as Error);
      throw new StoreUnavailableError(`Redis is unavailable: ${(err as Error).message}`);
    }
  }

  private invalidate(): void {
    this.generation++;
    this.cache = undefined;
  }

  private markDown(err: Error): void {
    this.invalidate();
    if (this.down) return;
    this.down = true;
    this.options.log(`Redis unavailable (${err.message}): debates use the default prompts, admin writes answer 503, reconnecting`);
  }

  private markUp(): void {
    // A reconnect may have missed change messages: start from Redis again.
    this.invalidate();
    if (!this.down || this.client.status !== "ready" || this.subscriber.status !== "ready") return;
    this.down = false;
    this.options.log("Redis is back: prompt overrides are served from Redis again");
  }
}
