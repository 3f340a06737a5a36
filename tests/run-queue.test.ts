import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { JobAttempt, JobOutcome, RunJob, RunQueue } from "../ports/run-queue.js";
import { LocalRunQueue } from "../providers/local-run-queue.js";
import { RedisRunSlots } from "../providers/redis-run-slots.js";
import { RedisServer, redisServerBinary } from "./support/redis.js";
import { sharedQueue } from "./support/run-queue.js";
import { RedisEventLog } from "../providers/redis-event-log.js";
import { testDeps } from "./support/harness.js";
import { postChat, readSse, startApp } from "./support/http.js";

const binary = redisServerBinary();
if (!binary) console.warn("run-queue.test.ts: the BullMQ part SKIPPED — redis-server is not installed (apt-get install -y redis-server)");

/** Empties Redis between tests (each starts with no job). */
async function flush(redis: RedisServer): Promise<void> {
  const client = new Redis(redis.url);
  await client.flushall();
  client.disconnect();
}

const job = (runId: string, threadId = "thread"): RunJob => ({
  runId,
  threadId,
  input: { message: "/debatt X" },
  filing: { messageId: runId, message: "/debatt X", owner: "local" },
  seated: false,
});

/** A worker whose runs end when the test says: each taken job, how it came, and how to end it. */
function worker() {
  const taken: { job: RunJob; attempt: JobAttempt; end: (outcome: JobOutcome) => void }[] = [];
  const work = (j: RunJob, attempt: JobAttempt) => new Promise<JobOutcome>((end) => taken.push({ job: j, attempt, end }));
  return { taken, work };
}

/** Both queues keep one job per thread, whoever asks. */
function oneJobPerThread(make: () => Promise<{ queues: RunQueue[]; close: () => Promise<void> }>) {
  return async () => {
    const { queues, close } = await make();
    try {
      const w = worker();
      queues[0].process(w.work);
      expect(await queues[0].add(job("run-1"))).toBe(true);
      await vi.waitFor(() => expect(w.taken).toHaveLength(1));
      // A second run of the thread is refused, from this instance or another; another thread is not held back.
      expect(await queues.at(-1)!.add(job("run-2"))).toBe(false);
      expect(await queues.at(-1)!.runOf("thread")).toBe("run-1");
      expect(await queues[0].add(job("run-3", "other"))).toBe(true);
      // Once the run ends, the thread takes its next run.
      w.taken[0].end("ended");
      await vi.waitFor(async () => expect(await queues.at(-1)!.runOf("thread")).toBeUndefined());
      expect(await queues.at(-1)!.add(job("run-4"))).toBe(true);
      await vi.waitFor(() => expect(w.taken.map((t) => t.job.runId)).toEqual(["run-1", "run-3", "run-4"]));
      for (const t of w.taken.slice(1)) t.end("ended");
    } finally {
      await close();
    }
  };
}

describe("the run queue in one process", () => {
  it(
    "keeps one job per thread, runs it at once, and frees the thread when it ends",
    oneJobPerThread(async () => {
      const queue = new LocalRunQueue();
      return { queues: [queue], close: () => queue.close() };
    }),
  );
});

