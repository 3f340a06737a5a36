import { nodeDepsOf } from "../service/app-deps.js";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MemorySaver } from "@langchain/langgraph";
import { WriteBehindSaver } from "../providers/write-behind-saver.js";
import { openAppHistory } from "../service/formats.js";
import { debater, roster } from "./support/debater.js";
import { startFakeOpenAI, type SeenRequest } from "./support/fake-servers.js";
import { postChat, readSse, type SseEvent } from "./support/http.js";
import { makeDebateBallot } from "../nodes/debatt/debate-vote.js";
import { defaultRoster } from "../state/participants.js";
import { withOverrides } from "./support/fake-model.js";
import { testDeps } from "./support/harness.js";
import { PostgresServer, postgresBinDir } from "./support/postgres.js";
import { startServerProcess } from "./support/server-process.js";

/** A model request's identity: who was asked what (a turn asked again has the same prompt). */
const asked = (r: SeenRequest) => `${r.body.model}|${JSON.stringify(r.body.messages)}`;

const pgBin = postgresBinDir();
if (!pgBin) console.warn("recovery.test.ts: PostgreSQL part SKIPPED — postgresql is not installed (apt-get install -y postgresql)");

/** The checkpoint stores: the default SQLite file, and PostgreSQL with DATABASE_URL. */
const STORES = [
  { store: "SQLite (the default)", skip: false, database: async () => undefined as { url: string; stop(): Promise<void> } | undefined },
  { store: `PostgreSQL (DATABASE_URL)${pgBin ? "" : " (skipped: postgresql is not installed)"}`, skip: !pgBin, database: () => PostgresServer.start(pgBin!) },
];

