import { CancelAcceptedSchema } from "../state/api.js";
import type { StoredConversation } from "../web/api-client.js";
import { simulatedModels } from "../service/formats.js";
import { MemorySaver } from "@langchain/langgraph";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { sharedQueue } from "./support/run-queue.js";
import { RedisEventLog } from "../providers/redis-event-log.js";
import type { Settings } from "../state/config.js";
import { participantKeyOf } from "../history/rows.js";
import { emptyArena, reduce } from "../web/arena-state.js";
import { storedEvents } from "../web/stored-events.js";
import { withOverrides } from "./support/fake-model.js";
import { testDeps } from "./support/harness.js";
import { sqliteHistory, TABLES, type TestHistory } from "./support/history-db.js";
import { postChat, readSse, startApp } from "./support/http.js";
import { RedisServer, redisServerBinary } from "./support/redis.js";

const binary = redisServerBinary();
const THREE = ["call_grok", "call_claude", "call_gpt"];
/** Turns slow enough to stop a debate in the middle of one. */
const slowTurns = withOverrides((req) => (req.phase === "turn" ? { text: `${req.participant!.display} argues at length.`, latencyMs: 400 } : undefined));

const cancel = (url: string, runId: string) => fetch(`${url}/api/v1/debates/${runId}/cancel`, { method: "POST" });
const errorOf = async (res: Response) => [res.status, ((await res.json()) as { error: { code: string } }).error.code];

describe("stop means stop", () => {
  let db: TestHistory | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  it("POST /api/v1/debates/:id/cancel aborts the calls in flight, keeps what was said as cancelled, and ends the stream with error cancelled and done", async () => {
    db = await sqliteHistory();
    const { deps, models } = testDeps({ script: slowTurns });
    const server = await startApp(deps, { history: db.history, checkpointer: new MemorySaver() });
    try {
      let stopping: Promise<Response> | undefined;
      let runId = "";
      const { events } = await readSse(await postChat(server.url, { message: "/debatt Bör AI regleras?", participants: THREE }), (e) => {
        if (e.event === "metadata") runId = String(e.data.run_id);
        if (e.event === "debate-participant-end" && !stopping) stopping = cancel(server.url, runId);
      });
      const stopped = await stopping!;
      expect(stopped.status).toBe(202);
      expect(CancelAcceptedSchema.parse(await stopped.json())).toEqual({ run_id: runId, status: "stopping" });
      expect(events.slice(-3).map((e) => [e.event, e.data.code])).toEqual([
        ["error", "cancelled"],
        ["usage", undefined],
        ["done", undefined],
      ]);
      // The turn in flight was aborted, and no call started after it.
      const callsThen = models.calls.length;
      expect(models.calls.at(-1)!.aborted).toBe(true);
      await new Promise((r) => setTimeout(r, 600));
      expect(models.calls).toHaveLength(callsThen);
      // What was said is kept, and the answer says it was cancelled.
      expect(await db.history.message(runId)).toMatchObject({ status: "cancelled" });
      // The finished turn is kept whole, though its round (one step) never ended.
      const kept = (await db.history.stagesOf(runId)).filter((r) => r.stageType === "debatt_answer");
      expect(kept).toHaveLength(1);
      const ended = events.find((e) => e.event === "debate-participant-end")!.data;
      expect(kept[0]).toMatchObject({ content: `${ended.model} argues at length.`, parsedData: { status: "ok", modelKey: ended.model_key } });
      // Stopping again, or something that never ran, says why.
      expect(await errorOf(await cancel(server.url, runId))).toEqual([409, "run_finished"]);
      expect(await errorOf(await cancel(server.url, "never-ran"))).toEqual([404, "run_not_found"]);
      expect(await errorOf(await cancel(server.url, "not_a_run_id!"))).toEqual([400, "invalid_run_id"]);
    } finally {
      await server.close();
    }
  });
});

