import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { RunDeadline } from "../service/run-deadline.js";
import { loadSettings } from "../state/config.js";
import { withOverrides } from "./support/fake-model.js";
import { testDeps } from "./support/harness.js";
import { sqliteHistory } from "./support/history-db.js";
import { postChat, readSse } from "./support/http.js";
import { startApp } from "./support/http.js";

const THREE = ["call_grok", "call_claude", "call_gpt"];

describe("a run's deadline (RUN_DEADLINE_MS)", () => {
  it("is 30 minutes unless set; 0 is none", () => {
    expect(loadSettings({}).runDeadlineMs).toBe(1_800_000);
    expect(loadSettings({ RUN_DEADLINE_MS: "0" }).runDeadlineMs).toBe(0);
    expect(() => loadSettings({ RUN_DEADLINE_MS: "-1" })).toThrow(/RUN_DEADLINE_MS/);
  });

  it("ends a run that takes too long with what it has: deadline_exceeded, done, the answer an error, resumable", async () => {
    const db = await sqliteHistory();
    // Claude takes its time in every round, as a provider that hangs until its per-call timeout.
    const { deps } = testDeps({
      script: withOverrides((req) =>
        req.phase === "turn" ? { text: `${req.participant!.display} says a thing.`, latencyMs: req.participant!.key === "call_claude" ? 900 : 30 } : undefined,
      ),
      settings: { runDeadlineMs: 1_200 },
    });
    const server = await startApp(deps, { history: db.history, checkpointer: new MemorySaver() });
    try {
      const { events } = await readSse(await postChat(server.url, { message: "/debatt Bör AI regleras?", participants: THREE }));
      expect(events.find((e) => e.event === "error")?.data).toMatchObject({ code: "deadline_exceeded", message: expect.stringContaining("1 s") });
      expect(events.at(-1)!.event).toBe("done");
      expect(events.some((e) => e.event === "debate-synthesis-complete")).toBe(false);
      // What was said is kept, and the answer says why it stopped.
      const runId = String(events[0].data.run_id);
      expect(events.filter((e) => e.event === "debate-participant-end").length).toBeGreaterThan(0);
      expect(await db.history.message(runId)).toMatchObject({ status: "error", error: expect.stringContaining("deadline") });
      expect((await db.history.stagesOf(runId)).filter((r) => r.stageType === "debatt_answer").length).toBeGreaterThan(0);
      // It goes on from its last saved step, with a deadline of its own.
      const resumed = await fetch(`${server.url}/api/v1/debates/${runId}/resume`, { method: "POST" });
      expect(resumed.status).toBe(200);
      const after = (await readSse(resumed)).events;
      expect(after.at(-1)!.event).toBe("done");
      expect(after.some((e) => e.event === "debate-round-start" && e.data.round === 1)).toBe(false);
    } finally {
      await server.close();
      await db.close();
    }
  });

  it("does not count the time a debate waits for the person who joined it", async () => {
    const db = await sqliteHistory();
    // The models answer at once; the person takes longer than the run's whole deadline for each turn.
    const { deps } = testDeps({ settings: { runDeadlineMs: 600 } });
    const server = await startApp(deps, { history: db.history, checkpointer: new MemorySaver() });
    try {
      let runId = "";
      const { events } = await readSse(
        await postChat(server.url, { message: "/debatt --with-me Bör AI regleras?", participants: ["call_grok", "call_claude"], personName: "Anna" }),
        (e) => {
          if (e.event === "metadata") runId = String(e.data.run_id);
          if (e.event !== "debate-awaiting-input") return;
          const body = e.data.kind === "turn" ? { text: "Anna tycker till." } : { vote: "Grok" };
          setTimeout(
            () =>
              void fetch(`${server.url}/api/v1/debates/${runId}/input`, {
                method: "POST",
                headers: { "content-type": "application/json" },
                body: JSON.stringify(body),
              }),
            700,
          );
        },
      );
      expect(events.filter((e) => e.event === "error")).toEqual([]);
      expect(events.some((e) => e.event === "debate-synthesis-complete")).toBe(true);
    } finally {
      await server.close();
      await db.close();
    }
  });

  it("resumes a vote cut short without asking again the voters who had voted: only the one in flight", async () => {
    const db = await sqliteHistory();
    // Claude's first vote hangs past the run's deadline; every other call answers at once.
    let claudeVotes = 0;
    const { deps, models } = testDeps({
      script: withOverrides((req) => {
        if (req.phase !== "vote") return undefined;
        const slow = req.participant!.key === "call_claude" && claudeVotes++ === 0;
        const votedFor = req.participant!.key === "call_grok" ? "Claude" : "Grok";
        return { text: JSON.stringify({ voted_for: votedFor, short_motivation: "m", three_bullets: ["a", "b", "c"] }), latencyMs: slow ? 5_000 : 10 };
      }),
      settings: { runDeadlineMs: 1_500 },
    });
    const server = await startApp(deps, { history: db.history, checkpointer: new MemorySaver() });
    try {
      const { events } = await readSse(await postChat(server.url, { message: "/debatt Bör AI regleras?", participants: THREE }));
      expect(events.find((e) => e.event === "error")?.data).toMatchObject({ code: "deadline_exceeded" });
      // Grok and ChatGPT voted before the deadline; Claude's vote was in flight.
      expect(
        events
          .filter((e) => e.event === "debate-vote-result")
          .map((e) => e.data.voter)
          .sort(),
      ).toEqual(["ChatGPT", "Grok"]);
      expect(events.some((e) => e.event === "debate-vote-result" && e.data.voter === "Claude")).toBe(false);
      const runId = String(events[0].data.run_id);
      const resumed = await fetch(`${server.url}/api/v1/debates/${runId}/resume`, { method: "POST" });
      expect(resumed.status).toBe(200);
      const after = (await readSse(resumed)).events;
      expect(after.at(-1)!.event).toBe("done");
      // Only Claude is asked again; the two kept votes count, and are not announced twice.
      expect(
        models
          .callsOf("vote")
          .map((c) => c.participant)
          .sort(),
      ).toEqual(["call_claude", "call_claude", "call_gpt", "call_grok"]);
      expect(after.filter((e) => e.event === "debate-vote-result").map((e) => e.data.voter)).toEqual(["Claude"]);
      const results = after.find((e) => e.event === "debate-results")!.data as { vote_counts: Record<string, number> };
      expect(Object.values(results.vote_counts).reduce((a, b) => a + b, 0)).toBe(3);
      expect((await db.history.stagesOf(runId)).filter((r) => r.stageType === "debatt_vote")).toHaveLength(3);
    } finally {
      await server.close();
      await db.close();
    }
  });

  it("resumes a round cut short without asking again the turns that had finished, nor announcing the round again", async () => {
    const db = await sqliteHistory();
    // The third speaker of round 2 hangs past the run's deadline; every other call answers at once.
    let round2 = 0;
    const { deps, models } = testDeps({
      script: withOverrides((req) =>
        req.phase === "turn"
          ? {
              text: `${req.participant!.display} says a thing.`,
              latencyMs: req.round === 2 && round2++ === 2 ? 5_000 : 10,
              metadata: { reasoning: "I thought.", sources: [{ url: "https://example.org/s" }] },
            }
          : undefined,
      ),
      settings: { runDeadlineMs: 1_000 },
    });
    const server = await startApp(deps, { history: db.history, checkpointer: new MemorySaver() });
    try {
      const { events } = await readSse(await postChat(server.url, { message: "/debatt Bör AI regleras?", participants: THREE }));
      expect(events.find((e) => e.event === "error")?.data).toMatchObject({ code: "deadline_exceeded" });
      const ended = (list: typeof events) => list.filter((e) => e.event === "debate-participant-end").map((e) => `${e.data.round}:${e.data.model_key}`);
      const before = ended(events);
      expect(before.filter((t) => t.startsWith("2:"))).toHaveLength(2);
      const runId = String(events[0].data.run_id);
      const resumed = await fetch(`${server.url}/api/v1/debates/${runId}/resume`, { method: "POST" });
      expect(resumed.status).toBe(200);
      const after = (await readSse(resumed)).events;
      expect(after.at(-1)!.event).toBe("done");
      // Only round 2's third speaker and round 3 are asked; round 2 is not announced twice.
      const after2 = ended(after);
      expect(after2.filter((t) => t.startsWith("2:"))).toHaveLength(1);
      expect([...before, ...after2].sort()).toEqual(THREE.flatMap((k) => [1, 2, 3].map((r) => `${r}:${k}`)).sort());
      expect(models.callsOf("turn").filter((c) => c.round === 2)).toHaveLength(4);
      expect(after.filter((e) => e.event === "debate-round-start").map((e) => e.data.round)).toEqual([3, 4]);
      // Every turn is in the history whole: those of the round cut short kept their notes though their step never ended.
      const rows = (await db.history.stagesOf(runId)).filter((r) => r.stageType === "debatt_answer");
      expect(rows).toHaveLength(9);
      for (const r of rows) expect(r.parsedData, r.id).toMatchObject({ status: "ok", reasoning: "I thought.", sources: [{ url: "https://example.org/s" }] });
    } finally {
      await server.close();
      await db.close();
    }
  });

  it("keeps its clock stopped while paused, and none at 0", async () => {
    let fired = 0;
    const deadline = new RunDeadline(300, () => fired++);
    await new Promise((r) => setTimeout(r, 150));
    deadline.pause();
    await new Promise((r) => setTimeout(r, 400));
    expect(fired).toBe(0);
    deadline.resume();
    await new Promise((r) => setTimeout(r, 50));
    expect(fired).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(fired).toBe(1);
    deadline.stop();
    const none = new RunDeadline(0, () => fired++);
    await new Promise((r) => setTimeout(r, 20));
    none.stop();
    expect(fired).toBe(1);
  });
});
