import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SpawnedServer } from "../scripts/spawn-server.js";
import { debater, roster } from "./support/debater.js";
import { startFakeOpenAI } from "./support/fake-servers.js";
import { postChat, readSse, startApp, type SseEvent } from "./support/http.js";
import { RedisServer, redisServerBinary } from "./support/redis.js";
import { startServerProcess } from "./support/server-process.js";
import { MemorySaver } from "@langchain/langgraph";
import { Redis } from "ioredis";
import { RedisEventLog } from "../providers/redis-event-log.js";
import { withOverrides } from "./support/fake-model.js";
import { testDeps } from "./support/harness.js";
import { sqliteHistory } from "./support/history-db.js";

const binary = redisServerBinary();
if (!binary) console.warn("faults-instance.test.ts: the two-instance part SKIPPED — redis-server is not installed (apt-get install -y redis-server)");

const turnsOf = (events: SseEvent[]) => events.filter((e) => e.event === "debate-participant-end").map((e) => `${e.data.round}:${e.data.model_key}`);

/** Waits until the run's answer has left `streaming`, and returns it. */
async function settledAnswer(url: string, runId: string): Promise<any> {
  let answer: any;
  for (let i = 0; i < 40; i++, await new Promise((r) => setTimeout(r, 250))) {
    answer = await (await fetch(`${url}/api/v1/debates/${runId}`)).json();
    if (answer.status !== "streaming") break;
  }
  return answer;
}