describe("a stopped run keeps what was shown", () => {
  it("keeps the text of answers and turns still streaming when the run was stopped, as cancelled, and reopens with it", async () => {
    const db = await sqliteHistory();
    const { deps } = testDeps();
    deps.models = simulatedModels({ latencyMs: 0, chunkDelayMs: 20, chunkTokens: 1 });
    const server = await startApp(deps, { history: db.history, checkpointer: new MemorySaver() });
    try {
      for (const message of [
        "/compare How do I learn Spanish?",
        "/debatt Should AI be regulated?",
        "/vote Which language suits beginners best?",
        "/revise How should a small team plan its first release?",
      ]) {
        let stopping: Promise<Response> | undefined;
        let runId = "";
        let deltas = 0;
        const { events } = await readSse(await postChat(server.url, { message, participants: THREE }), (e) => {
          if (e.event === "metadata") runId = String(e.data.run_id);
          // A /revise is stopped while its models revise; the others while their first words stream.
          const counts = !message.startsWith("/revise") || (e.event === "answer-delta" && e.data.stage === "revision");
          if (/-delta$/.test(e.event) && counts && ++deltas === 12 && !stopping) stopping = cancel(server.url, runId);
        });
        expect((await stopping!).status).toBe(202);
        // What each speaker streamed before the stop, by participant key.
        const shown = new Map<string, string>();
        const stage = message.startsWith("/revise") ? "revision" : "collect";
        for (const e of events.filter(
          (e) => /^(compare-answer|debate-participant)-delta$/.test(e.event) || (e.event === "answer-delta" && e.data.stage === stage),
        )) {
          const key = String(e.data.model_key ?? e.data.modelKey);
          shown.set(key, (shown.get(key) ?? "") + String(e.data.delta));
        }
        const rows = (await db.history.stagesOf(runId)).filter((r) => ["compare_answer", "debatt_answer", "collect", "revision"].includes(r.stageType));
        const cancelled = rows.filter((r) => (r.parsedData as { error?: string }).error === "cancelled");
        expect(cancelled.length, message).toBeGreaterThan(0);
        for (const r of cancelled) {
          const key = participantKeyOf(r, r.stageType === "debatt_answer" ? r.stageOrder : undefined);
          expect(r.content, `${message}: ${key}`).toBe(shown.get(key));
        }
        // Reopened, the page shows each answer as it was when the run stopped: its text, and not as failed.
        const conversation = (await (await fetch(`${server.url}/api/v1/conversations/${runId}`)).json()) as StoredConversation;
        const [question, answer] = conversation.messages;
        const view = storedEvents(answer.id, answer.format, answer.result, question.content)!.reduce(reduce, emptyArena());
        if (message.startsWith("/compare")) {
          for (const [key, text] of shown) expect(view.compare!.answers[key], key).toMatchObject({ text, status: "speaking" });
          expect(events.some((e) => e.event === "compare-complete")).toBe(false);
        }
        if (message.startsWith("/debatt")) {
          const cut = Object.values(view.cards)
            .flatMap((c) => Object.values(c.rounds))
            .filter((r) => r.status !== "ok");
          expect(cut.length).toBeGreaterThan(0);
          for (const r of cut) expect(r.status).toBe("speaking");
        }
        if (/^\/(vote|revise)/.test(message)) {
          const seen = message.startsWith("/vote")
            ? view.deliberation!.answers
            : Object.fromEntries(Object.entries(view.deliberation!.revising).map(([k, text]) => [k, { text }]));
          for (const [key, text] of shown) expect(seen[key]?.text, key).toBe(text);
        }
      }
    } finally {
      await server.close();
      await db.close();
    }
  });
});

if (!binary) console.warn("cancel.test.ts: Redis part SKIPPED — redis-server is not installed (apt-get install -y redis-server)");

