import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { withOverrides, type Script } from "./support/fake-model.js";
import { testDeps } from "./support/harness.js";
import { idsAreGapless, postChat, readSse, startApp, type SseEvent } from "./support/http.js";
import { startServerProcess } from "./support/server-process.js";

const TOKEN = "admin-token-0123456789";
const json = { "content-type": "application/json" };
const chat = "/api/v1/chat/stream";
const nine = ["call_grok", "call_claude", "call_gpt", "call_gemini", "call_deepseek", "call_perplexity", "call_qwen", "call_oneseek", "call_x"];

/** A malformed request: what is sent and the 4xx status and error text expected back. */
interface Bad {
  name: string;
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  status: number;
  message: string;
}

const body = (value: unknown) => JSON.stringify(value);
const BAD: Bad[] = [
  { name: "GET on the chat stream", method: "GET", status: 405, message: "use POST" },
  { name: "PUT on the chat stream", method: "PUT", headers: json, body: body({ message: "hi" }), status: 405, message: "use POST" },
  { name: "DELETE on the chat stream", method: "DELETE", status: 405, message: "use POST" },
  { name: "no content-type", headers: {}, body: body({ message: "hi" }), status: 415, message: "application/json" },
  { name: "text/plain", headers: { "content-type": "text/plain" }, body: "hi", status: 415, message: "application/json" },
  { name: "form-encoded", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "message=hi", status: 415, message: "application/json" },
  { name: "broken JSON", body: '{"message": "hi"', status: 400, message: "not valid JSON" },
  { name: "an empty body", body: "", status: 400, message: "the body is empty" },
  { name: "JSON null", body: "null", status: 400, message: "JSON object" },
  { name: "a JSON array", body: "[]", status: 400, message: "JSON object" },
  { name: "a JSON string", body: '"hello"', status: 400, message: "JSON object" },
  { name: "a JSON number", body: "42", status: 400, message: "JSON object" },
  { name: "no message", body: body({}), status: 400, message: "message must be a string" },
  { name: "a numeric message", body: body({ message: 7 }), status: 400, message: "message must be a string" },
  { name: "a null message", body: body({ message: null }), status: 400, message: "message must be a string" },
  { name: "an empty message", body: body({ message: "" }), status: 400, message: "message is empty" },
  { name: "a blank message", body: body({ message: " \n\t " }), status: 400, message: "message is empty" },
  { name: "a 50001-character message", body: body({ message: "a".repeat(50_001) }), status: 400, message: "longer than 50000" },
  { name: "50001 emoji", body: body({ message: "🗳".repeat(50_001) }), status: 400, message: "longer than 50000" },
  { name: "a NUL in the message", body: body({ message: "/debatt a\u0000b" }), status: 400, message: "control characters" },
  { name: "a lone surrogate", body: '{"message": "/debatt \\ud800"}', status: 400, message: "not valid Unicode" },
  { name: "an unknown field", body: body({ message: "hi", mesage: "typo" }), status: 400, message: "unknown field(s): mesage" },
  { name: "a numeric threadId", body: body({ message: "hi", threadId: 5 }), status: 400, message: "threadId must be a string" },
  { name: "a threadId with a slash", body: body({ message: "hi", threadId: "../etc" }), status: 400, message: "threadId must be" },
  { name: "a 129-character threadId", body: body({ message: "hi", threadId: "t".repeat(129) }), status: 400, message: "threadId must be" },
  { name: "participants as a string", body: body({ message: "/debatt x", participants: "call_grok" }), status: 400, message: "participants must be an array" },
  { name: "numeric participants", body: body({ message: "/debatt x", participants: [1, 2] }), status: 400, message: "participants must be strings" },
  { name: "an empty participant", body: body({ message: "/debatt x", participants: ["call_grok", ""] }), status: 400, message: "a participant is empty" },
  {
    name: "unknown participants",
    body: body({ message: "/debatt x", participants: ["call_grok", "call_nobody"] }),
    status: 400,
    message: "unknown participant(s): call_nobody",
  },
  { name: "one participant", body: body({ message: "/debatt x", participants: ["call_grok"] }), status: 400, message: "2–8 participants" },
  { name: "a duplicated participant", body: body({ message: "/debatt x", participants: ["call_grok", "Grok"] }), status: 400, message: "2–8 participants" },
  { name: "nine participants", body: body({ message: "/debatt x", participants: nine }), status: 400, message: "more than 8" },
  { name: "a 300 kB body", body: body({ message: "x".repeat(300_000) }), status: 413, message: "larger than the limit" },
  { name: "a latin1 charset", headers: { "content-type": "application/json; charset=latin1" }, body: body({ message: "hi" }), status: 415, message: "charset" },
  { name: "an unknown content-encoding", headers: { ...json, "content-encoding": "br2" }, body: body({ message: "hi" }), status: 415, message: "encoding" },
  { name: "an unknown route", method: "GET", path: "/api/v1/nope", status: 404, message: "no route for GET /api/v1/nope" },
  { name: "an admin call without a token", method: "GET", path: "/api/v1/admin/prompts", status: 401, message: "missing Authorization" },
  {
    name: "an admin call with a wrong token",
    method: "GET",
    path: "/api/v1/admin/prompts",
    headers: { authorization: "Bearer nope-nope-nope-nope" },
    status: 401,
    message: "not valid",
  },
  {
    name: "a prompt override with an unknown placeholder",
    method: "PUT",
    path: "/api/v1/admin/prompts/debate.round.1.introduction",
    headers: { ...json, authorization: `Bearer ${TOKEN}` },
    body: body({ text: "{context} {nope}" }),
    status: 400,
    message: "unknown placeholder {nope}",
  },
  {
    name: "a prompt override of an unknown key",
    method: "PUT",
    path: "/api/v1/admin/prompts/%E2%9C%93",
    headers: { ...json, authorization: `Bearer ${TOKEN}` },
    body: body({ text: "x" }),
    status: 404,
    message: "unknown prompt key",
  },
  {
    name: "a POST on the prompt list",
    method: "POST",
    path: "/api/v1/admin/prompts",
    headers: { ...json, authorization: `Bearer ${TOKEN}` },
    body: body({ text: "x" }),
    status: 405,
    message: "use GET",
  },
];