describe("a run whose server died", () => {
  const cleanups: (() => void | Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  const serve = async (env: Record<string, string>): Promise<SpawnedServer> => {
    const server = await startServerProcess(env);
    cleanups.push(() => void server.child.kill("SIGKILL"));
    return server;
  };
  /** Starts a debate on `url` and resolves once `turns` participants have spoken, with its run id and events so far. */
  const debateUntil = async (url: string, turns: number) => {
    const client = new AbortController();
    const events: SseEvent[] = [];
    await readSse(await postChat(url, { message: "/debatt Bör AI regleras?" }, { signal: client.signal }), (e) => {
      events.push(e);
      if (turnsOf(events).length === turns) client.abort();
    });
    return { runId: String(events[0].data.run_id), events };
  };

  /** A server without Redis killed (-9) two turns into a debate, and started again on its data: the debate's run id and events so far, and the new server. */
  const killedAndRestarted = async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "debatt-restart-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = { DEBATT_DATA_DIR: dataDir, DEBATE_PARTICIPANTS: roster, SIMULATED_LATENCY_MS: "200" };
    const first = await serve(env);
    const { runId, events } = await debateUntil(first.url, 2);
    first.child.kill("SIGKILL");
    await first.exited;
    return { runId, events, second: await serve(env) };
  };

  /** Redis, a data directory both instances share, and their settings: runs held for 2 s at a time, so a dead instance's are taken up in seconds. */
  const sharedSetup = async (latencyMs: number) => {
    const redis = await RedisServer.start(binary!);
    cleanups.push(() => redis.kill());
    const dataDir = mkdtempSync(join(tmpdir(), "debatt-instances-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = {
      REDIS_URL: redis.url,
      DEBATT_DATA_DIR: dataDir,
      DEBATE_PARTICIPANTS: roster,
      SIMULATED_LATENCY_MS: String(latencyMs),
      RESUME_GRACE_MS: "60000",
      RUN_LOCK_MS: "2000",
    };
    return { redis, env };
  };

  /** The turns of a finished debate in the history: every participant's, every round, once. */
  const savedRounds = async (url: string, runId: string) =>
    (
      (await (await fetch(`${url}/api/v1/debates/${runId}`)).json()) as { result?: { rounds: { answers: { model_key?: string; key?: string }[] }[] } }
    ).result?.rounds.map((r) => r.answers.length);

  it.skipIf(!binary)(
    "takes up the run of an instance killed mid-debate on another, from its last checkpoint, with nothing asked of the client: its reader gets the rest to done, ids without gap or repeat",
    async () => {
      const { env } = await sharedSetup(200);
      // A alone when the run is asked for, so A's worker takes it; B comes up once A runs it.
      const a = await serve(env);
      const { runId, events: before } = await debateUntil(a.url, 2);
      const b = await serve(env);
      // The client, cut off from A, reads on from B with its last id; then A is killed.
      const following = await fetch(`${b.url}/api/v1/debates/${runId}/events`, { headers: { "last-event-id": before.at(-1)!.id! } });
      const reader = readSse(following);
      a.child.kill("SIGKILL");
      await a.exited;

      const { events: after } = await reader;
      // Taken up by B (within two 2 s locks), not ended: no error, the debate's synthesis, and done.
      expect(after.filter((e) => e.event === "error")).toEqual([]);
      expect(after.some((e) => e.event === "debate-synthesis-complete")).toBe(true);
      expect(after.at(-1)!.event).toBe("done");
      // The ids go on from the last event the client had: nothing skipped, nothing repeated.
      const ids = after.map((e) => Number(e.id));
      expect(ids).toEqual(ids.map((_, i) => Number(before.at(-1)!.id) + 1 + i));
      // The history has the whole debate, complete: three rounds of three.
      expect(await settledAnswer(b.url, runId)).toMatchObject({ status: "complete" });
      expect(await savedRounds(b.url, runId)).toEqual([3, 3, 3]);
      // A replay from the start is the same run, event for event, once.
      const { events: replay } = await readSse(await fetch(`${b.url}/api/v1/debates/${runId}/events`));
      expect(replay.map((e) => e.id)).toEqual([...before, ...after].map((e) => e.id));
    },
  );

  it.skipIf(!binary)(
    "never gives a client an id the shared log lacks: after a kill -9 with Redis's writes held, another instance takes the run up after the last id the log has",
    async () => {
      const { redis, env } = await sharedSetup(100);
      const admin = new Redis(redis.url);
      cleanups.push(() => void admin.disconnect());
      const [a, b] = await Promise.all([serve(env), serve(env)]);
      // A client of A (the run is on whichever instance's worker took it). Once two turns are in,
      // Redis holds every write for a while (a slow or stalled Redis), during which the instance
      // running the debate is killed: what it produced meanwhile never reaches Redis.
      const seen: SseEvent[] = [];
      let paused: Promise<unknown> | undefined;
      const client = new AbortController();
      const reading = readSse(await postChat(a.url, { message: "/debatt Bör AI regleras?" }, { signal: client.signal }), (e) => {
        seen.push(e);
        if (turnsOf(seen).length === 2 && !paused) paused = admin.client("PAUSE", 6_000, "WRITE");
      }).catch(() => undefined);
      await vi.waitFor(() => expect(paused).toBeDefined(), { timeout: 60_000, interval: 20 });
      await paused;
      const runs = async (server: SpawnedServer) => ((await (await fetch(`${server.url}/healthz`)).json()) as { active_streams: number }).active_streams;
      const [runner, other] = (await runs(a)) === 1 ? [a, b] : [b, a];
      expect(await runs(runner)).toBe(1);
      // It goes on (its history, which both read, has more turns than the client has seen), then dies.
      const runId = String(seen[0].data.run_id);
      const savedTurns = async () => (await savedRounds(other.url, runId))?.reduce((n, r) => n + r, 0) ?? 0;
      await vi.waitFor(async () => expect(await savedTurns()).toBeGreaterThan(turnsOf(seen).length), { timeout: 60_000, interval: 20 });
      runner.child.kill("SIGKILL");
      await runner.exited;
      client.abort();
      await reading;
      await admin.client("UNPAUSE");
      const lastId = Number(seen.at(-1)!.id);

      // The client reconnects to the other with its last id: it has taken the run up, and the client gets every id after its own, to done.
      const { events: rest } = await readSse(await fetch(`${other.url}/api/v1/debates/${runId}/events`, { headers: { "last-event-id": String(lastId) } }));
      expect(rest.filter((e) => e.event === "error")).toEqual([]);
      expect(rest.at(-1)!.event).toBe("done");
      expect(rest.map((e) => Number(e.id))).toEqual(rest.map((_, i) => lastId + 1 + i));
      // And every id it had is the shared log's, event for event.
      const { events: replay } = await readSse(await fetch(`${other.url}/api/v1/debates/${runId}/events`));
      expect(replay.slice(0, seen.length).map((e) => [e.id, e.event, JSON.stringify(e.data)])).toEqual(
        seen.map((e) => [e.id, e.event, JSON.stringify(e.data)]),
      );
      expect(await settledAnswer(other.url, runId)).toMatchObject({ status: "complete" });
    },
  );

  it("without Redis, tells a client that reconnects after a kill -9 and a restart that the run stopped and can be resumed", async () => {
    const { runId, events: before, second } = await killedAndRestarted();
    const res = await fetch(`${second.url}/api/v1/debates/${runId}/events`, { headers: { "last-event-id": before.at(-1)!.id! } });
    expect(res.status).toBe(200);
    const { events, raw } = await readSse(res);
    expect(events.map((e) => e.event)).toEqual(["error", "done"]);
    expect(events[0].data).toMatchObject({ code: "run_interrupted" });
    // Not the run's own events: the client's last event id stays where it was.
    expect(raw).not.toMatch(/^id:/m);
    expect(await settledAnswer(second.url, runId)).toMatchObject({ status: "error" });
    // A run that never existed is still 404.
    expect((await fetch(`${second.url}/api/v1/debates/no-such-run/events`)).status).toBe(404);

    const resumed = await fetch(`${second.url}/api/v1/debates/${runId}/resume`, { method: "POST" });
    expect(resumed.status).toBe(200);
    expect((await readSse(resumed)).events.at(-1)!.event).toBe("done");
    expect(await settledAnswer(second.url, runId)).toMatchObject({ status: "complete" });
  });

  it("without Redis, has every model call a killed run made on record: the endpoint's calls equal the history's after a kill -9 and the resume", async () => {
    // The endpoint holds its third call (the process is killed while it is in flight), and answers the rest at once.
    let held = false;
    const endpoint = await startFakeOpenAI((body) => {
      const hold = !held && endpoint.seen.length === 3;
      if (hold) held = true;
      return { ...debater(body), usage: { prompt_tokens: 100, completion_tokens: 10 }, ...(hold ? { delayMs: 600_000 } : {}) };
    });
    cleanups.push(endpoint.close);
    const dataDir = mkdtempSync(join(tmpdir(), "debatt-calls-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = { DEBATT_DATA_DIR: dataDir, DEBATE_PARTICIPANTS: roster, OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: endpoint.baseURL };
    const first = await serve(env);
    const client = new AbortController();
    let threadId = "";
    const reading = readSse(await postChat(first.url, { message: "/debatt Bör AI regleras?" }, { signal: client.signal }), (e) => {
      if (e.event === "metadata") threadId = String(e.data.thread_id);
    }).catch(() => undefined);
    await vi.waitFor(() => expect(held && !endpoint.seen[2].closed).toBe(true), { timeout: 60_000, interval: 20 });
    first.child.kill("SIGKILL");
    await first.exited;
    client.abort();
    await reading;

    const second = await serve(env);
    const resumed = await fetch(`${second.url}/api/v1/debates/${threadId}/resume`, { method: "POST" });
    expect(resumed.status).toBe(200);
    expect((await readSse(resumed)).events.at(-1)!.event).toBe("done");
    const answer = await settledAnswer(second.url, threadId);
    expect(answer.status).toBe("complete");
    // Every call the endpoint got is counted, the one cut by the kill as a call of unknown cost.
    expect(answer.usage.total).toMatchObject({ calls: endpoint.seen.length, unpriced_calls: expect.any(Number) });
    expect(answer.usage.total.input_tokens).toBe(100 * (endpoint.seen.length - 1));
  });

  it("without Redis, leaves alone the answer of a debate that is being resumed when a reader of its first run comes back", async () => {
    const { runId, second } = await killedAndRestarted();
    const resumed = await fetch(`${second.url}/api/v1/debates/${runId}/resume`, { method: "POST" });
    expect(resumed.status).toBe(200);
    const rest = readSse(resumed);
    // The first run's reader comes back while the resumed run writes the same answer: nothing is ended under it.
    expect((await fetch(`${second.url}/api/v1/debates/${runId}/events`)).status).toBe(404);
    expect(await (await fetch(`${second.url}/api/v1/debates/${runId}`)).json()).toMatchObject({ status: "streaming" });
    expect((await rest).events.at(-1)!.event).toBe("done");
    expect(await settledAnswer(second.url, runId)).toMatchObject({ status: "complete" });
  });

  it.skipIf(!binary)(
    "stops a run on a live instance whose log another one ended (its user's stop, not answered in time), rather than let it go on unseen",
    async () => {
      const redis = await RedisServer.start(binary!);
      cleanups.push(() => redis.kill());
      const db = await sqliteHistory();
      cleanups.push(() => db.close());
      const logs: string[] = [];
      const events = new RedisEventLog(redis.url, { ttlMs: 60_000, log: (l) => logs.push(l) });
      cleanups.push(() => events.close());
      const { deps, models } = testDeps({
        script: withOverrides((req) => (req.phase === "turn" ? { text: `${req.participant!.display} argues.`, latencyMs: 150 } : undefined)),
      });
      const a = await startApp({ ...deps, events, log: (l) => logs.push(l) }, { history: db.history, checkpointer: new MemorySaver() });
      cleanups.push(a.close);
      // Another instance ends A's run's log as its user's stop (as a stop does when no instance answers it in time).
      const other = new RedisEventLog(redis.url, { ttlMs: 60_000, log: () => {} });
      cleanups.push(() => other.close());
      let ended: Promise<boolean> | undefined;
      let started = "";
      const { events: onA } = await readSse(
        await postChat(a.url, { message: "/debatt Bör AI regleras?", participants: ["call_grok", "call_claude", "call_gpt"] }),
        (e) => {
          if (e.event === "metadata") started = String(e.data.run_id);
          if (!ended && e.event === "debate-participant-end")
            ended = new Promise((r) => setTimeout(r, 50)).then(() =>
              other.endOrphan(started, [
                { event: "error", data: { code: "cancelled", message: "the run was stopped at its user's request", timestamp: new Date().toISOString() } },
                { event: "done", data: { timestamp: new Date().toISOString() } },
              ]),
            );
        },
      );
      expect(await ended).toBe(true);
      const runId = String(onA[0].data.run_id);
      // Its client reads the log every instance reads: the run's end is the one written there.
      expect(onA.find((e) => e.event === "error")?.data).toMatchObject({ code: "cancelled" });
      expect(onA.at(-1)!.event).toBe("done");
      expect(onA.some((e) => e.event === "debate-synthesis-complete")).toBe(false);
      // A learns of it at its next write and stops the run as its user asked: its answer is kept as
      // cancelled, the call then in flight is aborted, and none starts after it (the debate never reached its vote).
      await vi.waitFor(async () => expect(await db.history.message(runId)).toMatchObject({ status: "cancelled" }), { timeout: 60_000, interval: 50 });
      expect(models.calls.slice(0, -1).every((c) => !c.aborted)).toBe(true);
      expect(models.calls.every((c) => c.phase === "turn")).toBe(true);
      expect(logs.some((l) => l.includes(`another instance ended the log of run ${runId}`))).toBe(true);
    },
  );
});
