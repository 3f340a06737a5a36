import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemorySaver } from "@langchain/langgraph";
import { createRunService } from "../service/run-service.js";
import { sqliteHistory } from "./support/history-db.js";
import { RunRecorder } from "../history/recorder.js";
import { LOCAL_OWNER } from "../state/ownership.js";
import { RedisEventLog } from "../providers/redis-event-log.js";
import { spawnSync } from "node:child_process";
import { getEventListeners } from "node:events";
import { existsSync, mkdirSync, readlinkSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryEventLog, removeStaleSpillDirs } from "../providers/event-log.js";
import { SerializedEvent, type EventLog, type RunEvent } from "../ports/event-log.js";
import { frameEvent } from "../routes/sse.js";
import { RunHub } from "../service/run-hub.js";
import { withOverrides } from "./support/fake-model.js";
import { testDeps } from "./support/harness.js";
import { idsAreGapless, postChat, readSse, startApp, type SseEvent } from "./support/http.js";
import { RedisServer, redisServerBinary } from "./support/redis.js";

const THREE = ["call_grok", "call_claude", "call_gpt"];
/** Turns slow enough that a client can drop and come back in the middle of a debate. */
const slowTurns = withOverrides((req) => (req.phase === "turn" ? { text: `${req.participant!.display} argues well.`, latencyMs: 60 } : undefined));

/** Reads a stream until `stopAt` says so, then drops the connection; returns what it read. */
async function readUntil(res: Response, controller: AbortController, stopAt: (e: SseEvent) => boolean): Promise<SseEvent[]> {
  const seen: SseEvent[] = [];
  await readSse(res, (e) => {
    seen.push(e);
    if (stopAt(e)) controller.abort();
  }).catch(() => {});
  return seen;
}

const ids = (events: SseEvent[]) => events.map((e) => Number(e.id));
const resume = (url: string, runId: string, lastId?: number, query = "") =>
  fetch(`${url}/api/v1/debates/${runId}/events${query}`, { headers: lastId === undefined ? {} : { "last-event-id": String(lastId) } });

