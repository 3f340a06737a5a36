import { MemorySaver } from "@langchain/langgraph";
import { afterEach, describe, expect, it } from "vitest";
import { RunRecorder } from "../history/recorder.js";
import type { HistoryStore, RunEnd } from "../history/store.js";
import { WriteBehindSaver } from "../providers/write-behind-saver.js";
import { withOverrides } from "./support/fake-model.js";
import { testDeps } from "./support/harness.js";
import { sqliteHistory, type TestHistory } from "./support/history-db.js";
import { postChat, readSse, startApp, type SseEvent } from "./support/http.js";

const THREE = ["call_grok", "call_claude", "call_gpt"];
const slowTurns = withOverrides((req) =>
  req.phase === "turn" ? { text: `${req.participant!.display} argues in round ${req.round}.`, latencyMs: 40 } : undefined,
);
/** What SQLite says when the disk is full. */
const diskFull = () => Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });

/** A disk that can fill up: while `full`, every write of `store` fails as SQLite's would. */
class Disk {
  full = false;
  /** `store` with its writes failing while the disk is full. */
  history(store: HistoryStore): HistoryStore {
    const writes = new Set<PropertyKey>(["startRun", "addStages", "finishRun"]);
    return new Proxy(store, {
      get: (target, name) => {
        const value = Reflect.get(target, name) as unknown;
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => (writes.has(name) && this.full ? Promise.reject(diskFull()) : value.apply(target, args));
      },
    });
  }
  /** A checkpointer whose saves fail while the disk is full (behind the write-behind queue, as in production). */
  checkpointer(): WriteBehindSaver {
    const disk = this;
    class FillingSaver extends MemorySaver {
      override async put(...args: Parameters<MemorySaver["put"]>) {
        if (disk.full) throw diskFull();
        return super.put(...args);
      }
    }
    return new WriteBehindSaver(new FillingSaver());
  }
}

const turnsOf = (events: SseEvent[]) => events.filter((e) => e.event === "debate-participant-end").map((e) => `${e.data.round}:${e.data.model_key}`);

