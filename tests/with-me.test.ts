import { MemorySaver } from "@langchain/langgraph";
import { afterEach, describe, expect, it } from "vitest";
import { sqliteHistory } from "./support/history-db.js";
import { testDeps } from "./support/harness.js";
import { postChat, readSse, startApp, type SseEvent } from "./support/http.js";

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
  const input = (id: string, body: unknown) => fetch(`${app.url}/api/v1/debates/${id}/input`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
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
    const { events, answers, runId } = await joined(s, { message: "/debatt --with-me Should cities ban cars?", participants: THREE, personName: "Anna" }, (e) =>
      e.data.kind === "turn" ? { text: `Anna says cars must go, round ${e.data.round}.` } : { vote: "claude", motivation: "Clearest case." },
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
    expect(theirs.map((e) => [e.round, e.status, e.word_count])).toEqual([[1, "ok", 7], [2, "ok", 7], [3, "ok", 7]]);
    expect(named(events, "debate-participant-delta").filter((e) => e.model_key === "person").map((e) => e.delta)).toContain("Anna says cars must go, round 2.");
    expect(named(events, "debate-vote-result").find((v) => v.voter === "Anna")).toMatchObject({ voted_for: "Claude", motivation: "Clearest case.", bullets: [] });
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
  });

  it("skips the seat when the time runs out and says so, and the debate goes on without them", async () => {
    const s = await server({ settings: { personInputTimeoutMs: 1_000 } });
    const { events } = await joined(s, { message: "/debatt --with-me Is remote work better?", participants: THREE }, () => undefined);
    expect(events.at(-1)!.event).toBe("done");
    expect(named(events, "debate-init")[0].participants.at(-1).display).toBe("Person");
    expect(named(events, "debate-input-skipped").map((e) => `${e.kind}:${e.round}:${e.reason}`)).toEqual(["turn:1:timeout", "turn:2:timeout", "turn:3:timeout", "vote:4:timeout"]);
    expect(named(events, "debate-participant-start").filter((e) => e.model_key === "person")).toEqual([]);
    expect(named(events, "debate-synthesis-complete")).toHaveLength(1);
  });

  it("takes a pass, and in a simultaneous round asks them while the models answer", async () => {
    const s = await server();
    let turns = 0;
    const { events, answers } = await joined(s, { message: "/debatt --order simultaneous --with-me Tabs or spaces?", participants: THREE, personName: "Bo" }, (e) =>
      e.data.kind === "turn" ? (++turns === 2 ? { skip: true } : { text: `Bo prefers tabs (${e.data.round}).` }) : { vote: "Grok" },
    );
    expect(events.at(-1)!.event).toBe("done");
    expect(answers.every((a) => a.status === 202)).toBe(true);
    expect(named(events, "debate-input-skipped")).toMatchObject([{ kind: "turn", round: 2, reason: "passed", participant: "Bo" }]);
    // Each round was announced before the person was asked, and all four seats answered round 1.
    const names = events.map((e) => e.event);
    expect(names.indexOf("debate-round-start")).toBeLessThan(names.indexOf("debate-awaiting-input"));
    expect(named(events, "debate-round-end")[0].participant_count).toBe(4);
    expect(named(events, "debate-round-end")[1].participant_count).toBe(3);
    expect(named(events, "debate-vote-result").find((v) => v.voter === "Bo")).toMatchObject({ voted_for: "Grok" });
  });

  it("refuses input that does not fit, naming the problem, and input when nothing waits", async () => {
    const s = await server();
    const refused: Record<string, { status: number; code: string; message: string }> = {};
    let runId = "";
    const check = async (name: string, body: unknown) => {
      const r = await s.input(runId, body);
      const json = (await r.json()) as any;
      refused[name] = { status: r.status, code: json.error?.code ?? json.status, message: json.error?.message ?? "" };
    };
    const { events } = await readSse(await postChat(s.url, { message: "/debatt --with-me Pineapple on pizza?", participants: THREE, personName: "Cy" }), async (e) => {
      if (e.event === "metadata") runId = e.data.run_id;
      if (e.event !== "debate-awaiting-input") return;
      if (e.data.kind === "turn" && e.data.round === 1) {
        await check("vote in a turn", { vote: "Grok" });
        await check("too many words", { text: "word ".repeat(301) });
        await check("empty", { text: "   " });
        await check("unknown field", { text: "x", extra: 1 });
        await s.input(runId, { text: "Yes, always." });
      } else if (e.data.kind === "turn") await s.input(runId, { skip: true });
      else {
        await check("vote for oneself", { vote: "Cy" });
        await check("vote for nobody known", { vote: "Gemini" });
        await s.input(runId, { vote: "ChatGPT" });
      }
    });
    expect(events.at(-1)!.event).toBe("done");
    expect(refused["vote in a turn"]).toMatchObject({ status: 400, code: "invalid_input" });
    expect(refused["too many words"]).toMatchObject({ status: 400, code: "invalid_input", message: "round 1 takes at most 300 words; yours has 301" });
    expect(refused["empty"]).toMatchObject({ status: 400, code: "invalid_input" });
    expect(refused["unknown field"]).toMatchObject({ status: 400, code: "invalid_body" });
    expect(refused["vote for oneself"]).toMatchObject({ status: 400, code: "invalid_input" });
    expect(refused["vote for oneself"].message).toContain("Grok, Claude, ChatGPT");
    expect(refused["vote for nobody known"]).toMatchObject({ status: 400, code: "invalid_input" });
    // The debate is over: nothing waits.
    const after = await s.input(runId, { text: "Late." });
    expect(after.status).toBe(409);
    expect(((await after.json()) as any).error.code).toBe("not_awaiting_input");
  });

  it("refuses a name a participant has, a name without --with-me, and /dvoice --with-me, before any run", async () => {
    const s = await server();
    const taken = await postChat(s.url, { message: "/debatt --with-me Topic", participants: THREE, personName: "claude" });
    expect(taken.status).toBe(400);
    expect(((await taken.json()) as any).error).toMatchObject({ code: "invalid_person_name" });
    const nameOnly = await postChat(s.url, { message: "/debatt Topic", personName: "Anna" });
    expect(nameOnly.status).toBe(400);
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
    expect(((await res.json()) as any).error.code).toBe("no_checkpointer");
  });
});