describe("bad input", () => {
  const cleanups: (() => Promise<void>)[] = [];
  let url = "";
  beforeAll(async () => {
    const { deps } = testDeps();
    deps.settings = { ...deps.settings, adminToken: TOKEN };
    const server = await startApp(deps);
    cleanups.push(server.close);
    url = server.url;
  });
  afterAll(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });

  it(`has at least 30 malformed requests (${BAD.length})`, () => {
    expect(BAD.length).toBeGreaterThanOrEqual(30);
  });

  it.each(BAD)("answers $name with $status and an error naming it", async (bad) => {
    const res = await fetch(`${url}${bad.path ?? chat}`, { method: bad.method ?? "POST", headers: bad.headers ?? json, body: bad.body });
    expect(res.status).toBe(bad.status);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const { error } = await res.json();
    expect(error.code).toMatch(/^[a-z_]+$/);
    expect(error.message).toContain(bad.message);
  });

  it("keeps serving after all of them", async () => {
    const { events } = await readSse(await postChat(url, { message: "/debatt Håller servern?", participants: ["call_grok", "call_claude"] }));
    expect(events.map((e) => e.event)).toContain("debate-results");
    expect(events.at(-1)!.event).toBe("done");
  });
});

describe("faults over HTTP: nothing is lost", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });

  async function debate(script: Script, settings = {}, participants = ["call_grok", "call_claude", "call_gpt"]): Promise<SseEvent[]> {
    const { deps } = testDeps({ script, settings });
    const server = await startApp(deps);
    cleanups.push(server.close);
    const { events } = await readSse(await postChat(server.url, { message: "/debatt Felhantering", participants }));
    expect(idsAreGapless(events)).toBe(true);
    expect(events.at(-1)!.event).toBe("done");
    return events;
  }
  const names = (events: SseEvent[]) => events.map((e) => e.event);
  const ends = (events: SseEvent[]) => events.filter((e) => e.event === "debate-participant-end").map((e) => e.data);

  it("a participant that errors and one that times out", async () => {
    const events = await debate(
      withOverrides((req) =>
        req.phase === "turn" && req.participant!.key === "call_grok"
          ? { error: new Error("provider 500") }
          : req.phase === "turn" && req.participant!.key === "call_claude" && req.round === 2
            ? { text: "late", latencyMs: 5_000 }
            : undefined,
      ),
      { responseTimeoutMs: 200 },
      ["call_grok", "call_claude", "call_gpt", "call_gemini"],
    );
    expect(
      ends(events)
        .filter((e) => e.status === "error")
        .map((e) => `${e.model_key}:${e.round}`)
        .sort(),
    ).toEqual(["call_claude:2", "call_grok:1", "call_grok:2", "call_grok:3"]);
    expect(names(events)).toContain("debate-results");
  });

  it("all participants failing ends with an error event, then done", async () => {
    const events = await debate(withOverrides((req) => (req.phase === "turn" ? { error: new Error("down") } : undefined)));
    expect(events.find((e) => e.event === "error")!.data.code).toBe("too_few_answers");
    expect(names(events)).not.toContain("debate-results");
  });

  it("garbage votes, a failing convergence and a failing synthesizer", async () => {
    const events = await debate(
      withOverrides((req) =>
        req.phase === "vote"
          ? "I refuse to vote {not json"
          : req.phase === "convergence" || req.phase === "synthesis"
            ? { error: new Error("model down") }
            : undefined,
      ),
    );
    const results = events.find((e) => e.event === "debate-results")!.data;
    expect(results.total_votes).toBe(0);
    expect(results.invalid_votes).toBe(3);
    expect(names(events)).not.toContain("debate-vote-result");
    expect(events.find((e) => e.event === "debate-synthesis-complete")!.data.synthesis_length).toBeGreaterThan(0);
  });
});

