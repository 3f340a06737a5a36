import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { AudioArchive } from "../providers/audio-archive.js";
import { FakeSpeech } from "./support/fake-speech.js";
import { testDeps } from "./support/harness.js";
import { HISTORY_DATABASES, historyDatabaseHooks } from "./support/history-db.js";
import { postChat, postDeliberate, readSse, startApp } from "./support/http.js";

const ADMIN = "admin-token-0123456789";
const TWO = ["call_grok", "call_claude"];

/**
 * Every conversation, run, event log, audio file and result belongs to the user who started it:
 * another user gets the same answer as for an id that does not exist, and lists show only one's
 * own.
 */
describe.each(HISTORY_DATABASES)("ownership on $db", (database) => {
  const { skip } = database;
  const hooks = historyDatabaseHooks(database);

  async function app() {
    const db = await hooks.open();
    const audioDir = mkdtempSync(join(tmpdir(), "debatt-audio-"));
    hooks.later(async () => rmSync(audioDir, { recursive: true, force: true }));
    const { deps } = testDeps({ settings: { auth: "tokens", adminToken: ADMIN } });
    const speech = new FakeSpeech(() => ({}));
    deps.speech = () => speech;
    deps.audio = new AudioArchive(audioDir, () => {});
    const started = await startApp(deps, { checkpointer: new MemorySaver(), history: db.history });
    hooks.later(started.close);
    const user = async (name: string) => {
      const res = await fetch(`${started.url}/api/v1/admin/users`, {
        method: "POST",
        headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
        body: JSON.stringify({ name }),
      });
      const { token, id } = (await res.json()) as { token: string; id: string };
      return { ...as(token), id };
    };
    const as = (token: string) => {
      const headers = { authorization: `Bearer ${token}` };
      return {
        get: (path: string) => fetch(`${started.url}${path}`, { headers }),
        del: (path: string) => fetch(`${started.url}${path}`, { method: "DELETE", headers }),
        post: (path: string, body?: unknown) =>
          fetch(`${started.url}${path}`, {
            method: "POST",
            headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          }),
        chat: (body: unknown) => postChat(started.url, body, { headers: { ...headers, "content-type": "application/json" } }),
        deliberate: (body: unknown) => postDeliberate(started.url, body, { headers: { ...headers, "content-type": "application/json" } }),
      };
    };
    return { ...started, user, admin: as(ADMIN), history: db.history };
  }

  /** Status and error code of a refused request. */
  const refusal = async (res: Response) => [res.status, ((await res.json()) as { error: { code: string } }).error.code];

  it.skipIf(skip)("shows each user only their own latest evaluation report", async () => {
    const { user, history } = await app();
    const ada = await user("Ada");
    const bob = await user("Bob");
    const latest = async (who: typeof ada) =>
      ((await (await who.get("/api/v1/evaluations/latest")).json()) as { evaluation: { report: { seed: number } } | null }).evaluation;
    expect(await latest(ada)).toBeNull();
    await history.addEvaluation(ada.id, { seed: 1 }, new Date(1000));
    await history.addEvaluation(ada.id, { seed: 2 }, new Date(2000));
    await history.addEvaluation("local", { seed: 3 }, new Date(3000));
    expect((await latest(ada))?.report).toEqual({ seed: 2 });
    expect(await latest(bob)).toBeNull();
  });

  it.skipIf(skip)("rates each user's models from their own votes only", async () => {
    const { user, url } = await app();
    const ada = await user("Ada");
    const bob = await user("Bob");
    const board = async (who: typeof ada) => (await (await who.get("/api/v1/leaderboard")).json()) as { runs: number; ballots: number };
    expect(await board(ada)).toMatchObject({ runs: 0, ballots: 0 });
    expect(
      (await readSse(await ada.chat({ message: "/debatt Bör AI regleras?", participants: ["call_grok", "call_claude", "call_gpt"] }))).events.at(-1)!.event,
    ).toBe("done");
    expect(await board(ada)).toMatchObject({ runs: 1, ballots: 3 });
    expect(await board(bob)).toMatchObject({ runs: 0, ballots: 0 });
    expect((await fetch(`${url}/api/v1/leaderboard`)).status).toBe(401);
  });

  it.skipIf(skip)("answers another user's conversation, run, events, result and audio exactly like ones that do not exist", async () => {
    const { user, admin } = await app();
    const ada = await user("Ada");
    const bob = await user("Bob");
    const events = (await readSse(await ada.chat({ message: "/dvoice Bör AI regleras?", participants: TWO }))).events;
    const run = String(events[0].data.run_id);
    const thread = String(events[0].data.thread_id);
    expect(events.at(-1)!.event).toBe("done");

    // Ada sees all of it.
    expect((await (await ada.get("/api/v1/conversations")).json()).conversations.map((c: any) => c.id)).toEqual([thread]);
    expect((await ada.get(`/api/v1/conversations/${thread}`)).status).toBe(200);
    expect((await ada.get(`/api/v1/debates/${run}`)).status).toBe(200);
    expect((await ada.get(`/api/v1/debates/${run}/audio.wav`)).status).toBe(200);
    const replay = await ada.get(`/api/v1/debates/${run}/events`);
    expect(replay.status).toBe(200);
    await replay.body?.cancel();

    // Bob, and the admin, see nothing of it: the answers of ids that do not exist.
    for (const other of [bob, admin]) {
      expect((await (await other.get("/api/v1/conversations")).json()).conversations).toEqual([]);
      for (const [path, missing] of [
        [`/api/v1/conversations/${thread}`, "/api/v1/conversations/no-such-thread"],
        [`/api/v1/debates/${run}`, "/api/v1/debates/00000000-0000-0000-0000-000000000000"],
        [`/api/v1/debates/${run}/events`, "/api/v1/debates/00000000-0000-0000-0000-000000000000/events"],
        [`/api/v1/debates/${run}/audio.wav`, "/api/v1/debates/00000000-0000-0000-0000-000000000000/audio.wav"],
      ]) {
        expect(await refusal(await other.get(path)), path).toEqual(await refusal(await other.get(missing)));
      }
      expect(await refusal(await other.del(`/api/v1/conversations/${thread}`))).toEqual([404, "conversation_not_found"]);
      expect(await refusal(await other.post(`/api/v1/debates/${thread}/resume`))).toEqual(
        await refusal(await other.post("/api/v1/debates/no-such-thread/resume")),
      );
      expect(await refusal(await other.chat({ message: "En följdfråga?", conversationId: thread }))).toEqual([404, "conversation_not_found"]);
      expect(await refusal(await other.chat({ message: "Skriver jag i din tråd?", threadId: thread }))).toEqual([404, "conversation_not_found"]);
      expect(await refusal(await other.deliberate({ question: "Q?", mode: "vote", conversationId: thread }))).toEqual([404, "conversation_not_found"]);
    }

    // Still all there for Ada, and nothing was written into her thread.
    const after = await (await ada.get(`/api/v1/conversations/${thread}`)).json();
    expect(after.messages).toHaveLength(2);
    expect((await ada.del(`/api/v1/conversations/${thread}`)).status).toBe(204);
  });

  it.skipIf(skip)("takes a joined debate's turns and vote only from the user who joined it", async () => {
    const { user } = await app();
    const ada = await user("Ada");
    const bob = await user("Bob");
    let run = "";
    let thread = "";
    let answered = Promise.resolve();
    const seen: unknown[][] = [];
    const { events } = await readSse(await ada.chat({ message: "/debatt --with-me Bör AI regleras?", participants: TWO, personName: "Ada" }), (e) => {
      if (e.event === "metadata") [run, thread] = [e.data.run_id, e.data.thread_id];
      if (e.event !== "debate-awaiting-input") return;
      const input = e.data.kind === "turn" ? { text: "Ja." } : { skip: true };
      answered = answered.then(async () => {
        // Bob is answered as for a debate that waits for nobody, by its run id and by its thread id.
        seen.push(
          await refusal(await bob.post(`/api/v1/debates/${run}/input`, input)),
          await refusal(await bob.post(`/api/v1/debates/${thread}/input`, input)),
        );
        seen.push([(await ada.post(`/api/v1/debates/${run}/input`, input)).status]);
      });
    });
    await answered;
    expect(events.at(-1)!.event).toBe("done");
    expect(seen).toEqual(Array.from({ length: 4 }, () => [[409, "not_awaiting_input"], [409, "not_awaiting_input"], [202]]).flat());
    expect(events.filter((e) => e.event === "debate-participant-end" && e.data.model_key === "person")).toHaveLength(3);
  });

  it.skipIf(skip)("resumes a joined debate that stopped while it waited only for the user who joined it", async () => {
    const { user } = await app();
    const ada = await user("Ada");
    const bob = await user("Bob");
    let run = "";
    await readSse(await ada.chat({ message: "/debatt --with-me Bör AI regleras?", participants: TWO, threadId: "adas-debate" }), (e) => {
      if (e.event === "metadata") run = e.data.run_id;
      if (e.event === "debate-awaiting-input") void ada.post(`/api/v1/debates/${run}/cancel`);
    });
    for (const id of [run, "adas-debate"]) {
      expect(await refusal(await bob.post(`/api/v1/debates/${id}/input`, { text: "Bobs ord." }))).toEqual([409, "not_awaiting_input"]);
      expect(await (await bob.get(`/api/v1/debates/${id}/input`)).json()).toEqual({ waiting: null });
    }
    expect(await (await ada.get(`/api/v1/debates/${run}/input`)).json()).toMatchObject({ live: false, waiting: { kind: "turn", round: 1 } });
    const resumed = await ada.post(`/api/v1/debates/${run}/input`, { text: "Adas ord." });
    expect(resumed.status).toBe(202);
    expect(((await resumed.json()) as { status: string }).status).toBe("resumed");
  });

  it.skipIf(skip)("lists only one's own conversations, and lets the admin's token act as the admin's own user", async () => {
    const { user, admin } = await app();
    const ada = await user("Ada");
    const bob = await user("Bob");
    const threadOf = async (u: Omit<typeof ada, "id">, message: string) => String((await readSse(await u.chat({ message }))).events[0].data.thread_id);
    const adas = [await threadOf(ada, "Hej från Ada"), await threadOf(ada, "Igen från Ada")];
    const bobs = await threadOf(bob, "Hej från Bob");
    const admins = await threadOf(admin, "Hej från admin");
    const ids = async (u: Omit<typeof ada, "id">) =>
      ((await (await u.get("/api/v1/conversations")).json()).conversations as { id: string }[]).map((c) => c.id).sort();
    expect(await ids(ada)).toEqual([...adas].sort());
    expect(await ids(bob)).toEqual([bobs]);
    expect(await ids(admin)).toEqual([admins]);
  });
});