describe("the event log in memory", () => {
  it("replays after an id, follows live events, and ends at done", async () => {
    const log = new MemoryEventLog({ ttlMs: 60_000, maxBytes: 1e6 });
    await log.append("r", { id: 1, event: "a", data: {} });
    await log.append("r", { id: 2, event: "b", data: {} });
    const got: number[] = [];
    const following = (async () => {
      for await (const e of log.follow("r", 1, new AbortController().signal)) got.push(e.id);
    })();
    await log.append("r", { id: 3, event: "c", data: {} });
    await log.append("r", { id: 4, event: "done", data: {} });
    await following;
    expect(got).toEqual([2, 3, 4]);
  });

  it("wakes a waiting reader at each event and when it is stopped, and leaves no listener behind", async () => {
    const log = new MemoryEventLog({ ttlMs: 60_000, maxBytes: 1e6 });
    const controller = new AbortController();
    await log.append("r", { id: 1, event: "a", data: {} });
    const got: number[] = [];
    const following = (async () => {
      for await (const e of log.follow("r", 0, controller.signal)) got.push(e.id);
    })();
    for (let id = 2; id <= 4; id++) {
      await new Promise((r) => setImmediate(r));
      await log.append("r", { id, event: "x", data: {} });
    }
    await new Promise((r) => setImmediate(r));
    expect(got).toEqual([1, 2, 3, 4]);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    controller.abort();
    await following;
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    // The stopped reader is no longer woken: the next event reaches no one.
    await log.append("r", { id: 5, event: "x", data: {} });
    expect(got).toEqual([1, 2, 3, 4]);
  });

  it("keeps each event's data serialized once; readers get the same frame and the same object back", async () => {
    const hub = new RunHub(new MemoryEventLog({ ttlMs: 60_000, maxBytes: 1e6 }), undefined, 1_000);
    const data = { model: "Claude", delta: 'åäö \n "citat"', round: 2, timestamp: "2026-11-26T00:00:00.000Z" };
    hub.append("r", { id: 1, event: "debate-participant-delta", data });
    hub.append("r", { id: 2, event: "done", data: { timestamp: "2026-11-26T00:00:01.000Z" } });
    const got: RunEvent[] = [];
    for await (const e of hub.follow("r", 0, new AbortController().signal)) got.push(e);
    expect(got.map((e) => e.json)).toEqual([JSON.stringify(data), '{"timestamp":"2026-11-26T00:00:01.000Z"}']);
    expect(got[0].data).toEqual(data);
    expect(frameEvent(1, got[0])).toBe(frameEvent(1, { event: "debate-participant-delta", data }));
  });

  it("hands the shared log the same serialized event, and frames it without parsing or serializing again", async () => {
    const shared: RunEvent[] = [];
    const sharedLog = {
      append: async (_runId: string, e: RunEvent) => shared.push(e) > 0,
      claim: async () => 0,
      upTo: async () => [],
    } as unknown as EventLog;
    const hub = new RunHub(new MemoryEventLog({ ttlMs: 60_000, maxBytes: 1e6 }), sharedLog, 1_000);
    // A run of this process: its readers here get each event once the shared log has it.
    await hub.adopt("r", "r", new AbortController());
    hub.append("r", { id: 1, event: "done", data: { timestamp: "t" } });
    const kept: RunEvent[] = [];
    for await (const e of hub.follow("r", 0, new AbortController().signal)) kept.push(e);
    expect(kept[0]).toBe(shared[0]);
    const unreadable = {
      event: "x",
      json: '{"a":1}',
      get data(): Record<string, unknown> {
        throw new Error("parsed");
      },
    };
    expect(frameEvent(1, unreadable)).toBe('id: 1\nevent: x\ndata: {"a":1}\n\n');
  });

  it("keeps large events (a /dvoice run's audio) on disk and gives them back as they were sent", async () => {
    const log = new MemoryEventLog({ ttlMs: 60_000, maxBytes: 1e6 });
    const audio = { seq: 1, audio: Buffer.alloc(4800, 7).toString("base64"), timestamp: "t" };
    await log.append("r", SerializedEvent.of(1, "debate-voice-chunk", audio));
    await log.append("r", { id: 2, event: "debate-participant-delta", data: { delta: "hej" } });
    await log.append("r", SerializedEvent.of(3, "debate-voice-chunk", { ...audio, seq: 2 }));
    const read = async () => {
      const got: RunEvent[] = [];
      for await (const e of log.follow("r", 0, new AbortController().signal)) {
        got.push(e);
        if (got.length === 3) break;
      }
      return got;
    };
    const got = await read();
    expect(got.map((e) => [e.id, e.event])).toEqual([
      [1, "debate-voice-chunk"],
      [2, "debate-participant-delta"],
      [3, "debate-voice-chunk"],
    ]);
    expect(got[0].json).toBe(JSON.stringify(audio));
    expect(got[2].data).toEqual({ ...audio, seq: 2 });
    expect(got[1].data).toEqual({ delta: "hej" });
    // A reader halfway through when the run is dropped (its conversation deleted) is told the rest is gone.
    const reader = log.follow("r", 0, new AbortController().signal);
    expect((await reader.next()).value?.id).toBe(1);
    await log.forget("r");
    expect((await reader.next()).value?.id).toBe(2);
    expect((await reader.next()).value?.data).toMatchObject({ code: "replay_incomplete", last_event_id: 2 });
    expect((await reader.next()).value?.event).toBe("done");
    expect(await read()).toEqual([]);
  });

  it.skipIf(!existsSync("/proc/self/fd"))(
    "holds a spill file open only while its run lives and while a reader reads it (counted in /proc, on Linux)",
    async () => {
      /** This process's open descriptors of spill files. */
      const spillFds = () =>
        readdirSync("/proc/self/fd").filter((fd) => {
          try {
            return /debatt-events-.*\.jsonl$/.test(readlinkSync(`/proc/self/fd/${fd}`));
          } catch {
            return false;
          }
        }).length;
      const before = spillFds();
      const log = new MemoryEventLog({ ttlMs: 60_000, maxBytes: 1e8 });
      const audio = { seq: 1, audio: Buffer.alloc(4800, 7).toString("base64"), timestamp: "t" };
      for (let run = 0; run < 20; run++) {
        await log.append(`r${run}`, SerializedEvent.of(1, "debate-voice-chunk", audio));
        await log.append(`r${run}`, { id: 2, event: "done", data: {} });
      }
      await log.append("live", SerializedEvent.of(1, "debate-voice-chunk", audio));
      // Twenty finished runs kept for replay hold none; the live one holds its writer.
      expect(spillFds() - before).toBe(1);
      const reader = log.follow("r3", 0, new AbortController().signal);
      expect((await reader.next()).value?.json).toBe(JSON.stringify(audio));
      expect(spillFds() - before).toBe(2);
      expect((await reader.next()).value?.event).toBe("done");
      expect((await reader.next()).done).toBe(true);
      expect(spillFds() - before).toBe(1);
      await log.forget("live");
      expect(spillFds() - before).toBe(0);
    },
  );

  it("removes the spill files of processes that are gone, and keeps those of running ones", () => {
    const dir = mkdtempSync(join(tmpdir(), "debatt-spill-test-"));
    const gone = spawnSync("true").pid;
    mkdirSync(join(dir, `debatt-events-${gone}-abc`));
    mkdirSync(join(dir, `debatt-events-${process.pid}-def`));
    mkdirSync(join(dir, `debatt-events-${process.ppid}-ghi`));
    removeStaleSpillDirs(dir);
    expect(readdirSync(dir).sort()).toEqual([`debatt-events-${process.pid}-def`, `debatt-events-${process.ppid}-ghi`].sort());
    rmSync(dir, { recursive: true });
  });

  it("drops the oldest finished runs over its byte budget, and finished runs after their time to live", async () => {
    let now = 0;
    const log = new MemoryEventLog({ ttlMs: 1_000, maxBytes: 300, now: () => now });
    const fill = async (run: string) => {
      await log.append(run, { id: 1, event: "x", data: { text: "y".repeat(100) } });
      await log.append(run, { id: 2, event: "done", data: {} });
    };
    await fill("old");
    await fill("mid");
    await log.append("running", { id: 1, event: "x", data: { text: "y".repeat(100) } });
    await fill("new");
    expect(await log.has("old")).toBe(false);
    expect(await log.has("running")).toBe(true);
    expect(await log.has("new")).toBe(true);
    now = 5_000;
    expect(await log.has("new")).toBe(false);
    // A run still in progress is never dropped.
    expect(await log.has("running")).toBe(true);
  });
});