describe.skipIf(!binary)("the run queue on Redis (BullMQ)", () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await RedisServer.start(binary!);
  });
  afterAll(() => redis?.kill());

  it(
    "keeps one job per thread across instances, and frees the thread when its run ends",
    oneJobPerThread(async () => {
      await flush(redis);
      const queues = [sharedQueue(redis.url), sharedQueue(redis.url, 0)];
      return { queues, close: async () => void (await Promise.all(queues.map((q) => q.close()))) };
    }),
  );

  it("takes exactly one of two runs of one thread asked for at once on two instances", async () => {
    await flush(redis);
    const [a, b] = [sharedQueue(redis.url), sharedQueue(redis.url)];
    const [wa, wb] = [worker(), worker()];
    a.process(wa.work);
    b.process(wb.work);
    try {
      for (let i = 0; i < 10; i++) {
        const added = await Promise.all([a.add(job(`a-${i}`, `t-${i}`)), b.add(job(`b-${i}`, `t-${i}`))]);
        expect(added.filter(Boolean)).toHaveLength(1);
      }
      await vi.waitFor(() => expect(wa.taken.length + wb.taken.length).toBe(10));
      // The job taken is the one whose add said so.
      for (const t of [...wa.taken, ...wb.taken]) t.end("ended");
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("gives a run handed back by one instance's worker to another, which knows it is taken up again", async () => {
    await flush(redis);
    const [a, b] = [sharedQueue(redis.url), sharedQueue(redis.url, 0)];
    const [wa, wb] = [worker(), worker()];
    a.process(wa.work);
    try {
      expect(await b.add(job("run-1"))).toBe(true);
      await vi.waitFor(() => expect(wa.taken).toHaveLength(1));
      expect(wa.taken[0].attempt).toEqual({ takenUp: 0, died: 0 });
      // A shuts down and hands the run back; B's worker (started now) takes it up.
      const closing = a.close();
      wa.taken[0].end("handed_back");
      await closing;
      const b2 = sharedQueue(redis.url);
      b2.process(wb.work);
      await vi.waitFor(() => expect(wb.taken).toHaveLength(1), { timeout: 10_000 });
      expect(wb.taken[0].job.runId).toBe("run-1");
      expect(wb.taken[0].attempt.takenUp).toBe(1);
      expect(await b.runOf("thread")).toBeDefined();
      wb.taken[0].end("ended");
      await vi.waitFor(async () => expect(await b.runOf("thread")).toBeUndefined());
      await b2.close();
    } finally {
      await b.close();
    }
  });
});

describe.skipIf(!binary)("the limits on Redis", () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await RedisServer.start(binary!);
  });
  afterAll(() => redis?.kill());

  it("counts a user's runs at once and per minute across instances, gives a slot back from any, and lets an unkept one lapse", async () => {
    const [a, b] = [new RedisRunSlots(redis.url, 3, 2, 500), new RedisRunSlots(redis.url, 3, 2, 500)];
    try {
      await a.acquire("ann", "r1");
      await b.acquire("ann", "r2");
      await expect(a.acquire("ann", "r3")).rejects.toMatchObject({ code: "rate_limited", message: expect.stringMatching(/at most 2 runs at once/) });
      // Another user is not held back.
      await b.acquire("bob", "r4");
      // Given back on the other instance, the slot is free everywhere; the minute still counts three starts.
      await b.release("ann", "r1");
      await a.acquire("ann", "r5");
      await b.release("ann", "r5");
      const refused = await a.acquire("ann", "r6").catch((err: unknown) => err);
      expect(refused).toMatchObject({ code: "rate_limited", message: expect.stringMatching(/at most 3 runs a minute/) });
      expect((refused as { retryAfterS: number }).retryAfterS).toBeGreaterThan(50);
      // A slot its run keeps stays; one nobody keeps (its instance died) lapses.
      await b.acquire("cy", "k1");
      await b.acquire("cy", "k2");
      await vi.waitFor(
        async () => {
          await a.keep("cy", "k1");
          await expect(a.acquire("cy", "k3")).resolves.toBeUndefined();
        },
        { timeout: 5_000, interval: 100 },
      );
      await expect(b.acquire("cy", "k4")).rejects.toMatchObject({ message: expect.stringMatching(/at once/) });
    } finally {
      a.close();
      b.close();
    }
  });

  it("keeps the slot of a run that waits for a worker, however long it waits, and gives it back when it has run", async () => {
    await flush(redis);
    // Slots that lapse after 300 ms unless kept; one run at once.
    const slots = new RedisRunSlots(redis.url, 100, 1, 300);
    let kept = 0;
    const keep = slots.keep.bind(slots);
    slots.keep = (key, id) => (kept++, keep(key, id));
    const logs = [new RedisEventLog(redis.url, { ttlMs: 60_000, log: () => {} }), new RedisEventLog(redis.url, { ttlMs: 60_000, log: () => {} })];
    // B serves without workers of its own: its run waits in the queue.
    const b = await startApp({ ...testDeps().deps, events: logs[0], runQueue: sharedQueue(redis.url, 0), runSlots: slots });
    let a: Awaited<ReturnType<typeof startApp>> | undefined;
    try {
      const waiting = readSse(await postChat(b.url, { message: "/debatt X", participants: ["call_grok", "call_claude"] }));
      // Kept again and again while it waits, past the slot's life: the user's one run is still counted.
      await vi.waitFor(() => expect(kept).toBeGreaterThanOrEqual(4), { timeout: 10_000, interval: 20 });
      const refused = await postChat(b.url, { message: "/debatt Y" });
      expect(refused.status).toBe(429);
      await refused.body?.cancel();
      // A worker comes (another instance): the run runs to its end, and its slot is free again.
      a = await startApp({ ...testDeps().deps, events: logs[1], runQueue: sharedQueue(redis.url), runSlots: slots });
      expect((await waiting).events.at(-1)?.event).toBe("done");
      const next = await postChat(b.url, { message: "/debatt Z", participants: ["call_grok", "call_claude"] });
      expect(next.status).toBe(200);
      await readSse(next);
    } finally {
      await a?.close();
      await b.close();
      await Promise.all(logs.map((l) => l.close()));
      slots.close();
    }
  });
});
