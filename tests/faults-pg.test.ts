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
  }, 60_000);
  afterAll(async () => {
    for (const s of servers) s.child.kill("SIGKILL");
    await db?.stop();
  });

  it("two instances migrate a fresh database at once, and both serve", async () => {
    for (const s of servers) expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
  });

  it("costs the debate in progress a write_failed it can resume from, not the processes", async () => {
    const [a, b] = servers;
    const events: SseEvent[] = [];
    let restarted: Promise<void> | undefined;
    const read = readSse(await postChat(a.url, { message: "/debatt Bör AI regleras?" }), (e) => {
      events.push(e);
      // In round 1, the database is restarted: down for a second and a half, while turns end.
      if (!restarted && e.event === "debate-participant-end") restarted = db.halt("fast").then(() => new Promise((r) => setTimeout(r, 1_500))).then(() => db.start());
    });
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no done within 20 s: ${events.map((e) => e.event).join(", ")}`)), 20_000));
    await Promise.race([read, timeout]);
    await restarted;

    // The client is told the truth: the run stopped because a write failed, and the stream ended.
    expect(events.find((e) => e.event === "error")?.data).toMatchObject({ code: "write_failed" });
    expect(events.find((e) => e.event === "error")?.data.message).not.toMatch(/insert into|select |postgres:\/\/|\$\d/i);
    expect(events.at(-1)!.event).toBe("done");
    // Both processes are alive, and the one that ran the debate logged what happened.
    for (const s of servers) expect(s.child.exitCode).toBeNull();
    expect(a.log()).toMatch(/database connection lost|could not be written/);
    const runId = String(events[0].data.run_id);

    // Once the database is back, the answer is marked error (not left streaming), on either instance.
    let answer: any;
    for (let i = 0; i < 60; i++, await new Promise((r) => setTimeout(r, 250))) {
      answer = await (await fetch(`${b.url}/api/v1/debates/${runId}`)).json();
      if (answer.status && answer.status !== "streaming") break;
    }
    expect(answer.status).toBe("error");

    // The debate resumes from its last saved step, on the other instance, and finishes.
    const resumed = await fetch(`${b.url}/api/v1/debates/${runId}/resume`, { method: "POST" });
    expect(resumed.status).toBe(200);
    const { events: after } = await readSse(resumed);
    expect(after.at(-1)!.event).toBe("done");
    expect(after.some((e) => e.event === "error")).toBe(false);
    expect(new Set([...turnsOf(events), ...turnsOf(after)]).size).toBe(9);

    // Both instances keep serving new debates.
    for (const s of servers) {
      const { events: fresh } = await readSse(await postChat(s.url, { message: "/compare Vad är 2+2?" }));
      expect(fresh.at(-1)!.event).toBe("done");
      expect(fresh.some((e) => e.event === "error")).toBe(false);
    }
  }, 90_000);
});