describe.each(STORES)("crash recovery on $store: kill -9 mid-debate, restart, resume", ({ skip, database }) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it.skipIf(skip)("continues from the last completed participant turn without asking the model again for finished turns", async () => {
    const openai = await startFakeOpenAI((body) => ({ ...debater(body), delayMs: 600 }));
    cleanups.push(openai.close);
    const dataDir = mkdtempSync(join(tmpdir(), "debatt-recovery-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const db = await database();
    if (db) cleanups.push(() => db.stop());
    const env = {
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: openai.baseURL,
      DEBATE_PARTICIPANTS: roster,
      DEBATT_DATA_DIR: dataDir,
      ...(db ? { DATABASE_URL: db.url } : {}),
    };

    const first = await startServerProcess(env);
    cleanups.push(() => void first.child.kill("SIGKILL"));
    const client = new AbortController();
    const before: SseEvent[] = [];
    await readSse(await postChat(first.url, { message: "/debatt Bör AI regleras?", threadId: "crash-1" }, { signal: client.signal }), (e) => {
      before.push(e);
      if (e.event === "debate-participant-end" && e.data.round === 2) client.abort();
    }).catch(() => {});
    // The next turn is in flight when the process dies: its request is at the model, which answers
    // 600 ms later; the 200 ms before the kill let the turn that just ended reach the checkpoint
    // store (PostgreSQL takes longer than SQLite). Counted from the request, not from the abort,
    // so that a busy machine cannot let the answer arrive first.
    while (!openai.seen.some((r) => !r.closed)) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 200));
    first.child.kill("SIGKILL");
    await first.exited;
    const askedBefore = openai.seen.map(asked);
    const doneBefore = before.filter((e) => e.event === "debate-participant-end").map((e) => `${e.data.round}:${e.data.model_key}`);
    expect(doneBefore).toHaveLength(4);

    const second = await startServerProcess(env);
    cleanups.push(() => void second.child.kill("SIGKILL"));
    expect(second.log()).toMatch(
      db ? /runs are checkpointed in postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres/ : /runs are checkpointed in .*checkpoints\.sqlite/,
    );
    const res = await fetch(`${second.url}/api/v1/debates/crash-1/resume`, { method: "POST" });
    expect(res.status).toBe(200);
    const { events: after } = await readSse(res);

    expect(after[0]).toMatchObject({ event: "metadata", data: { thread_id: "crash-1" } });
    expect(after.at(-1)!.event).toBe("done");
    expect(after.some((e) => e.event === "debate-results")).toBe(true);
    expect(after.some((e) => e.event === "debate-synthesis-complete")).toBe(true);
    // The rest of round 2 and round 3: five turns, none of those finished before the crash.
    const doneAfter = after.filter((e) => e.event === "debate-participant-end").map((e) => `${e.data.round}:${e.data.model_key}`);
    expect(doneAfter).toHaveLength(5);
    expect(doneAfter.filter((t) => doneBefore.includes(t))).toEqual([]);
    expect(after.some((e) => e.event === "debate-round-start" && e.data.round === 1)).toBe(false);
    // The model endpoint was not asked again for any finished turn; at most the one in flight is repeated.
    const askedAfter = openai.seen.slice(askedBefore.length).map(asked);
    const repeated = askedAfter.filter((a) => askedBefore.includes(a));
    expect(repeated.length).toBeLessThanOrEqual(1);
    const finishedPrompts = openai.seen
      .slice(0, askedBefore.length)
      .filter((r) => !r.aborted)
      .map(asked);
    expect(askedAfter.filter((a) => finishedPrompts.includes(a))).toEqual([]);

    // The history holds the whole debate once: the turns before the crash and after it, no repeats.
    expect(second.log()).toMatch(db ? /the history is in postgres:\/\/postgres@/ : /the history is in .*history\.sqlite/);
    const debateId = String(before.find((e) => e.event === "debate-init")!.data.debate_id);
    const stored = await (await fetch(`${second.url}/api/v1/debates/${debateId}`)).json();
    expect(stored).toMatchObject({ conversationId: "crash-1", mode: "debatt", status: "complete", question: "/debatt Bör AI regleras?" });
    expect(
      stored.result.rounds
        .map((r: any) => r.answers.map((a: any) => `${r.round}:${a.modelKey}`))
        .flat()
        .sort(),
    ).toEqual([...doneBefore, ...doneAfter].sort());
    expect(stored.result.votes).toHaveLength(3);
    expect(stored.content).toBe(stored.result.synthesis);
    const listed = await (await fetch(`${second.url}/api/v1/conversations`)).json();
    expect(listed.conversations.map((c: any) => c.id)).toEqual(["crash-1"]);

    // Nothing is left to resume, and an unknown thread never ran.
    const again = await fetch(`${second.url}/api/v1/debates/crash-1/resume`, { method: "POST" });
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe("nothing_to_resume");
    expect((await fetch(`${second.url}/api/v1/debates/never-ran/resume`, { method: "POST" })).status).toBe(409);
  });
});

