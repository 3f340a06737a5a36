import { Redis } from "ioredis";
import { MemorySaver } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisEventLog } from "../providers/redis-event-log.js";
import type { RunEvent } from "../ports/event-log.js";
import { withOverrides } from "./support/fake-model.js";
import { testDeps } from "./support/harness.js";
import { sqliteHistory } from "./support/history-db.js";
import { postChat, readSse, startApp, type SseEvent } from "./support/http.js";
import { RedisServer, redisServerBinary } from "./support/redis.js";

const binary = redisServerBinary();
const THREE = ["call_grok", "call_claude", "call_gpt"];
/** Turns slow enough that Redis can die and come back in the middle of a debate. */
const slowTurns = withOverrides((req) => (req.phase === "turn" ? { text: `${req.participant!.display} argues well.`, latencyMs: 120 } : undefined));

const sameEvents = (events: SseEvent[]) => events.map((e) => [Number(e.id), e.event, JSON.stringify(e.data)]);
const follow = (url: string, runId: string, lastId: number) => fetch(`${url}/api/v1/debates/${runId}/events`, { headers: { "last-event-id": String(lastId) } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

if (!binary) console.warn("faults-redis.test.ts: SKIPPED — redis-server is not installed (apt-get install -y redis-server)");

describe.skipIf(!binary)(`a Redis outage with two instances${binary ? "" : " (skipped: redis-server is not installed)"}`, () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await RedisServer.start(binary!, { persistent: true });
  });
  afterAll(async () => {
    await redis?.kill();
  });

  it("holds back the events appended while Redis is down and writes them in order when it is back: B's replay equals A's, id by id", async () => {
    const logsA: string[] = [];
    const logA = new RedisEventLog(redis.url, { ttlMs: 60_000, log: (l) => logsA.push(l) });
    const logB = new RedisEventLog(redis.url, { ttlMs: 60_000, log: () => {} });
    const a = testDeps({ script: slowTurns });
    const serverA = await startApp({ ...a.deps, events: logA });
    const serverB = await startApp({ ...testDeps().deps, events: logB });
    try {
      let following: Promise<{ events: SseEvent[] }> | undefined;
      let outage: Promise<void> | undefined;
      // The outage begins once B is following (a run B has not seen yet cannot be found while Redis is down).
      let followed: () => void = () => {};
      const bFollows = new Promise<void>((resolve) => (followed = resolve));
      const { events: onA } = await readSse(await postChat(serverA.url, { message: "/debatt X", participants: THREE }), (e) => {
        const runId = String(e.data.run_id ?? "");
        // B follows from the start, live, through the outage.
        if (e.event === "metadata") following = sleep(50).then(async () => readSse(await follow(serverB.url, runId, 0), () => followed()));
        if (e.event === "debate-participant-end" && e.data.round === 1 && e.data.position === 1) {
          outage = bFollows
            .then(() => redis.kill())
            .then(() => sleep(1_500))
            .then(() => redis.restart());
        }
      });
      await outage;
      expect(onA.at(-1)!.event).toBe("done");
      const runId = String(onA[0].data.run_id);
      // A's own stream came from its memory; B's went through Redis, which was down for 1.5 s of it.
      const { events: liveOnB } = await following!;
      expect(sameEvents(liveOnB)).toEqual(sameEvents(onA));
      // Once A has caught up, a replay from B is the whole run, id by id, ending with done.
      for (let i = 0; i < 50 && logsA.every((l) => !l.includes("Redis is back")); i++) await sleep(100);
      // B's own connection may still be coming back (it answers 503 event_log_unavailable meanwhile).
      let answer = await follow(serverB.url, runId, 0);
      for (let i = 0; i < 50 && answer.status === 503; i++) answer = await sleep(100).then(() => follow(serverB.url, runId, 0));
      const { events: replay } = await readSse(answer);
      expect(sameEvents(replay)).toEqual(sameEvents(onA));
      expect(logsA.filter((l) => l.includes("Redis unavailable"))).toHaveLength(1);
      expect(logsA.filter((l) => l.includes("Redis is back"))).toHaveLength(1);
    } finally {
      await serverA.close();
      await serverB.close();
      await logA.close();
      await logB.close();
    }
  });

  it("ends a replay whose events are lost for good with a replay_incomplete error and done, neither with an id", async () => {
    const raw = new Redis(redis.url);
    raw.on("error", () => {});
    const logB = new RedisEventLog(redis.url, { ttlMs: 60_000, log: () => {} });
    const serverB = await startApp({ ...testDeps().deps, events: logB });
    try {
      // Events 4 and 5 were lost (the instance that held them back died while Redis was down).
      for (const id of [1, 2, 3, 6, 7])
        await raw.xadd("debatt:events:lost-run", `0-${id}`, "e", id === 7 ? "done" : "text-delta", "d", JSON.stringify({ delta: `${id}` }));
      const res = await follow(serverB.url, "lost-run", 1);
      const { events, raw: text } = await readSse(res);
      expect(events.map((e) => [e.id, e.event])).toEqual([
        ["2", "text-delta"],
        ["3", "text-delta"],
        [undefined, "error"],
        [undefined, "done"],
      ]);
      expect(events[2].data).toMatchObject({ code: "replay_incomplete", last_event_id: 3 });
      expect(events[2].data.message).toContain("events 4 to 5 are missing from the shared event log");
      // The run's own done (id 7) never came: the done that ends this replay is not the run's.
      expect(text).not.toContain("id: 7");
    } finally {
      await serverB.close();
      await logB.close();
      raw.disconnect();
    }
  });

  it("waits out a short outage while following, and says replay_incomplete (without done: the rest may come later) when Redis stays away", async () => {
    const raw = new Redis(redis.url, { maxRetriesPerRequest: 0, retryStrategy: () => 200 });
    raw.on("error", () => {});
    const log = new RedisEventLog(redis.url, { ttlMs: 60_000, log: () => {}, outageWaitMs: 1_500 });
    try {
      await raw.xadd("debatt:events:waiting", "0-1", "e", "metadata", "d", "{}");
      const seen: RunEvent[] = [];
      const reading = (async () => {
        for await (const e of log.follow("waiting", 0, new AbortController().signal)) seen.push(e);
      })();
      await sleep(300);
      await redis.kill();
      const started = Date.now();
      await reading;
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
      expect(seen.map((e) => [e.id, e.event])).toEqual([
        [1, "metadata"],
        [0, "error"],
      ]);
      expect(seen[1].data).toMatchObject({ code: "replay_incomplete", last_event_id: 1 });
      expect(String(seen[1].data.message)).toContain("unreachable");
    } finally {
      await redis.restart();
      await log.close();
      raw.disconnect();
    }
  });

  it("writes what piles up while Redis hangs in one batch: a deletion and a close wait for one write, not one per event", async () => {
    const log = new RedisEventLog(redis.url, { ttlMs: 60_000, log: () => {} });
    const raw = new Redis(redis.url);
    raw.on("error", () => {});
    try {
      await log.append("hung-run", { id: 1, event: "metadata", data: {} });
      redis.pause();
      for (let id = 2; id <= 60; id++) void log.append("hung-run", { id, event: "text-delta", data: { delta: `${id}` } });
      // One write in flight and one queued, each failing after the 1 s command timeout: it returns
      // while Redis still hangs (one write per event would take a minute, past the test's time).
      await log.forget("other-run");
      redis.unpause();
      for (let i = 0; i < 60 && (await raw.xlen("debatt:events:hung-run")) < 60; i++) await sleep(100);
      expect((await raw.xrange("debatt:events:hung-run", "-", "+")).map(([id]) => id)).toEqual(Array.from({ length: 60 }, (_, i) => `0-${i + 1}`));
    } finally {
      redis.unpause();
      await log.close();
      raw.disconnect();
    }
  });

  it("deletes a conversation while Redis is down (204, never 500) and deletes its events there once Redis is back", async () => {
    const db = await sqliteHistory();
    const raw = new Redis(redis.url);
    raw.on("error", () => {});
    const log = new RedisEventLog(redis.url, { ttlMs: 60_000, log: () => {} });
    const server = await startApp({ ...testDeps().deps, events: log }, { history: db.history, checkpointer: new MemorySaver() });
    try {
      const { events } = await readSse(await postChat(server.url, { message: "/debatt X", participants: THREE }));
      const runId = String(events[0].data.run_id);
      const conversationId = String(events[0].data.thread_id);
      for (let i = 0; i < 50 && (await raw.xlen(`debatt:events:${runId}`)) < events.length; i++) await sleep(50);
      await redis.kill();
      const deleted = await fetch(`${server.url}/api/v1/conversations/${conversationId}`, { method: "DELETE" });
      expect(deleted.status).toBe(204);
      expect((await fetch(`${server.url}/api/v1/conversations/${conversationId}`)).status).toBe(404);
      // A run only Redis could know of is not answered "unknown" while Redis cannot be asked.
      const unknown = await fetch(`${server.url}/api/v1/debates/run-of-another-instance/events`);
      expect([unknown.status, ((await unknown.json()) as { error: { code: string } }).error.code]).toEqual([503, "event_log_unavailable"]);
      await redis.restart();
      let left = 1;
      for (let i = 0; i < 100 && left > 0; i++, await sleep(50)) left = await raw.exists(`debatt:events:${runId}`).catch(() => 1);
      expect(left).toBe(0);
    } finally {
      await server.close();
      await log.close();
      await db.close();
      raw.disconnect();
    }
  });
});