describe("SIGTERM during a debate", () => {
  it("drains: /healthz answers 503 draining, new runs are refused, the running debate finishes, and it exits 0", async () => {
    const server = await startServerProcess({ SIMULATED_LATENCY_MS: "40", SHUTDOWN_GRACE_MS: "30000" });
    let health: Promise<[number, unknown]> | undefined;
    let refused: Promise<[number, unknown]> | undefined;
    const { events } = await readSse(await postChat(server.url, { message: "/debatt Avslut", participants: ["call_grok", "call_claude"] }), (e) => {
      if (e.event === "debate-participant-start" && e.data.round === 1 && e.data.position === 1) {
        server.child.kill("SIGTERM");
        const later = (f: () => Promise<Response>) =>
          new Promise<[number, unknown]>((resolve) => setTimeout(() => void f().then(async (r) => resolve([r.status, await r.json()])), 100));
        health = later(() => fetch(`${server.url}/healthz`));
        refused = later(() => postChat(server.url, { message: "/debatt Another" }));
      }
    });

    expect(await server.exited).toBe(0);
    expect(names(events)).toContain("debate-results");
    expect(events.at(-1)!.event).toBe("done");
    expect(idsAreGapless(events)).toBe(true);
    expect(await health).toEqual([503, expect.objectContaining({ status: "draining" })]);
    expect(await refused).toEqual([503, { error: expect.objectContaining({ code: "shutting_down" }) }]);
    expect(server.log()).toMatch(/SIGTERM: draining/);
  });

  it("cancels a debate still running when the grace period ends, telling the client, and exits 0", async () => {
    const server = await startServerProcess({ SIMULATED_LATENCY_MS: "2000", SHUTDOWN_GRACE_MS: "300" });
    const { events } = await readSse(await postChat(server.url, { message: "/debatt Avslut", participants: ["call_grok", "call_claude"] }), (e) => {
      if (e.event === "debate-init") server.child.kill("SIGTERM");
    });

    expect(await server.exited).toBe(0);
    expect(events.at(-3)!.data).toMatchObject({ code: "shutting_down" });
    expect(events.at(-1)!.event).toBe("done");
    expect(idsAreGapless(events)).toBe(true);
    expect(server.log()).toMatch(/cancelled 1 stream/);
  });
});

const names = (events: SseEvent[]) => events.map((e) => e.event);