describe("resumable streams over HTTP", () => {
  it("replays what a dropped client missed, then continues live: no gaps, no duplicates, the run never stopped", async () => {
    const { deps, models } = testDeps({ script: slowTurns });
    const server = await startApp(deps);
    try {
      const client = new AbortController();
      const first = await readUntil(
        await postChat(server.url, { message: "/debatt X", participants: THREE }, { signal: client.signal }),
        client,
        (e) => e.event === "debate-participant-end",
      );
      const runId = first[0].data.run_id as string;
      const last = Number(first.at(-1)!.id);
      await new Promise((r) => setTimeout(r, 150));
      const { events: rest } = await readSse(await resume(server.url, runId, last));
      const all = [...first, ...rest];
      expect(ids(all)).toEqual(all.map((_, i) => i + 1));
      expect(all.at(-1)!.event).toBe("done");
      expect(all.filter((e) => e.event === "debate-participant-end")).toHaveLength(9);
      expect(models.calls.filter((c) => c.aborted)).toHaveLength(0);

      // A finished run replays completely, byte for byte the same events.
      const { events: replay } = await readSse(await resume(server.url, runId));
      expect(replay.map((e) => [e.id, e.event, JSON.stringify(e.data)])).toEqual(all.map((e) => [e.id, e.event, JSON.stringify(e.data)]));
      const { events: tail } = await readSse(await resume(server.url, runId, undefined, `?after=${all.length - 2}`));
      expect(ids(tail)).toEqual([all.length - 1, all.length]);
    } finally {
      await server.close();
    }
  });

  it("cancels a run when no client comes back within the resume grace period", async () => {
    const { deps, models, logs } = testDeps({ script: slowTurns, settings: { resumeGraceMs: 200 } });
    const server = await startApp(deps);
    try {
      const client = new AbortController();
      const first = await readUntil(
        await postChat(server.url, { message: "/debatt X", participants: THREE }, { signal: client.signal }),
        client,
        (e) => e.event === "debate-participant-start",
      );
      await new Promise((r) => setTimeout(r, 600));
      expect(server.service.size).toBe(0);
      expect(logs.some((l) => /cancelled: the client disconnected and did not come back/.test(l))).toBe(true);
      const turns = models.callsOf("turn").length;
      expect(turns).toBeLessThan(9);
      // What it produced before it stopped can still be read, ending with done.
      const { events } = await readSse(await resume(server.url, first[0].data.run_id));
      expect(idsAreGapless(events)).toBe(true);
      expect(events.at(-1)!.event).toBe("done");
    } finally {
      await server.close();
    }
  });

  it("answers 204 No Content to a client that already has a finished run's done (so an EventSource stops reconnecting)", async () => {
    const { deps } = testDeps();
    const server = await startApp(deps);
    try {
      const { events } = await readSse(await postChat(server.url, { message: "/compare Vad är 2+2?", participants: THREE }));
      const runId = events[0].data.run_id as string;
      const doneId = Number(events.at(-1)!.id);
      expect(events.at(-1)!.event).toBe("done");

      // An EventSource reconnecting after done sends the id of done; one past it, or ?after=, the same.
      for (const res of [
        await resume(server.url, runId, doneId),
        await resume(server.url, runId, doneId + 5),
        await resume(server.url, runId, undefined, `?after=${doneId}`),
      ]) {
        expect(res.status).toBe(204);
        expect(res.headers.get("content-type")).toBeNull();
        expect(await res.text()).toBe("");
      }
      // One event short of the end: that event (done) is still sent, as a stream.
      const before = await resume(server.url, runId, doneId - 1);
      expect(before.status).toBe(200);
      expect((await readSse(before)).events.map((e) => [Number(e.id), e.event])).toEqual([[doneId, "done"]]);
      // From the start, a finished run still replays completely.
      expect(ids((await readSse(await resume(server.url, runId))).events)).toEqual(ids(events));
    } finally {
      await server.close();
    }
  });

  it("streams on (200) to a client at the last event of a run that has not ended", async () => {
    const { deps } = testDeps({ script: slowTurns });
    const server = await startApp(deps);
    try {
      const client = new AbortController();
      const first = await readUntil(
        await postChat(server.url, { message: "/debatt X", participants: THREE }, { signal: client.signal }),
        client,
        (e) => e.event === "debate-round-start",
      );
      const { events: rest } = await readSse(await resume(server.url, first[0].data.run_id, Number(first.at(-1)!.id)));
      expect(rest[0].id).toBe(String(Number(first.at(-1)!.id) + 1));
      expect(rest.at(-1)!.event).toBe("done");
    } finally {
      await server.close();
    }
  });

  it("refuses a bad Last-Event-ID and an unknown run with errors that say so", async () => {
    const { deps } = testDeps();
    const server = await startApp(deps);
    try {
      const bad = await resume(server.url, "0b0e8b1c-6c3c-4f7e-9f57-3d2a1b0c9e8d", undefined, "?after=ten");
      expect(bad.status).toBe(400);
      expect((await bad.json()).error).toMatchObject({
        code: "invalid_last_event_id",
        message: 'Last-Event-ID / after must be a whole number of the run\'s events, got "ten"',
      });
      const unknown = await resume(server.url, "0b0e8b1c-6c3c-4f7e-9f57-3d2a1b0c9e8d");
      expect(unknown.status).toBe(404);
      expect((await unknown.json()).error.code).toBe("run_not_found");
      expect((await resume(server.url, "not_a_run!")).status).toBe(400);
    } finally {
      await server.close();
    }
  });
});

