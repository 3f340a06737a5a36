import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { SpawnedServer } from "../scripts/spawn-server.js";
import { debater, roster } from "./support/debater.js";
import { startFakeOpenAI } from "./support/fake-servers.js";
import { postChat, readSse, type SseEvent } from "./support/http.js";
import { PostgresServer, postgresBinDir } from "./support/postgres.js";
import { RedisServer, redisServerBinary } from "./support/redis.js";
import { startServerProcess } from "./support/server-process.js";
import type { ClientEvent } from "../state/events.js";
import type { RunKind } from "../state/formats.js";
import { emptyArena, reduce, type ArenaState } from "../web/arena-state.js";
import { liveRun } from "../web/live-run.js";
import { storedEvents } from "../web/stored-events.js";

const pgBin = postgresBinDir();
const redisBin = redisServerBinary();
if (!pgBin || !redisBin) console.warn("chaos.test.ts: SKIPPED — it needs postgresql and redis-server (apt-get install -y postgresql redis-server)");

/** How many debates run through the chaos at once. */
const RUNS = 6;

/**
 * A client as a browser's EventSource is: it reads a run's stream, and whenever the stream breaks
 * (its instance was killed, or shut down) it reconnects to another live instance with
 * `Last-Event-ID`, until `done`. Every event it was given, in order, and every id it saw twice.
 */
async function followToDone(first: Response, live: () => SpawnedServer[]): Promise<{ events: SseEvent[]; repeated: string[] }> {
  const events: SseEvent[] = [];
  const repeated: string[] = [];
  const take = (e: SseEvent) => {
    if (events.some((seen) => seen.id === e.id)) repeated.push(e.id!);
    events.push(e);
  };
  await readSse(first, take).catch(() => undefined);
  for (let attempt = 0; events.at(-1)?.event !== "done" && attempt < 100; attempt++) {
    // EventSource waits the stream's `retry:` (500 ms) before it reconnects.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const servers = live();
    const server = servers[attempt % servers.length];
    const runId = String(events[0]?.data.run_id);
    const res = await fetch(`${server.url}/api/v1/debates/${runId}/events`, { headers: { "last-event-id": events.at(-1)!.id! } }).catch(() => undefined);
    if (res?.status === 200) await readSse(res, take).catch(() => undefined);
  }
  return { events, repeated };
}

