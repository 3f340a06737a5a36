import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { roster } from "./support/debater.js";
import { postChat, readSse, type SseEvent } from "./support/http.js";
import { PostgresServer, postgresBinDir } from "./support/postgres.js";
import { startServerProcess } from "./support/server-process.js";
import type { SpawnedServer } from "../scripts/spawn-server.js";

const pgBin = postgresBinDir();
if (!pgBin) console.warn("faults-pg.test.ts: SKIPPED — postgresql is not installed (apt-get install -y postgresql)");

const turnsOf = (events: SseEvent[]) => events.filter((e) => e.event === "debate-participant-end").map((e) => `${e.data.round}:${e.data.model_key}`);

describe.skipIf(!pgBin)("PostgreSQL restarted under two running instances", () => {
  let db: PostgresServer;
  const servers: SpawnedServer[] = [];
  let env: Record<string, string>;
  beforeAll(async () => {
    db = await PostgresServer.start(pgBin!);
    // Turns that take a moment each, so the debate is in its rounds when the database goes away.
    env = { DATABASE_URL: db.url, DEBATE_PARTICIPANTS: roster, SIMULATED_LATENCY_MS: "120" };
    // Two instances migrating one fresh database at the same moment: both start.
    servers.push(...(await Promise.all([startServerProcess(env), startServerProcess(env)])));
  });
  afterAll(async () => {
    // A process that died says why.
    for (const s of servers) if (s.child.exitCode !== null) console.error(`a server exited with ${s.child.exitCode}:\n${s.log()}`);
    for (const s of servers) s.child.kill("SIGKILL");
    await db?.stop();
  });

  it("two instances migrate a fresh database at once, and both serve", async () => {
    for (const s of servers) expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
  });

  it("costs the debates in progress on both instances a write_failed they can resume from, not the processes", async () => {
    const [a, b] = servers;
    // Four debates, two on each instance, all in their rounds when the database goes away.
    const runs = [a, b, a, b].map((s) => ({ server: s, events: [] as SseEvent[] }));
    let restart: (() => void) | undefined;
    const halted = new Promise<void>((resolve) => (restart = resolve));
    let duringOutage: Response | undefined;
    const reads = runs.map(async (run) =>
      readSse(await postChat(run.server.url, { message: "/debatt Bör AI regleras?" }), (e) => {
        run.events.push(e);
        // Once every debate has a turn behind it, the database restarts.
        if (runs.every((r) => turnsOf(r.events).length > 0)) restart?.();
      }),
    );
    const outage = halted.then(async () => {
      await db.halt("fast");
      // A read while the database is down is told the truth, not a 500.
      duringOutage = await fetch(`${b.url}/api/v1/conversations`);
      await new Promise((r) => setTimeout(r, 1_500));
      await db.start();
    });
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`not every debate ended within 25 s: ${runs.map((r) => r.events.at(-1)?.event).join(", ")}`)), 25_000),
    );
    await Promise.race([Promise.all([...reads, outage]), timeout]);

    expect(duringOutage!.status).toBe(503);
    expect(duringOutage!.headers.get("retry-after")).toBe("5");
    expect((await duringOutage!.json()).error).toMatchObject({ code: "database_unavailable" });
    // Every client is told the truth: each debate ended, either whole or with write_failed.
    for (const run of runs) {
      expect(run.events.at(-1)!.event).toBe("done");
      const error = run.events.find((e) => e.event === "error");
      // A save that failed, or a read of the database while it was away: either way resumable.
      if (error) expect(["write_failed", "database_unavailable"]).toContain(error.data.code);
      if (error) expect(error.data.message).not.toMatch(/insert into|select |postgres:\/\/|\$\d/i);
      else expect(run.events.some((e) => e.event === "debate-synthesis-complete")).toBe(true);
    }
    expect(runs.filter((r) => r.events.some((e) => e.event === "error")).length).toBeGreaterThan(0);
    // Both processes are alive, and the operator reads what happened in the log.
    for (const s of servers) expect(s.child.exitCode).toBeNull();
    expect(a.log() + b.log()).toMatch(/database connection lost/);

    let resumedOne = false;
    for (const run of runs) {
      const runId = String(run.events[0].data.run_id);
      // Once the database is back, no answer is left streaming, on either instance.
      let answer: any;
      for (let i = 0; i < 60; i++, await new Promise((r) => setTimeout(r, 250))) {
        answer = await (await fetch(`${b.url}/api/v1/debates/${runId}`)).json();
        if (answer.status && answer.status !== "streaming") break;
      }
      if (!run.events.some((e) => e.event === "error")) {
        expect(answer.status).toBe("complete");
        continue;
      }
      expect(answer.status).toBe("error");
      // A debate cut short resumes from its last saved step, on the other instance, and finishes.
      const resumed = await fetch(`${(run.server === a ? b : a).url}/api/v1/debates/${runId}/resume`, { method: "POST" });
      // One whose every save fell in the outage has nothing to resume from (it is asked again), and says so.
      if (resumed.status === 409) {
        expect((await resumed.json()).error).toMatchObject({ code: "nothing_to_resume", message: expect.stringContaining("no step of it was saved") });
        continue;
      }
      resumedOne = true;
      expect(resumed.status).toBe(200);
      const { events: after } = await readSse(resumed);
      expect(after.at(-1)!.event).toBe("done");
      expect(after.some((e) => e.event === "error")).toBe(false);
      expect(new Set([...turnsOf(run.events), ...turnsOf(after)]).size).toBe(9);
    }

    expect(resumedOne).toBe(true);

    // Both instances keep serving new debates.
    for (const s of servers) {
      const { events: fresh } = await readSse(await postChat(s.url, { message: "/compare Vad är 2+2?" }));
      expect(fresh.at(-1)!.event).toBe("done");
      expect(fresh.some((e) => e.event === "error")).toBe(false);
    }
    // The next queries reconnected, and said so.
    expect(a.log() + b.log()).toMatch(/connected to the database again/);
  }, 120_000);
});