describe("crash recovery of a simultaneous debate", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it("asks again only the turns of the round that had not finished when the process died", async () => {
    // Grok answers at once; the others take their time, so the process dies with theirs in flight.
    const openai = await startFakeOpenAI((body) => ({ ...debater(body), delayMs: body.model === "x-ai/grok-4" ? 50 : 800 }));
    cleanups.push(openai.close);
    const dataDir = mkdtempSync(join(tmpdir(), "debatt-recovery-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: openai.baseURL, DEBATE_PARTICIPANTS: roster, DEBATT_DATA_DIR: dataDir };
    const first = await startServerProcess(env);
    cleanups.push(() => void first.child.kill("SIGKILL"));
    const client = new AbortController();
    const before: SseEvent[] = [];
    await readSse(
      await postChat(first.url, { message: "/debatt --order simultaneous Bör AI regleras?", threadId: "crash-sim" }, { signal: client.signal }),
      (e) => {
        before.push(e);
        if (e.event === "debate-participant-end" && e.data.round === 2) client.abort();
      },
    ).catch(() => {});
    // Grok's round-2 turn is done (and saved); the other two are in flight when the process dies.
    await new Promise((r) => setTimeout(r, 150));
    first.child.kill("SIGKILL");
    await first.exited;
    const doneBefore = before.filter((e) => e.event === "debate-participant-end").map((e) => `${e.data.round}:${e.data.model_key}`);
    expect(doneBefore).toEqual(expect.arrayContaining(["1:call_grok", "1:call_claude", "1:call_oneseek", "2:call_grok"]));
    expect(doneBefore).toHaveLength(4);
    const askedBefore = openai.seen.length;

    const second = await startServerProcess(env);
    cleanups.push(() => void second.child.kill("SIGKILL"));
    const res = await fetch(`${second.url}/api/v1/debates/crash-sim/resume`, { method: "POST" });
    expect(res.status).toBe(200);
    const { events: after } = await readSse(res);
    expect(after.at(-1)!.event).toBe("done");
    // The rest of round 2 (two turns) and round 3 (three): Grok's round-2 turn is not asked again.
    const doneAfter = after.filter((e) => e.event === "debate-participant-end").map((e) => `${e.data.round}:${e.data.model_key}`);
    expect(doneAfter.sort()).toEqual(["2:call_claude", "2:call_oneseek", "3:call_claude", "3:call_grok", "3:call_oneseek"]);
    const grokRound2 = openai.seen.filter((r) => r.body.model === "x-ai/grok-4" && String(r.body.messages.at(-1).content).includes("Runda 2 — Argument"));
    expect(grokRound2).toHaveLength(1);
    expect(openai.seen.length).toBeGreaterThan(askedBefore);
    const debateId = String(before.find((e) => e.event === "debate-init")!.data.debate_id);
    const stored = await (await fetch(`${second.url}/api/v1/debates/${debateId}`)).json();
    expect(stored.status).toBe("complete");
    expect(stored.result.rounds.map((r: any) => r.answers.length)).toEqual([3, 3, 3]);
  });
});

describe("the CLI resumes an interrupted run", () => {
  it("prints how to go on after Ctrl-C, and --resume finishes the debate from its last saved step", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "debatt-cli-"));
    const env = { PATH: process.env.PATH!, SIMULATED_LATENCY_MS: "40", SIMULATED_CHUNK_DELAY_MS: "0", DEBATT_DATA_DIR: dataDir, DEBATE_PARTICIPANTS: roster };
    try {
      const child = spawn(process.execPath, ["--import", "tsx", "cli/debate.ts", "--json", "/debatt Bör AI regleras?"], { env });
      let out = "";
      let err = "";
      child.stderr.on("data", (d) => (err += d));
      child.stdout.on("data", (d) => {
        out += d;
        if (/"debate-participant-end","data":\{[^\n]*"round":2/.test(out) && !child.killed) child.kill("SIGINT");
      });
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect(code).toBe(130);
      const thread = /go on with: npm run -s debate -- --resume (\S+)/.exec(err)?.[1];
      expect(thread).toMatch(/^[0-9a-f-]{36}$/);
      const before = out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      const ended = before.filter((e) => e.event === "debate-participant-end").length;
      const history = await openAppHistory({ dataDir });
      expect(await history.message(thread!)).toMatchObject({ status: "cancelled", content: "" });
      expect((await history.stagesOf(thread!)).filter((r) => r.stageType === "debatt_answer")).toHaveLength(ended);

      const resumed = spawnSync(process.execPath, ["--import", "tsx", "cli/debate.ts", "--json", "--resume", thread!], { env, encoding: "utf8" });
      expect(resumed.status).toBe(0);
      const after = resumed.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(after.some((e) => e.event === "debate-round-start" && e.data.round === 1)).toBe(false);
      expect(after.filter((e) => e.event === "debate-participant-end").length).toBeGreaterThanOrEqual(9 - ended);
      expect(after.filter((e) => e.event === "debate-participant-end").length).toBeLessThanOrEqual(9 - ended + 1);
      expect(after.some((e) => e.event === "debate-results")).toBe(true);
      expect(after.at(-1).event).toBe("done");
      // The history has the whole debate, each turn once, under the thread's one id.
      expect(await history.message(thread!)).toMatchObject({ status: "complete", conversationId: thread });
      const answers = (await history.stagesOf(thread!)).filter((r) => r.stageType === "debatt_answer");
      expect(new Set(answers.map((r) => r.id)).size).toBe(9);
      expect(answers.map((r) => r.stageOrder)).toEqual([1, 1, 1, 2, 2, 2, 3, 3, 3]);
      await history.close();

      const nothing = spawnSync(process.execPath, ["--import", "tsx", "cli/debate.ts", "--resume", thread!], { env, encoding: "utf8" });
      expect(nothing.status).toBe(2);
      expect(nothing.stderr).toMatch(/nothing to resume: thread ".*" has no unfinished run/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("a vote resumed after its round's deadline passed", () => {
  it("still votes, with a fresh vote timeout, instead of counting as timed out", async () => {
    // The model takes a moment, as a real one does: a vote without time left would time out.
    const { deps, models } = testDeps({
      script: withOverrides((req) =>
        req.phase === "vote"
          ? { text: JSON.stringify({ voted_for: "Claude", short_motivation: "m", three_bullets: ["a", "b", "c"] }), latencyMs: 30 }
          : undefined,
      ),
    });
    const participants = defaultRoster().slice(0, 3);
    const vote = makeDebateBallot(nodeDepsOf(deps));
    // The deadline was set before the crash, an hour ago.
    const update = await vote(
      {
        voter: participants[0],
        participants,
        topic: "X",
        debate: { orders: {}, responses: {}, simultaneous: false, wordLimits: [300, 500, 500] },
        deadline: Date.now() - 3_600_000,
      },
      {},
    );
    expect(models.callsOf("vote")).toHaveLength(1);
    expect(update.debate_votes).toEqual([expect.objectContaining({ voter: "Grok", valid: true, voted_for: "Claude" })]);
  });
});

describe("the write-behind checkpointer", () => {
  it("saves on a later turn of the event loop, in order, and every read waits for the saves queued before it", async () => {
    const inner = new MemorySaver();
    const order: string[] = [];
    const put = inner.put.bind(inner);
    const putWrites = inner.putWrites.bind(inner);
    inner.put = async (...args) => (order.push(`put ${args[1].id}`), put(...args));
    inner.putWrites = async (...args) => (order.push(`writes ${args[2]}`), putWrites(...args));
    const saver = new WriteBehindSaver(inner);
    const config = { configurable: { thread_id: "t", checkpoint_ns: "" } };
    const checkpoint = (id: string) => ({ v: 4, id, ts: new Date().toISOString(), channel_values: { x: id }, channel_versions: { x: 1 }, versions_seen: {} });

    const first = saver.put(config, checkpoint("1"), { source: "loop", step: 0, parents: {} }, { x: 1 });
    const writes = saver.putWrites({ configurable: { ...config.configurable, checkpoint_id: "1" } }, [["x", "w"]], "task-a");
    const second = saver.put(config, checkpoint("2"), { source: "loop", step: 1, parents: {} }, { x: 2 });
    // Nothing has been saved yet: the caller (the next graph step) goes on first.
    expect(order).toEqual([]);
    const latest = await saver.getTuple(config);

    expect(order).toEqual(["put 1", "writes task-a", "put 2"]);
    expect(latest?.checkpoint.id).toBe("2");
    await Promise.all([first, writes, second]);

    // LangGraph queues a checkpoint only once the writes before it are saved; an aborted stream
    // can end before that. Waiting for the saver before closing the database still catches it.
    const chained = saver
      .putWrites({ configurable: { ...config.configurable, checkpoint_id: "2" } }, [["x", "v"]], "task-b")
      .then(() => saver.put(config, checkpoint("3"), { source: "loop", step: 2, parents: {} }, { x: 3 }));
    await saver.flushed();
    expect(order.slice(3)).toEqual(["writes task-b", "put 3"]);
    await chained;
  });
});
