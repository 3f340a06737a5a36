import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { RedisPromptStore } from "../providers/redis-prompt-store.js";
import { VoiceSettingsStore } from "../providers/voice-settings-store.js";
import { RedisSpeechCache } from "../providers/speech-cache.js";
import { withOverrides, type Script } from "./support/fake-model.js";
import { testDeps } from "./support/harness.js";
import { idsAreGapless, postChat, readSse, startApp } from "./support/http.js";
import { StoreUnavailableError } from "../prompts/store.js";
import { RedisServer, freePort, redisServerBinary } from "./support/redis.js";

const binary = redisServerBinary();
const TOKEN = "admin-token-0123456789";
const KEY = "debate.round.2.argument";
const TWO = ["call_grok", "call_claude"];

if (!binary) console.warn("redis.test.ts: SKIPPED — redis-server is not installed (apt-get install -y redis-server)");

describe.skipIf(!binary)(`prompt overrides in a real Redis${binary ? "" : " (skipped: redis-server is not installed)"}`, () => {
  let redis: RedisServer;
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    redis = await RedisServer.start(binary!);
  });
  afterAll(async () => {
    await redis?.kill();
  });
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });

  /** One server instance on the shared Redis, with its own scripted models and log. */
  async function instance(script?: Script) {
    const logs: string[] = [];
    const store = new RedisPromptStore(redis.url, { log: (l) => logs.push(l) });
    await store.ready();
    const { deps, models } = testDeps({ prompts: store, script });
    deps.settings = { ...deps.settings, adminToken: TOKEN };
    const server = await startApp(deps);
    cleanups.push(async () => {
      await server.close();
      await store.close();
    });
    const put = (text: string) =>
      fetch(`${server.url}/api/v1/admin/prompts/${KEY}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ text }),
      });
    const health = async () => (await (await fetch(`${server.url}/healthz`)).json()).redis.status as string;
    return { server, models, logs, put, health, store };
  }

  it("applies an override saved on one instance to the next debate on another, without a restart", async () => {
    const a = await instance();
    const b = await instance();
    await readSse(await postChat(b.server.url, { message: "/debatt X", participants: TWO })); // b caches the overrides

    expect((await a.put("FROM INSTANCE A {context}")).status).toBe(200);
    await new Promise((r) => setTimeout(r, 100)); // the pub/sub message crosses Redis
    await readSse(await postChat(b.server.url, { message: "/debatt Y", participants: TWO }));

    const round2 = b.models.callsOf("turn", "call_grok").filter((c) => c.round === 2);
    expect(String(round2[0].messages.at(-1)!.content)).not.toContain("FROM INSTANCE A");
    expect(String(round2[1].messages.at(-1)!.content)).toMatch(/^FROM INSTANCE A /);
    await fetch(`${a.server.url}/api/v1/admin/prompts/${KEY}`, { method: "DELETE", headers: { authorization: `Bearer ${TOKEN}` } });
  });

  it("keeps voice settings under debate:voice_settings, the api_key sealed, shared by every instance", async () => {
    const a = await instance();
    const b = await instance();
    const key = "22".repeat(32);
    await new VoiceSettingsStore(a.store, key).save({ api_key: "sk-redis-secret", speed: 1.5 });

    const raw = new Redis(redis.url);
    const stored = JSON.parse((await raw.get("debate:voice_settings"))!);
    raw.disconnect();

    expect(stored.speed).toBe(1.5);
    expect(stored.api_key).toMatch(/^v1:/);
    expect(await new VoiceSettingsStore(b.store, key).load()).toMatchObject({ api_key: "sk-redis-secret", speed: 1.5 });
  });

  it("shares synthesised speech between instances through Redis, keeping at most maxEntries", async () => {
    const logs: string[] = [];
    const a = new RedisSpeechCache(redis.url, (l) => logs.push(l), 2);
    const b = new RedisSpeechCache(redis.url, (l) => logs.push(l), 2);
    cleanups.push(
      () => a.close(),
      () => b.close(),
    );

    await a.set("one", Buffer.from([1, 2]));
    await a.set("two", Buffer.from([3, 4]));
    expect(await b.get("one")).toEqual(Buffer.from([1, 2])); // "one" is now the most recently used
    await b.set("three", Buffer.from([5, 6]));

    expect(await a.get("two")).toBeUndefined();
    expect(await a.get("one")).toEqual(Buffer.from([1, 2]));
    expect(await a.get("three")).toEqual(Buffer.from([5, 6]));
    expect(logs).toEqual([]);
  });

  it("finishes a debate on the defaults when Redis dies and returns mid-run, answers writes 503 meanwhile, and recovers by itself", async () => {
    const slow = withOverrides((req) => (req.phase === "turn" ? { text: `${req.participant!.display} argues.`, latencyMs: 250 } : undefined));
    const a = await instance(slow);
    expect((await a.put("STORED {context}")).status).toBe(200);
    let whileDown: Promise<[Response, string]> | undefined;
    let restarted: Promise<void> | undefined;

    const { events } = await readSse(await postChat(a.server.url, { message: "/debatt X", participants: TWO }), (e) => {
      if (e.event === "debate-round-start" && e.data.round === 1) {
        whileDown = redis.kill().then(async () => {
          await new Promise((r) => setTimeout(r, 100));
          return Promise.all([a.put("WHILE DOWN {context}"), a.health()]);
        });
      }
      if (e.event === "debate-round-start" && e.data.round === 3) restarted = whileDown!.then(() => redis.restart());
    });

    expect(events.map((e) => e.event)).toContain("debate-results");
    expect(events.at(-1)!.event).toBe("done");
    expect(idsAreGapless(events)).toBe(true);
    // Redis died in round 1, so round 2 ran on the default prompt, not the stored override.
    const round2 = a.models.callsOf("turn", "call_grok").find((c) => c.round === 2)!;
    expect(String(round2.messages[1].content)).not.toContain("STORED");
    const [refused, healthWhileDown] = await whileDown!;
    expect(refused.status).toBe(503);
    expect((await refused.json()).error.code).toBe("store_unavailable");
    expect(healthWhileDown).toBe("down");

    await restarted;
    for (let i = 0; i < 100 && (await a.health()) !== "up"; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await a.health()).toBe("up");
    expect((await a.put("AFTER RESTART {context}")).status).toBe(200);
    expect(a.logs.filter((l) => l.startsWith("Redis unavailable"))).toHaveLength(1);
    expect(a.logs.filter((l) => l.startsWith("Redis is back"))).toHaveLength(1);
  });
});

describe("a Redis that is not there", () => {
  it("waits once for the first connection, then fails at once, logging the outage once", async () => {
    const logs: string[] = [];
    const store = new RedisPromptStore(`redis://127.0.0.1:${await freePort()}`, { log: (l) => logs.push(l) });
    try {
      const t0 = performance.now();
      await expect(store.all()).rejects.toThrow(StoreUnavailableError);
      const first = performance.now() - t0;
      const t1 = performance.now();
      await expect(store.all()).rejects.toThrow(StoreUnavailableError);
      await expect(store.set("debate.round.2.argument", "{context}")).rejects.toThrow(StoreUnavailableError);
      const later = performance.now() - t1;

      // The first waits for a connection; the later ones do not wait at all.
      expect(later).toBeLessThan(first);
      expect(logs.filter((l) => l.startsWith("Redis unavailable"))).toHaveLength(1);
      expect(store.health()).toMatchObject({ backend: "redis", ok: false });
    } finally {
      await store.close();
    }
  });
});
