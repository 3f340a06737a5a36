import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command, MemorySaver } from "@langchain/langgraph";
import { afterEach, describe, expect, it } from "vitest";
import { debater, roster } from "./support/debater.js";
import { startFakeOpenAI } from "./support/fake-servers.js";
import { startServerProcess } from "./support/server-process.js";
import { sqliteHistory } from "./support/history-db.js";
import { graphOf, testDeps } from "./support/harness.js";
import { withOverrides } from "./support/fake-model.js";
import { postChat, readSse, startApp, type SseEvent } from "./support/http.js";
import type { RunJob } from "../ports/run-queue.js";
import { questionOf } from "../service/person-waits.js";
import { takeUpInput } from "../service/run-producer.js";
import { replyTo } from "../state/person.js";

const THREE = ["call_grok", "call_claude", "call_gpt"];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A server with checkpoints and a history, and the person's side of a debate they joined. */
async function server(settings: Parameters<typeof testDeps>[0] = {}) {
  const db = await sqliteHistory();
  const { deps, models } = testDeps(settings);
  const app = await startApp(deps, { checkpointer: new MemorySaver(), history: db.history });
  cleanups.push(db.close, app.close);
  const input = (id: string, body: unknown) =>
    fetch(`${app.url}/api/v1/debates/${id}/input`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { ...app, db, models, input };
}

/**
 * Runs a joined debate to its end, answering each `debate-awaiting-input` with `reply` (nothing:
 * the seat waits until it is skipped); returns the events and the input answers.
 */
async function joined(s: Awaited<ReturnType<typeof server>>, body: Record<string, unknown>, reply: (e: SseEvent) => unknown) {
  const answers: { status: number; body: any }[] = [];
  let runId = "";
  const { events } = await readSse(await postChat(s.url, body), (e) => {
    if (e.event === "metadata") runId = e.data.run_id;
    if (e.event !== "debate-awaiting-input") return;
    const sent = reply(e);
    if (sent !== undefined) void s.input(runId, sent).then(async (r) => answers.push({ status: r.status, body: await r.json() }));
  });
  return { events, answers, runId };
}

const named = (events: SseEvent[], name: string) => events.filter((e) => e.event === name).map((e) => e.data);

describe("a debate the person joins (/debatt --with-me)", () => {
  it("seats them under their name, waits for their turns and their vote, and the models read them as one more participant", async () => {
    const s = await server();
    const { events, answers, runId } = await joined(
      s,
      { message: "/debatt --with-me Should cities ban cars?", participants: THREE, personName: "Anna" },
      (e) => (e.data.kind === "turn" ? { text: `Anna says cars must go, round ${e.data.round}.` } : { vote: "claude", motivation: "Clearest case." }),
    );
    expect(events.at(-1)!.event).toBe("done");
    expect(named(events, "error")).toEqual([]);
    const init = named(events, "debate-init")[0];
    expect(init.participants.map((p: any) => p.display)).toEqual(["Grok", "Claude", "ChatGPT", "Anna"]);
    expect(init.participants.at(-1)).toMatchObject({ key: "person", model: "person", person: true });

    // Asked three turns and one vote, each announced once, with a deadline and what it takes.
    const asked = named(events, "debate-awaiting-input");
    expect(asked.map((a) => `${a.kind}:${a.round}`)).toEqual(["turn:1", "turn:2", "turn:3", "vote:4"]);
    expect(asked[0]).toMatchObject({ participant: "Anna", word_limit: 300 });
    expect(asked[0].deadline).toBeGreaterThan(Date.now());
    expect(asked[3].candidates).toEqual(["Grok", "Claude", "ChatGPT"]);
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202]);
    expect(answers[0].body).toMatchObject({ run_id: runId, status: "accepted" });

    // Their turns are turns like the models', in the round's order; their vote counts.
    const theirs = named(events, "debate-participant-end").filter((e) => e.model_key === "person");
    expect(theirs.map((e) => [e.round, e.status, e.word_count])).toEqual([
      [1, "ok", 7],
      [2, "ok", 7],
      [3, "ok", 7],
    ]);
    expect(
      named(events, "debate-participant-delta")
        .filter((e) => e.model_key === "person")
        .map((e) => e.delta),
    ).toContain("Anna says cars must go, round 2.");
    expect(named(events, "debate-vote-result").find((v) => v.voter === "Anna")).toMatchObject({
      voted_for: "Claude",
      motivation: "Clearest case.",
      bullets: [],
    });
    expect(named(events, "debate-results")[0].vote_counts.Claude).toBeGreaterThanOrEqual(1);

    // No model was asked for the person's seat; the models saw the person's words under their name.
    expect(s.models.calls.filter((c) => c.participant === "person")).toEqual([]);
    const later = s.models.calls.filter((c) => c.phase === "turn" && c.round === 3);
    const read = later.map((c) => c.messages.map((m) => String(m.content)).join("\n"));
    expect(read.every((text) => text.includes("Anna says cars must go, round 2."))).toBe(true);
    expect(read.every((text) => text.includes("Anna"))).toBe(true);

    // The history keeps their turns and vote with the run.
    const stages = await s.db.history.stagesOf(runId);
    const kept = JSON.stringify(stages);
    expect(kept).toContain("Anna says cars must go, round 3.");
    expect(kept).toContain("Clearest case.");

    // The leaderboard rates models only: the models' votes count, the person's does not, and the person is no candidate.
    const board = await (await fetch(`${s.url}/api/v1/leaderboard`)).json();
    expect(board.ballots).toBe(3);
    expect(board.models.map((m: any) => m.model).sort()).toEqual(["anthropic/claude-sonnet-4.5", "openai/gpt-5", "x-ai/grok-4"]);
    // Nor can the person be continued with as if a model.
    const onward = await postChat(s.url, { message: "And then?", continueWith: { runId, participant: "person" } });
    expect(onward.status).toBe(400);
  });

  it("skips the seat when the time runs out and says so, and the debate goes on without them", async () => {
    const s = await server({ settings: { personInputTimeoutMs: 1_000 } });
    const { events } = await joined(s, { message: "/debatt --with-me Is remote work better?", participants: THREE }, () => undefined);
    expect(events.at(-1)!.event).toBe("done");
    expect(named(events, "debate-init")[0].participants.at(-1).display).toBe("Person");
    expect(named(events, "debate-input-skipped").map((e) => `${e.kind}:${e.round}:${e.reason}`)).toEqual([
      "turn:1:timeout",
      "turn:2:timeout",
      "turn:3:timeout",
      "vote:4:timeout",
    ]);
    expect(named(events, "debate-participant-start").filter((e) => e.model_key === "person")).toEqual([]);
    expect(named(events, "debate-synthesis-complete")).toHaveLength(1);
  });

  it("takes a pass, and in a simultaneous round asks them while the models answer", async () => {
    // The models take their time: the person is asked before any of them has finished the round.
    const s = await server({
      script: withOverrides((req) => (req.phase === "turn" ? { text: `${req.participant!.display} argues, round ${req.round}.`, latencyMs: 150 } : undefined)),
    });
    let turns = 0;
    const { events, answers } = await joined(
      s,
      { message: "/debatt --order simultaneous --with-me Tabs or spaces?", participants: THREE, personName: "Bo" },
      (e) => (e.data.kind === "turn" ? (++turns === 2 ? { skip: true } : { text: `Bo prefers tabs (${e.data.round}).` }) : { vote: "Grok" }),
    );
    expect(events.at(-1)!.event).toBe("done");
    expect(answers.every((a) => a.status === 202)).toBe(true);
    expect(named(events, "debate-input-skipped")).toMatchObject([{ kind: "turn", round: 2, reason: "passed", participant: "Bo" }]);
    // Each round was announced before the person was asked, and all four seats answered round 1.
    const names = events.map((e) => e.event);
    expect(names.indexOf("debate-round-start")).toBeLessThan(names.indexOf("debate-awaiting-input"));
    expect(names.indexOf("debate-awaiting-input")).toBeLessThan(names.indexOf("debate-participant-end"));
    expect(named(events, "debate-round-end")[0].participant_count).toBe(4);
    expect(named(events, "debate-round-end")[1].participant_count).toBe(3);
    expect(named(events, "debate-vote-result").find((v) => v.voter === "Bo")).toMatchObject({ voted_for: "Grok" });
  });

  it("survives a reconnect while it waits: the replay says what it waits for, and the input is taken", async () => {
    const s = await server();
    const client = new AbortController();
    const first: SseEvent[] = [];
    await readSse(
      await postChat(s.url, { message: "/debatt --with-me Four-day weeks?", participants: THREE, personName: "Eli" }, { signal: client.signal }),
      (e) => {
        first.push(e);
        if (e.event === "debate-awaiting-input") client.abort();
      },
    ).catch(() => {});
    const runId = String(first[0].data.run_id);
    // The page reloads: it reads the run again from the start and answers what it waits for.
    const { events } = await readSse(await fetch(`${s.url}/api/v1/debates/${runId}/events`), (e) => {
      if (e.event === "debate-awaiting-input") void s.input(runId, e.data.kind === "turn" ? { text: "Yes." } : { skip: true });
    });
    expect(events.at(-1)!.event).toBe("done");
    expect(named(events, "debate-awaiting-input")[0]).toEqual(named(first, "debate-awaiting-input")[0]);
    expect(named(events, "debate-participant-end").filter((e) => e.model_key === "person")).toHaveLength(3);
  });

  it("can be stopped while it waits, and the person's answer later goes on from where it stopped", async () => {
    const s = await server();
    let runId = "";
    const asked = (id: string) => fetch(`${s.url}/api/v1/debates/${id}/input`).then((r) => r.json());
    let live: any;
    const { events } = await readSse(
      await postChat(s.url, { message: "/debatt --with-me Free public transport?", participants: THREE, personName: "Fa" }),
      (e) => {
        if (e.event === "metadata") runId = e.data.run_id;
        // A page that reopens the conversation asks what the debate waits for, then it is stopped.
        if (e.event === "debate-awaiting-input")
          void asked(runId).then((found) => ((live = found), fetch(`${s.url}/api/v1/debates/${runId}/cancel`, { method: "POST" })));
      },
    );
    expect(live).toMatchObject({ run_id: runId, live: true, waiting: { kind: "turn", round: 1, participant: "Fa" } });
    expect(live.waiting.deadline).toBeGreaterThan(Date.now());
    // Stopped, it still waits, in its checkpoint: without a deadline (the answer resumes it).
    const stopped = await asked(runId);
    expect(stopped).toMatchObject({ run_id: runId, live: false, waiting: { kind: "turn", round: 1, participant: "Fa", word_limit: 300 } });
    expect(stopped.waiting.deadline).toBeUndefined();
    expect((await fetch(`${s.url}/api/v1/debates/${runId}/input`, { method: "PUT" })).status).toBe(405);
    expect(events.at(-1)!.event).toBe("done");
    expect(named(events, "error").map((e) => e.code)).toEqual(["cancelled"]);
    expect((await s.db.history.message(runId))?.status).toBe("cancelled");

    const res = await s.input(runId, { text: "Yes, paid by congestion charges." });
    expect(res.status).toBe(202);
    const resumed = (await res.json()) as { run_id: string; status: string };
    expect(resumed.status).toBe("resumed");
    const { events: after } = await readSse(await fetch(`${s.url}/api/v1/debates/${resumed.run_id}/events`), (e) => {
      if (e.event === "debate-awaiting-input") void s.input(resumed.run_id, { skip: true });
    });
    expect(after.at(-1)!.event).toBe("done");
    expect(named(after, "debate-participant-end").find((e) => e.model_key === "person")).toMatchObject({ round: 1, status: "ok" });
    expect((await s.db.history.message(runId))?.status).toBe("complete");
    expect(await asked(runId)).toEqual({ waiting: null });
  });

  it("ends once when stopped while the person is asked to vote and the models are still voting", async () => {
    const s = await server({ script: withOverrides((req) => (req.phase === "vote" ? { latencyMs: 400, text: "" } : undefined)) });
    let runId = "";
    const { events } = await readSse(await postChat(s.url, { message: "/debatt --with-me Ban leaf blowers?", participants: THREE, personName: "Gus" }), (e) => {
      if (e.event === "metadata") runId = e.data.run_id;
      if (e.event === "debate-awaiting-input" && e.data.kind === "turn") void s.input(runId, { skip: true });
      if (e.event === "debate-awaiting-input" && e.data.kind === "vote") void fetch(`${s.url}/api/v1/debates/${runId}/cancel`, { method: "POST" });
    });
    // The models' votes were still in flight when the person was asked.
    expect(events.findIndex((e) => e.event === "debate-awaiting-input" && e.data.kind === "vote")).toBeGreaterThan(-1);
    expect(events.filter((e) => e.event === "done")).toHaveLength(1);
    expect(named(events, "error").map((e) => e.code)).toEqual(["cancelled"]);
    expect(events.filter((e) => e.event === "usage")).toHaveLength(1);
    // The stream's replay is the same: one end.
    const replay = (await readSse(await fetch(`${s.url}/api/v1/debates/${runId}/events`))).events;
    expect(replay.filter((e) => e.event === "done")).toHaveLength(1);
    expect((await s.db.history.message(runId))?.status).toBe("cancelled");
  });

  it("takes the answer by the thread's id too, and only once", async () => {
    const s = await server();
    const statuses: number[] = [];
    let chain = Promise.resolve();
    const { events } = await readSse(
      await postChat(s.url, { message: "/debatt --with-me Night trains?", participants: THREE, threadId: "night-trains" }),
      (e) => {
        if (e.event !== "debate-awaiting-input") return;
        const input = e.data.kind === "turn" ? { text: "Yes, more of them." } : { vote: "Grok" };
        // The vote (the last question) is sent twice at once, as a double click would: one is taken.
        const times = e.data.kind === "vote" ? 2 : 1;
        chain = chain.then(async () => {
          statuses.push(...(await Promise.all(Array.from({ length: times }, () => s.input("night-trains", input)))).map((r) => r.status).sort());
        });
      },
    );
    await chain;
    expect(events.at(-1)!.event).toBe("done");
    expect(statuses).toEqual([202, 202, 202, 202, 409]);
    expect(named(events, "debate-vote-result").filter((v) => v.voter === "Person")).toHaveLength(1);
  });

  it("is stopped at once by a shutdown while it waits (it is saved), not held for the grace period", async () => {
    const s = await server();
    let shutdown: Promise<number> | undefined;
    // A grace period far beyond the test's own timeout: a shutdown that waited it out would time the test out.
    const { events } = await readSse(await postChat(s.url, { message: "/debatt --with-me Car-free Sundays?", participants: THREE }), (e) => {
      if (e.event === "debate-awaiting-input") shutdown = s.service.shutdown(3_600_000);
    });
    expect(await shutdown).toBe(1);
    expect(events.at(-1)!.event).toBe("done");
    expect(named(events, "error").map((e) => e.code)).toEqual(["shutting_down"]);
    expect(named(events, "error")[0].message).toContain("your answer (POST /api/v1/debates/<id>/input) resumes it");
  });

  it("refuses input that does not fit, naming the problem, and input when nothing waits", async () => {
    const s = await server();
    const refused: Record<string, { status: number; code: string; message: string }> = {};
    let runId = "";
    const check = async (name: string, body: unknown) => {
      const r = await s.input(runId, body);
      const json = await r.json();
      refused[name] = { status: r.status, code: json.error?.code ?? json.status, message: json.error?.message ?? "" };
    };
    const { events } = await readSse(
      await postChat(s.url, { message: "/debatt --with-me Pineapple on pizza?", participants: THREE, personName: "Cy" }),
      async (e) => {
        if (e.event === "metadata") runId = e.data.run_id;
        if (e.event !== "debate-awaiting-input") return;
        if (e.data.kind === "turn" && e.data.round === 1) {
          await check("vote in a turn", { vote: "Grok" });
          await check("too many words", { text: "word ".repeat(301) });
          await check("empty", { text: "   " });
          await check("unknown field", { text: "x", extra: 1 });
          await check("a round that is over", { text: "Late.", round: 2 });
          await check("a lone surrogate", { text: "\ud800" });
          await s.input(runId, { text: "Yes, always." });
        } else if (e.data.kind === "turn") await s.input(runId, { skip: true });
        else {
          await check("vote for oneself", { vote: "Cy" });
          await check("vote for nobody known", { vote: "Gemini" });
          await s.input(runId, { vote: "ChatGPT" });
        }
      },
    );
    expect(events.at(-1)!.event).toBe("done");
    expect(refused["vote in a turn"]).toMatchObject({ status: 400, code: "invalid_input" });
    expect(refused["too many words"]).toMatchObject({ status: 400, code: "invalid_input", message: "round 1 takes at most 300 words; yours has 301" });
    expect(refused["empty"]).toMatchObject({ status: 400, code: "invalid_input" });
    expect(refused["unknown field"]).toMatchObject({ status: 400, code: "invalid_body" });
    expect(refused["a round that is over"]).toMatchObject({
      status: 409,
      code: "not_awaiting_input",
      message: "the answer is for round 2, but the debate waits for your turn in round 1",
    });
    expect(refused["a lone surrogate"]).toMatchObject({ status: 400, code: "invalid_input" });
    expect(refused["vote for oneself"]).toMatchObject({ status: 400, code: "invalid_input" });
    expect(refused["vote for oneself"].message).toContain("Grok, Claude, ChatGPT");
    expect(refused["vote for nobody known"]).toMatchObject({ status: 400, code: "invalid_input" });
    // The debate is over: nothing waits.
    const after = await s.input(runId, { text: "Late." });
    expect(after.status).toBe(409);
    expect((await after.json()).error.code).toBe("not_awaiting_input");
  });

  it("refuses a name a participant has, a name without --with-me, and /dvoice --with-me, before any run", async () => {
    const s = await server();
    const taken = await postChat(s.url, { message: "/debatt --with-me Topic", participants: THREE, personName: "claude" });
    expect(taken.status).toBe(400);
    expect((await taken.json()).error).toMatchObject({ code: "invalid_person_name" });
    const nameOnly = await postChat(s.url, { message: "/debatt Topic", personName: "Anna" });
    expect(nameOnly.status).toBe(400);
    for (const personName of ["A\nB", "Tab\tbed", "\ud800", "   "]) {
      const bad = await postChat(s.url, { message: "/debatt --with-me Topic", participants: THREE, personName });
      expect(bad.status, JSON.stringify(personName)).toBe(400);
      expect((await bad.json()).error.code).toBe("invalid_body");
    }
    // A client that cannot write the person's turns (the OpenAI-compatible endpoint) cannot seat them.
    const openai = await fetch(`${s.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "debatt", messages: [{ role: "user", content: "--with-me Should cities ban cars?" }] }),
    });
    expect(openai.status).toBe(400);
    expect((await openai.json()).error).toMatchObject({ code: "unknown_option" });
    const spoken = (await readSse(await postChat(s.url, { message: "/dvoice --with-me Topic" }))).events;
    expect(named(spoken, "error")[0]).toMatchObject({ code: "unknown_option" });
    expect(s.models.calls).toEqual([]);
  });

  it("needs a server that keeps checkpoints", async () => {
    const { deps } = testDeps();
    const app = await startApp(deps);
    cleanups.push(app.close);
    const res = await postChat(app.url, { message: "/debatt --with-me Topic", participants: THREE });
    expect(res.status).toBe(501);
    expect((await res.json()).error.code).toBe("no_checkpointer");
  });
});

describe("a joined debate from the run configuration, as LangGraph Studio runs it", () => {
  it("seats the person with with_me and person_name, and resumes with what a LangGraph client sends: a text, a name, a skip", async () => {
    const { deps, models } = testDeps();
    const graph = graphOf(deps, { checkpointer: new MemorySaver() });
    const configurable = { thread_id: "studio-1", with_me: true, person_name: "Eve" };
    const run = async (input: unknown) => {
      const events: { event: string; data: any }[] = [];
      for await (const chunk of await graph.stream(input as never, { configurable, streamMode: "custom" })) events.push(chunk as never);
      return events;
    };
    const first = await run({ message: "/debatt Is nuclear power green?", participants: THREE });
    expect(first.find((e) => e.event === "debate_init")!.data.participants.at(-1)).toMatchObject({ display: "Eve", person: true });
    expect(first.at(-1)).toMatchObject({ event: "debate_awaiting_input", data: { kind: "turn", round: 1, participant: "Eve" } });
    // Studio resumes with a plain string: the turn's text.
    const second = await run(new Command({ resume: "Yes, low carbon." }));
    expect(second.find((e) => e.event === "debate_participant_end" && e.data.model_key === "person")).toMatchObject({ data: { status: "ok", word_count: 3 } });
    const third = await run(new Command({ resume: { skip: true } }));
    expect(third.find((e) => e.event === "debate_input_skipped")).toMatchObject({ data: { reason: "passed", round: 2 } });
    await run(new Command({ resume: "Still yes." }));
    const last = await run(new Command({ resume: "chatgpt" }));
    expect(last.find((e) => e.event === "debate_vote_result" && e.data.voter === "Eve")).toMatchObject({ data: { voted_for: "ChatGPT" } });
    expect(last.some((e) => e.event === "debate_synthesis_complete")).toBe(true);
    expect(models.calls.filter((c) => c.participant === "person")).toEqual([]);
  });
});

describe("a joined debate taken up again by another worker", () => {
  it("is given the person's reply again while the debate still waits for what it answers, and not once it has moved on", async () => {
    const { deps } = testDeps();
    const graph = graphOf(deps, { checkpointer: new MemorySaver() });
    const configurable = { thread_id: "taken-up", with_me: true, person_name: "Eve" };
    const stream = async (input: unknown, cut = false) => {
      const events: { event: string; data: any }[] = [];
      const stop = new AbortController();
      const chunks = await graph.stream(input as never, { configurable, streamMode: "custom", signal: stop.signal });
      // A worker that dies as it begins: nothing of the step it began is sent.
      if (cut) stop.abort();
      for await (const chunk of chunks) events.push(chunk as never);
      return events;
    };
    await stream({ message: "/debatt Is nuclear power green?", participants: THREE });
    const state = () => graph.getState({ configurable });
    const asked = questionOf(await state())!;
    expect(asked).toMatchObject({ kind: "turn", round: 1 });
    const reply = replyTo(asked, { text: "Yes, low carbon." }, 0);
    const job: RunJob = {
      runId: "r2",
      threadId: "taken-up",
      input: { message: "/debatt Is nuclear power green?", resume: true, reply, answers: { kind: "turn", round: 1 } },
      filing: { messageId: "r1", message: "/debatt Is nuclear power green?", owner: "local" },
      seated: true,
    };
    // The reply is given again: the debate still waits for the first turn.
    expect(takeUpInput(job, await state())).toEqual({ message: job.input.message, reply });
    await expect(stream(new Command({ resume: reply }), true)).rejects.toThrow();
    expect(takeUpInput(job, await state())).toEqual({ message: job.input.message, reply });
    const taken = await stream(new Command({ resume: reply }));
    expect(taken.find((e) => e.event === "debate_participant_end" && e.data.model_key === "person")).toMatchObject({ data: { round: 1, word_count: 3 } });
    // Now it waits for the second turn: the first turn's reply is not given for it.
    expect(questionOf(await state())).toMatchObject({ kind: "turn", round: 2 });
    expect(takeUpInput(job, await state())).toEqual({ message: job.input.message, resume: true });
  });
});

describe("a joined debate across a server restart", () => {
  it("survives a kill -9 while it waits: the input resumes it from its checkpoint, and it goes on to the end", async () => {
    const openai = await startFakeOpenAI((body) => debater(body));
    cleanups.push(openai.close);
    const dataDir = mkdtempSync(join(tmpdir(), "debatt-with-me-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: openai.baseURL, DEBATE_PARTICIPANTS: roster, DEBATT_DATA_DIR: dataDir };
    const post = (url: string, id: string, body: unknown) =>
      fetch(`${url}/api/v1/debates/${id}/input`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

    const first = await startServerProcess(env);
    cleanups.push(() => void first.child.kill("SIGKILL"));
    const client = new AbortController();
    const before: SseEvent[] = [];
    await readSse(
      await postChat(
        first.url,
        { message: "/debatt --with-me Bör städer förbjuda bilar?", threadId: "joined-1", personName: "Dana" },
        { signal: client.signal },
      ),
      (e) => {
        before.push(e);
        if (e.event === "debate-awaiting-input") client.abort();
      },
    ).catch(() => {});
    const waited = before.find((e) => e.event === "debate-awaiting-input")!;
    expect(waited.data).toMatchObject({ kind: "turn", round: 1, participant: "Dana" });
    const runId = String(before[0].data.run_id);
    first.child.kill("SIGKILL");
    await first.exited;
    const askedBefore = openai.seen.length;

    const second = await startServerProcess(env);
    cleanups.push(() => void second.child.kill("SIGKILL"));
    // The debate is addressed by the run id the person saw; it goes on as a new run of its thread.
    const res = await post(second.url, runId, { text: "Ja, i stadskärnan, men med undantag för färdtjänst." });
    expect(res.status).toBe(202);
    const resumed = (await res.json()) as { run_id: string; thread_id: string; status: string };
    expect(resumed).toMatchObject({ thread_id: "joined-1", status: "resumed" });
    expect(resumed.run_id).not.toBe(runId);

    const answers: number[] = [];
    const { events: after } = await readSse(await fetch(`${second.url}/api/v1/debates/${resumed.run_id}/events`), (e) => {
      // The vote is sent to the run id the person first saw: it still names the debate.
      if (e.event === "debate-awaiting-input")
        void post(
          second.url,
          e.data.kind === "turn" ? resumed.run_id : runId,
          e.data.kind === "turn" ? { text: `Dana, runda ${e.data.round}.` } : { vote: "Claude" },
        ).then((r) => answers.push(r.status));
    });
    expect(after.at(-1)!.event).toBe("done");
    expect(named(after, "error")).toEqual([]);
    // The turn it waited for is not asked again, and was not repeated by anyone: its answer came first.
    expect(named(after, "debate-awaiting-input").map((a) => `${a.kind}:${a.round}`)).toEqual(["turn:2", "turn:3", "vote:4"]);
    expect(answers).toEqual([202, 202, 202]);
    const dana = named(after, "debate-participant-end").filter((e) => e.model_key === "person");
    expect(dana.map((e) => e.round)).toEqual([1, 2, 3]);
    expect(named(after, "debate-round-start").some((e) => e.round === 1)).toBe(false);
    const doneBefore = named(before, "debate-participant-end").map((e) => `${e.round}:${e.model_key}`);
    const doneAfter = named(after, "debate-participant-end").map((e) => `${e.round}:${e.model_key}`);
    expect(doneAfter.filter((t) => doneBefore.includes(t))).toEqual([]);
    expect(openai.seen.length).toBeGreaterThan(askedBefore);
    expect(named(after, "debate-vote-result").find((v) => v.voter === "Dana")).toMatchObject({ voted_for: "Claude" });

    // The history has the person's words with the rest of the debate, under the first run's id.
    const stored = await (await fetch(`${second.url}/api/v1/debates/${runId}`)).json();
    expect(stored).toMatchObject({ conversationId: "joined-1", status: "complete" });
    const theirs = stored.result.rounds.flatMap((r: any) => r.answers).filter((a: any) => a.modelKey === "person");
    expect(theirs.map((a: any) => a.text ?? a.response ?? a.content)).toEqual([
      "Ja, i stadskärnan, men med undantag för färdtjänst.",
      "Dana, runda 2.",
      "Dana, runda 3.",
    ]);
    expect(stored.result.votes.find((v: any) => v.voter === "Dana")).toMatchObject({ votedFor: "Claude" });

    // Nothing waits any more.
    const late = await post(second.url, runId, { text: "Sent." });
    expect(late.status).toBe(409);
  });
});