const binary = redisServerBinary();
if (!binary) console.warn("resume.test.ts: Redis part SKIPPED — redis-server is not installed (apt-get install -y redis-server)");

describe.skipIf(!binary)(`one stream served by two instances sharing Redis${binary ? "" : " (skipped: redis-server is not installed)"}`, () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await RedisServer.start(binary!);
  });
  afterAll(async () => {
    await redis?.kill();
  });

  it("instance B replays and follows live a run that instance A is running", async () => {
    const logA = new RedisEventLog(redis.url, { ttlMs: 60_000, log: () => {} });
    const logB = new RedisEventLog(redis.url, { ttlMs: 60_000, log: () => {} });
    const a = testDeps({ script: slowTurns });
    const b = testDeps();
    const serverA = await startApp({ ...a.deps, events: logA });
    const serverB = await startApp({ ...b.deps, events: logB });
    try {
      const client = new AbortController();
      const first = await readUntil(
        await postChat(serverA.url, { message: "/debatt X", participants: THREE }, { signal: client.signal }),
        client,
        (e) => e.event === "debate-round-start",
      );
      const runId = first[0].data.run_id as string;
      // A writes its events to Redis in batches: on a busy machine B may ask before the first
      // batch landed (and rightly answer 404). A client would retry; the test waits for it.
      await expect.poll(() => logB.has(runId), { timeout: 5_000 }).toBe(true);
      // B never ran it: it serves the run from Redis, first what A already logged, then live.
      const { events } = await readSse(await resume(serverB.url, runId, 1));
      const all = [first[0], ...events];
      expect(ids(all)).toEqual(all.map((_, i) => i + 1));
      expect(all.at(-1)!.event).toBe("done");
      expect(all.filter((e) => e.event === "debate-participant-end")).toHaveLength(9);
      // A reader on B keeps A's run alive (the heartbeat goes through Redis).
      expect(a.models.calls.some((c) => c.aborted)).toBe(false);
      const { events: onA } = await readSse(await resume(serverA.url, runId));
      expect(onA.map((e) => [e.id, e.event, JSON.stringify(e.data)])).toEqual(all.map((e) => [e.id, e.event, JSON.stringify(e.data)]));
      // B, which serves the finished run from Redis, tells a client that has its done so (204), at once.
      expect((await resume(serverB.url, runId, all.length)).status).toBe(204);
      expect(ids((await readSse(await resume(serverB.url, runId, all.length - 1))).events)).toEqual([all.length]);
      // Forgotten (its conversation was deleted), the run is gone from Redis for every instance.
      await logA.forget(runId);
      expect(await logB.has(runId)).toBe(false);
    } finally {
      await serverA.close();
      await serverB.close();
      await logA.close();
      await logB.close();
    }
  });
});