describe("a database write that fails mid-run (disk full)", () => {
  let db: TestHistory | undefined;
  afterEach(async () => {
    await db?.close();
  });

  for (const where of ["history", "checkpoints"] as const) {
    it(`ends the run with write_failed when the ${where} cannot be written, marks the answer error, keeps what was shown, and resumes from the last checkpoint`, async () => {
      db = await sqliteHistory();
      const disk = new Disk();
      const { deps, models, logs } = testDeps({ script: slowTurns });
      const server = await startApp(deps, {
        history: where === "history" ? disk.history(db.history) : db.history,
        checkpointer: where === "checkpoints" ? disk.checkpointer() : new MemorySaver(),
      });
      try {
        const { events } = await readSse(await postChat(server.url, { message: "/debatt Bör AI regleras?", participants: THREE }), (e) => {
          // The disk fills up after the fourth turn.
          if (e.event === "debate-participant-end" && turnsOf([e]).length && e.data.round === 2 && e.data.position === 1) disk.full = true;
        });
        const runId = String(events[0].data.run_id);
        const error = events.find((e) => e.event === "error");
        expect(error?.data).toMatchObject({ code: "write_failed" });
        expect(error?.data.message).toContain("database or disk is full");
        expect(events.at(-1)!.event).toBe("done");
        const before = turnsOf(events);
        expect(before.length).toBeGreaterThanOrEqual(4);
        expect(before.length).toBeLessThan(9);

        // The disk has room again: the answer, which may have failed to be written too, is marked error, not left streaming.
        disk.full = false;
        let answer = await db.history.message(runId);
        for (let i = 0; i < 40 && answer?.status === "streaming"; i++, await new Promise((r) => setTimeout(r, 100))) answer = await db.history.message(runId);
        expect(answer).toMatchObject({ status: "error", error: expect.stringContaining("could not be written") });
        // What the user saw is kept: the question, and the turns written before the disk filled up.
        expect((await db.history.message(`${runId}:question`))?.content).toBe("/debatt Bör AI regleras?");
        expect((await db.history.stagesOf(runId)).filter((r) => r.stageType === "debatt_answer").length).toBeGreaterThanOrEqual(3);
        expect((await (await fetch(`${server.url}/api/v1/debates/${runId}/events`)).text()).split("event: debate-participant-end").length - 1).toBe(
          before.length,
        );

        // Resumed, the run goes on from its last checkpoint: no finished turn is asked again
        // (at most the one whose checkpoint was lost) and the history holds the whole debate.
        const callsBefore = models.calls.filter((c) => c.phase === "turn" && c.finished).map((c) => `${c.round}:${c.participant}`);
        const resumed = await fetch(`${server.url}/api/v1/debates/${runId}/resume`, { method: "POST" });
        expect(resumed.status).toBe(200);
        const { events: after } = await readSse(resumed);
        expect(after.at(-1)!.event).toBe("done");
        expect(after.some((e) => e.event === "debate-synthesis-complete")).toBe(true);
        const askedAgain = models.calls
          .filter((c) => c.phase === "turn")
          .slice(callsBefore.length)
          .map((c) => `${c.round}:${c.participant}`)
          .filter((t) => callsBefore.includes(t));
        expect(askedAgain.length).toBeLessThanOrEqual(where === "checkpoints" ? 1 : 0);
        expect(new Set([...before, ...turnsOf(after)]).size).toBe(9);
        expect(await db.history.message(runId)).toMatchObject({ status: "complete", error: null });
        expect((await db.history.stagesOf(runId)).filter((r) => r.stageType === "debatt_answer")).toHaveLength(9);
        // The operator reads it in the log.
        expect(logs.some((l) => l.includes("could not be written (database or disk is full)") || l.includes("failed: database or disk is full"))).toBe(true);
      } finally {
        await server.close();
      }
    });
  }
});

/** A history whose first answer write fails (the disk was full); `ends` holds the answers written. */
function endFailingOnce(): { store: HistoryStore; ends: RunEnd[] } {
  const ends: RunEnd[] = [];
  let failures = 1;
  const store = {
    startRun: async () => {},
    addStages: async () => {},
    finishRun: async (_run: unknown, end: RunEnd) => {
      if (failures-- > 0) throw diskFull();
      ends.push(end);
    },
  } as unknown as HistoryStore;
  return { store, ends };
}

describe("the answer's end when its write fails", () => {
  it("is reported to the run (so the client is told) and written later", async () => {
    const { store, ends } = endFailingOnce();
    const logs: string[] = [];
    const recorder = RunRecorder.start(store, { conversationId: "c", messageId: "m", message: "/debatt X", owner: "local" }, (l) => logs.push(l));
    const failed = await recorder.finish(false);
    expect(failed).toMatchObject({ code: "write_failed", message: expect.stringContaining("database or disk is full") });
    expect(ends).toEqual([]);
    for (let i = 0; i < 30 && ends.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(ends).toEqual([expect.objectContaining({ status: "complete" })]);
    expect(logs.at(-1)).toContain("is written (complete)");
  });

  it("stops trying when the run is resumed, so a late retry never undoes the resumed run's end", async () => {
    const { store, ends } = endFailingOnce();
    const run = { conversationId: "c", messageId: "resumed", message: "/debatt X", owner: "local" };
    const first = RunRecorder.start(store, run, () => {});
    first.failed("the history could not be written");
    expect(await first.finish(false)).toBeDefined();
    const resumed = RunRecorder.start(store, run, () => {});
    await new Promise((r) => setTimeout(r, 1_500));
    expect(ends).toEqual([]);
    expect(await resumed.finish(false)).toBeUndefined();
    expect(ends).toEqual([expect.objectContaining({ status: "complete", error: null })]);
  });
});