describe.skipIf(!binary)(`stopping a run from another instance${binary ? "" : " (skipped: redis-server is not installed)"}`, () => {
  let redis: RedisServer;
  let db: TestHistory | undefined;
  beforeAll(async () => {
    redis = await RedisServer.start(binary!);
  });
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });
  afterAll(async () => {
    await redis?.kill();
  });

  /** Instances A (running slow turns) and B sharing this Redis; `beforeB` runs between starting them. */
  async function twoInstances(beforeB: () => Promise<void> = async () => {}) {
    const logA = new RedisEventLog(redis.url, { ttlMs: 60_000, log: () => {} });
    const a = testDeps({ script: slowTurns });
    // A runs the runs; B, without workers of its own, only serves (so the test knows where a run is).
    const serverA = await startApp({ ...a.deps, events: logA, runQueue: sharedQueue(redis.url) });
    await beforeB();
    const logB = new RedisEventLog(redis.url, { ttlMs: 60_000, log: () => {} });
    const serverB = await startApp({ ...testDeps().deps, events: logB, runQueue: sharedQueue(redis.url, 0) });
    /** Runs a debate on A and, once its first turn has ended (B sees the run in Redis), asks B to stop it. */
    const stopFromB = async () => {
      let stopping: Promise<Response> | undefined;
      let runId = "";
      const { events } = await readSse(await postChat(serverA.url, { message: "/debatt X", participants: THREE }), (e) => {
        if (e.event === "metadata") runId = String(e.data.run_id);
        if (e.event === "debate-participant-end" && !stopping) stopping = cancel(serverB.url, runId);
      });
      return { events, runId, stopped: await stopping! };
    };
    const close = async () => {
      await serverA.close();
      await serverB.close();
      await logA.close();
      await logB.close();
    };
    return { a: { ...a, url: serverA.url }, serverB, stopFromB, close };
  }

  /**
   * Instances A (running slow turns) and B on this Redis, with one history and one checkpointer for
   * both, as one database serves a deployment; `settings` for both.
   */
  async function sharedInstances(settings: Partial<Settings> = {}) {
    db = await sqliteHistory();
    const history = db.history;
    const checkpointer = new MemorySaver();
    const logA = new RedisEventLog(redis.url, { ttlMs: 60_000, log: () => {} });
    const logB = new RedisEventLog(redis.url, { ttlMs: 60_000, log: () => {} });
    const a = testDeps({ script: slowTurns, settings });
    const b = testDeps({ script: slowTurns, settings });
    // One queue for both; A runs the runs, B only serves (so the test knows where a run is).
    const serverA = await startApp({ ...a.deps, events: logA, runQueue: sharedQueue(redis.url) }, { history, checkpointer });
    const serverB = await startApp({ ...b.deps, events: logB, runQueue: sharedQueue(redis.url, 0) }, { history, checkpointer });
    const close = async () => {
      await serverA.close();
      await serverB.close();
      await logA.close();
      await logB.close();
    };
    return { a: { models: a.models, url: serverA.url }, b: { models: b.models, url: serverB.url }, history, checkpointer, close };
  }

  it("B stops a run that A is running: A's calls are aborted and A's stream ends with error cancelled and done", async () => {
    const { a, serverB, stopFromB, close } = await twoInstances();
    try {
      const { events, runId, stopped } = await stopFromB();
      expect(stopped.status).toBe(202);
      expect(events.slice(-3).map((e) => [e.event, e.data.code])).toEqual([
        ["error", "cancelled"],
        ["usage", undefined],
        ["done", undefined],
      ]);
      expect(events.filter((e) => e.event === "debate-participant-end")).toHaveLength(1);
      expect(a.models.calls.at(-1)!.aborted).toBe(true);
      // The run has ended for B too.
      await new Promise((r) => setTimeout(r, 200));
      expect(await errorOf(await cancel(serverB.url, runId))).toEqual([409, "run_finished"]);
    } finally {
      await close();
    }
  });

  it("B deletes the conversation of a run A is running: A stops, nothing of the run is left anywhere, and nobody can take the thread up", async () => {
    const { a, b, history, checkpointer, close } = await sharedInstances();
    const admin = new Redis(redis.url);
    try {
      let deleting: Promise<Response> | undefined;
      let threadId = "";
      let runId = "";
      const { events } = await readSse(await postChat(a.url, { message: "/debatt X", participants: THREE }), (e) => {
        if (e.event === "metadata") [threadId, runId] = [String(e.data.thread_id), String(e.data.run_id)];
        if (e.event === "debate-participant-end" && !deleting) deleting = fetch(`${b.url}/api/v1/conversations/${threadId}`, { method: "DELETE" });
      });
      expect((await deleting!).status).toBe(204);
      // A's run stopped: its call in flight aborted, no call after it, and its stream ended.
      expect(events.at(-1)!.event).toBe("done");
      expect(events.find((e) => e.event === "error")!.data.code).toBe("cancelled");
      expect(a.models.calls.at(-1)!.aborted).toBe(true);
      const calls = a.models.calls.length;
      // What A saved as it stopped goes too: its checkpoints, its replay log in Redis, every row.
      // (The stop itself is kept a minute, for an instance that reconnects: it holds no text.)
      await vi.waitFor(async () => expect(await admin.keys(`debatt:events:${runId}*`)).toEqual([]), { timeout: 60_000, interval: 50 });
      expect(await checkpointer.getTuple({ configurable: { thread_id: threadId } })).toBeUndefined();
      expect(JSON.stringify(await Promise.all(TABLES.map((t) => db!.rows(t))))).not.toContain(threadId);
      // Nobody takes the thread up again, on either instance.
      for (const url of [a.url, b.url]) {
        expect(await errorOf(await fetch(`${url}/api/v1/debates/${threadId}/resume`, { method: "POST" }))).toEqual([409, "nothing_to_resume"]);
        expect(await errorOf(await postChat(url, { message: "/debatt Y", conversationId: threadId, participants: THREE }))).toEqual([
          404,
          "conversation_not_found",
        ]);
      }
      expect(a.models.calls).toHaveLength(calls);
      expect(await history.conversation(threadId)).toBeUndefined();
    } finally {
      admin.disconnect();
      await close();
    }
  });

  it("a resumed run is its owner's on every instance: followed and stopped from B, and nobody else's, not even the admin token's", async () => {
    const settings = { auth: "tokens" as const, adminToken: "admin-token-0123456789" };
    const { a, b, close } = await sharedInstances(settings);
    const tokenOf = async (name: string) =>
      (
        (await (
          await fetch(`${a.url}/api/v1/admin/users`, {
            method: "POST",
            headers: { authorization: `Bearer ${settings.adminToken}`, "content-type": "application/json" },
            body: JSON.stringify({ name }),
          })
        ).json()) as { token: string }
      ).token;
    const [ada, bob] = [await tokenOf("Ada"), await tokenOf("Bob")];
    const as = (token: string) => ({ authorization: `Bearer ${token}` });
    try {
      // Ada's debate, stopped after its first turn, then resumed on A: a run with an id of its own.
      let threadId = "";
      let stopping: Promise<Response> | undefined;
      await readSse(
        await postChat(a.url, { message: "/debatt X", participants: THREE }, { headers: { ...as(ada), "content-type": "application/json" } }),
        (e) => {
          if (e.event === "metadata") threadId = String(e.data.thread_id);
          if (e.event === "debate-participant-end" && !stopping)
            stopping = fetch(`${a.url}/api/v1/debates/${threadId}/cancel`, { method: "POST", headers: as(ada) });
        },
      );
      const resumed = await fetch(`${a.url}/api/v1/debates/${threadId}/resume`, { method: "POST", headers: as(ada) });
      expect(resumed.status).toBe(200);
      let runId = "";
      let turned!: () => void;
      const aTurn = new Promise<void>((resolve) => (turned = resolve));
      const reading = readSse(resumed, (e) => {
        if (e.event === "metadata") runId = String(e.data.run_id);
        if (e.event === "debate-participant-end") turned();
      });
      // While it runs on A, on B: Bob and the admin token are told it does not exist; Ada follows it, and stops it.
      await aTurn;
      const followed = await fetch(`${b.url}/api/v1/debates/${runId}/events`, { headers: as(ada) });
      for (const other of [bob, settings.adminToken]) {
        expect(await errorOf(await fetch(`${b.url}/api/v1/debates/${runId}/events`, { headers: as(other) }))).toEqual([404, "run_not_found"]);
        expect((await fetch(`${b.url}/api/v1/debates/${runId}/cancel`, { method: "POST", headers: as(other) })).status).toBe(404);
      }
      const stopped = await fetch(`${b.url}/api/v1/debates/${runId}/cancel`, { method: "POST", headers: as(ada) });
      const { events } = await reading;
      expect(runId).not.toBe(threadId);
      expect(followed.status).toBe(200);
      await followed.body?.cancel();
      expect(stopped.status).toBe(202);
      expect(events.find((e) => e.event === "error")!.data.code).toBe("cancelled");
      expect(events.at(-1)!.event).toBe("done");
    } finally {
      await close();
    }
  });

  it("B neither resumes nor follows up a thread that A is running: 409 run_in_progress, and A's run goes on alone to its end", async () => {
    const { a, b, close } = await sharedInstances();
    try {
      let threadId = "";
      let resuming: Promise<Response> | undefined;
      let following: Promise<Response> | undefined;
      const { events } = await readSse(await postChat(a.url, { message: "/debatt X", participants: THREE }), (e) => {
        if (e.event === "metadata") threadId = String(e.data.thread_id);
        // Once a turn is saved, a checkpoint exists that B could resume from.
        if (e.event === "debate-participant-end" && !resuming) {
          resuming = fetch(`${b.url}/api/v1/debates/${threadId}/resume`, { method: "POST" });
          following = postChat(b.url, { message: "/debatt Och sedan?", conversationId: threadId, participants: THREE });
        }
      });
      // Neither resumed nor followed up on B while it runs on A.
      expect(await errorOf(await resuming!)).toEqual([409, "run_in_progress"]);
      expect(await errorOf(await following!)).toEqual([409, "run_in_progress"]);
      expect(events.at(-1)!.event).toBe("done");
      expect(events.some((e) => e.event === "debate-synthesis-complete")).toBe(true);
      // B asked no model: the debate was run once.
      expect(b.models.calls).toHaveLength(0);
    } finally {
      await close();
    }
  });

  it("a stop that A missed while its subscription to Redis was down reaches A when it reconnects", async () => {
    const { a, serverB, close } = await twoInstances();
    const admin = new Redis(redis.url);
    try {
      let stopping: Promise<Response> | undefined;
      let runId = "";
      const { events } = await readSse(await postChat(a.url, { message: "/debatt X", participants: THREE }), (e) => {
        if (e.event === "metadata") runId = String(e.data.run_id);
        if (e.event === "debate-participant-end" && !stopping) {
          // A's subscription is cut (it reconnects 100 ms later); the stop is published meanwhile.
          stopping = admin.client("KILL", "TYPE", "pubsub").then(() => cancel(serverB.url, runId));
        }
      });
      expect((await stopping!).status).toBe(202);
      expect(events.slice(-3).map((e) => [e.event, e.data.code])).toEqual([
        ["error", "cancelled"],
        ["usage", undefined],
        ["done", undefined],
      ]);
      expect(a.models.calls.at(-1)!.aborted).toBe(true);
    } finally {
      admin.disconnect();
      await close();
    }
  });

  it("a run whose instance died is ended by the stop: its readers get error cancelled and done, its answer is kept as cancelled (200)", async () => {
    db = await sqliteHistory();
    // What a dead instance leaves behind: the run's first events in Redis and its answer streaming in the history.
    const runId = "0b5e8c1e-dead-4a11-9c7e-000000000001";
    const dead = new RedisEventLog(redis.url, { ttlMs: 60_000, log: () => {} });
    await dead.append(runId, { id: 1, event: "metadata", data: { thread_id: runId, run_id: runId } });
    await dead.append(runId, { id: 2, event: "debate-participant-start", data: { participant: "grok" } });
    await dead.close();
    await db.history.startRun({ conversationId: runId, messageId: runId, userId: "local", mode: "debatt", title: null, question: "X", at: new Date() });
    const logB = new RedisEventLog(redis.url, { ttlMs: 60_000, log: () => {}, stopWaitMs: 300 });
    const serverB = await startApp({ ...testDeps().deps, events: logB }, { history: db.history });
    try {
      const reading = fetch(`${serverB.url}/api/v1/debates/${runId}/events`).then((res) => readSse(res));
      const stopped = await cancel(serverB.url, runId);
      expect(stopped.status).toBe(200);
      expect(await stopped.json()).toEqual({ run_id: runId, status: "cancelled" });
      const { events } = await reading;
      expect(events.map((e) => [e.id, e.event, e.data.code])).toEqual([
        ["1", "metadata", undefined],
        ["2", "debate-participant-start", undefined],
        ["3", "error", "cancelled"],
        ["4", "done", undefined],
      ]);
      expect(await db.history.message(runId)).toMatchObject({ status: "cancelled" });
      expect(await errorOf(await cancel(serverB.url, runId))).toEqual([409, "run_finished"]);
    } finally {
      await serverB.close();
      await logB.close();
    }
  });

  it("reaches an instance that started while Redis was down", async () => {
    await redis.kill();
    const { stopFromB, close } = await twoInstances(() => redis.restart());
    try {
      const { events, stopped } = await stopFromB();
      expect(stopped.status).toBe(202);
      expect(events.slice(-3).map((e) => [e.event, e.data.code])).toEqual([
        ["error", "cancelled"],
        ["usage", undefined],
        ["done", undefined],
      ]);
    } finally {
      await close();
    }
  });
});