describe("resuming a run stopped before its first step was saved", () => {
  it("goes on writing the run's own answer, not a new one, though its checkpoint has no debate id yet", async () => {
    const { deps } = testDeps();
    const db = await sqliteHistory();
    try {
      const service = createRunService(deps, { checkpointer: new MemorySaver(), history: db.history });
      // A run whose server died right after its first step: its answer is filed and streaming, and
      // its checkpoint is the debate's, without the debate's id yet.
      const stopped = new AbortController();
      const config = { configurable: { thread_id: "t-early", run_id: "r-early" }, signal: stopped.signal };
      await expect(
        (async () => {
          for await (const _ of await service.graph.stream({ message: "/debatt Bör AI regleras?", participants: THREE }, config as never)) stopped.abort();
        })(),
      ).rejects.toThrow();
      const state = await service.graph.getState({ configurable: { thread_id: "t-early" } });
      expect(state.values).toMatchObject({ route: "debate", debate_id: null });
      await db.history.startRun(
        RunRecorder.filing({ conversationId: "t-early", messageId: "r-early", message: "/debatt Bör AI regleras?", owner: LOCAL_OWNER }),
      );

      const resumed = await service.resume("t-early");
      for await (const _ of service.events(resumed.runId, 0, new AbortController().signal));
      const answers = (await db.history.messagesOf("t-early")).filter((m) => m.role === "assistant");
      expect(answers.map((a) => [a.id, a.status])).toEqual([["r-early", "complete"]]);
    } finally {
      await db.close();
    }
  });
});