describe.skipIf(!pgBin || !redisBin)("three instances, one PostgreSQL and one Redis, with instances killed and shut down under running debates", () => {
  let db: PostgresServer;
  let redis: RedisServer;
  const servers: SpawnedServer[] = [];
  const dead = new Set<SpawnedServer>();
  beforeAll(async () => {
    [db, redis] = await Promise.all([PostgresServer.start(pgBin!), RedisServer.start(redisBin!)]);
  });
  afterAll(async () => {
    for (const s of servers) s.child.kill("SIGKILL");
    await Promise.all(servers.map((s) => s.exited));
    await redis?.kill();
    await db?.stop();
  });

  it("brings every run to done, whole, once: no client misses an event or sees an id twice, and every model call is on record", async () => {
    // Each call takes a moment, word by word, so the debates are mid-answer when instances go.
    const endpoint = await startFakeOpenAI((body) => ({
      ...debater(body),
      usage: { prompt_tokens: 100, completion_tokens: 10 },
      delayMs: 100,
      pieceDelayMs: 20,
    }));
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      DEBATE_PARTICIPANTS: roster,
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: endpoint.baseURL,
      RUN_LOCK_MS: "2000",
      SHUTDOWN_GRACE_MS: "0",
      RESUME_GRACE_MS: "120000",
      RUNS_PER_MINUTE: "100",
    };
    const start = async () => {
      const server = await startServerProcess(env);
      servers.push(server);
      return server;
    };
    try {
      await Promise.all([start(), start(), start()]);
      const live = () => servers.filter((s) => !dead.has(s));
      // The debates are asked for round-robin, as a load balancer would send them.
      const clients = Array.from({ length: RUNS }, async (_, i) =>
        followToDone(await postChat(servers[i % 3].url, { message: `/debatt Fråga ${i}: bör AI regleras?` }), live),
      );
      // Mid-debate, one instance is killed (-9) and another shut down (SIGTERM, with no grace
      // for its runs); a new instance comes up in the place of each, as an orchestrator would start one.
      const calls = (n: number) => vi.waitFor(() => expect(endpoint.seen.length).toBeGreaterThanOrEqual(n), { timeout: 120_000, interval: 20 });
      // The instance running the most runs (as /healthz counts them) goes each time.
      const busiest = async () => {
        let counts: number[] = [];
        await vi.waitFor(
          async () => {
            counts = await Promise.all(
              live().map(async (s) => ((await (await fetch(`${s.url}/healthz`)).json()) as { active_streams: number }).active_streams),
            );
            expect(Math.max(...counts)).toBeGreaterThan(0);
          },
          { timeout: 60_000, interval: 20 },
        );
        return live()[counts.indexOf(Math.max(...counts))];
      };
      await calls(15);
      const killed = await busiest();
      killed.child.kill("SIGKILL");
      dead.add(killed);
      await killed.exited;
      // The new instance comes up while the runs go on (a start takes seconds: the runs must not end meanwhile).
      const replacement = start();
      await calls(40);
      const stopped = await busiest();
      stopped.child.kill("SIGTERM");
      dead.add(stopped);
      expect(await stopped.exited).toBe(0);
      await replacement;
      await start();

      const runs = await Promise.all(clients);
      for (const { events, repeated } of runs) {
        // Whole: every id from 1 to done, in order, none twice, and no error (every run was taken up, none cut).
        expect(repeated).toEqual([]);
        expect(events.map((e) => Number(e.id))).toEqual(events.map((_, i) => i + 1));
        expect(events.filter((e) => e.event === "error").map((e) => e.data)).toEqual([]);
        expect(events.at(-1)!.event).toBe("done");
        expect(events.some((e) => e.event === "debate-synthesis-complete")).toBe(true);
      }
      // Runs taken up say so, and the page shows each as it was stored: the turns and the synthesis
      // under way when a server went begin anew, none is written twice.
      expect(runs.some(({ events }) => events.some((e) => e.event === "run-resumed"))).toBe(true);
      for (const { events } of runs) {
        const next = liveRun();
        const followed = events.reduce((arena, e) => next({ event: e.event, data: e.data } as ClientEvent)(arena), emptyArena());
        const stored = (await (await fetch(`${live().at(0)!.url}/api/v1/conversations/${String(events[0].data.thread_id)}`)).json()) as {
          messages: { role: string; content: string; id: string; format: RunKind; result: unknown }[];
        };
        const [asked, answer] = stored.messages;
        const shown = storedEvents(answer.id, answer.format, answer.result, asked.content)!.reduce(reduce, emptyArena());
        const texts = (a: ArenaState) => [Object.values(a.cards).map((c) => Object.values(c.rounds).map((r) => r.text)), a.synthesis];
        expect(texts(followed)).toEqual(texts(shown));
      }
      // The chaos reached runs: the survivors took up runs of the killed instance and of the one shut down.
      expect(stopped.log()).toMatch(/handed \d+ run\(s\) back to the queue/);
      expect(live().some((s) => /taken up again/.test(s.log()))).toBe(true);
      // The history has every debate complete, and every call the endpoint served (those cut by the
      // kill and the shutdown too, as calls of unknown cost).
      const answers = await Promise.all(
        runs.map(async ({ events }) => await (await fetch(`${live()[0].url}/api/v1/debates/${String(events[0].data.run_id)}`)).json()),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(RUNS).fill("complete"));
      // Every call the endpoint served is on record. A call counted as it started and cut by the kill
      // or the hand-back before its request left may be on record without reaching the endpoint, but
      // only as a call without usage (each answered call used 100 tokens in): none is made up.
      const recorded = answers.reduce((n, a) => n + Number(a.usage.total.calls), 0);
      const answered = answers.reduce((n, a) => n + Number(a.usage.total.input_tokens), 0) / 100;
      expect(recorded).toBeGreaterThanOrEqual(endpoint.seen.length);
      expect(answered).toBeLessThanOrEqual(endpoint.seen.length);
      expect(recorded - endpoint.seen.length).toBeLessThanOrEqual(RUNS);
    } finally {
      await endpoint.close();
    }
  });
});
