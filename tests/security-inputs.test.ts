import { connect } from "node:net";
import { gzipSync } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { DrizzleQueryError } from "drizzle-orm/errors";
import { escapeControls, stderrLog } from "../service/app-deps.js";
import { tokenHash } from "../history/users.js";
import { MAX_BODY_DEPTH } from "../routes/json-body.js";
import { InMemoryPromptStore, loadPromptSet } from "../prompts/store.js";
import { removeSpoofing } from "../state/text.js";
import { withOverrides } from "./support/fake-model.js";
import { testDeps } from "./support/harness.js";
import { HISTORY_DATABASES, historyDatabaseHooks } from "./support/history-db.js";
import { postChat, postDeliberate, readSse, startApp } from "./support/http.js";
import { serverProcesses } from "./support/server-process.js";

/** Status and error code of an answer, which must be JSON. */
async function answer(res: Response): Promise<[number, string]> {
  const body = (await res.json()) as { error: { code: string } };
  return [res.status, body.error.code];
}

describe("bad input gets a clear 4xx", () => {
  it("answers a broken %-escape in any path parameter with 400 invalid_path", async () => {
    const server = await startApp(testDeps().deps);
    try {
      for (const path of [
        "/api/v1/conversations/%E0%A4%A",
        "/api/v1/debates/%ZZ/events",
        "/api/v1/debates/%ZZ/audio.wav",
        "/api/v1/debates/%ZZ",
        "/api/v1/debates/%/resume",
      ]) {
        const res = await fetch(`${server.url}${path}`, { method: path.endsWith("resume") ? "POST" : "GET" });
        expect(await answer(res), path).toEqual([400, "invalid_path"]);
      }
      expect(await answer(await fetch(`${server.url}/api/v1/debates/a%00b/audio.wav`))).toEqual([404, "no_audio"]);
      // Names objects reserve are no thread ids (found by the route fuzzer: the in-memory checkpointer threw, a 500).
      for (const id of ["__proto__", "constructor", "prototype"]) {
        expect(await answer(await fetch(`${server.url}/api/v1/debates/${id}/resume`, { method: "POST" })), id).toEqual([400, "invalid_thread_id"]);
      }
    } finally {
      await server.close();
    }
  });

  it("answers a broken compressed body and a body that is not UTF-8 with 400 invalid_body", async () => {
    const { deps, models } = testDeps();
    const server = await startApp(deps);
    try {
      const post = (body: Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}) =>
        fetch(`${server.url}/api/v1/chat/stream`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
      const broken = await post(new TextEncoder().encode("not gzip at all"), { "content-encoding": "gzip" });
      expect(await answer(broken)).toEqual([400, "invalid_body"]);
      // Brotli names its errors differently (found by the route fuzzer: it was a 500).
      expect(await answer(await post(new TextEncoder().encode("{}"), { "content-encoding": "br" }))).toEqual([400, "invalid_body"]);
      const truncated = new Uint8Array(gzipSync(JSON.stringify({ message: "Hej" })).subarray(0, 12));
      expect(await answer(await post(truncated, { "content-encoding": "gzip" }))).toEqual([400, "invalid_body"]);
      const latin1 = await post(Uint8Array.from([...new TextEncoder().encode('{"message": "hej '), 0xff, 0xfe, ...new TextEncoder().encode('"}')]));
      const json = (await latin1.json()) as { error: { code: string; message: string } };
      expect([latin1.status, json.error.code, json.error.message]).toEqual([400, "invalid_body", "the body is not valid UTF-8"]);
      expect(models.calls).toHaveLength(0);
      // A good compressed body still works.
      const good = await post(new Uint8Array(gzipSync(JSON.stringify({ message: "Hej" }))), { "content-encoding": "gzip" });
      expect(good.status).toBe(200);
      await good.body?.cancel();
    } finally {
      await server.close();
    }
  });

  it("answers a body nested deeper than it may be with 400 invalid_body on every surface, and logs no failure", async () => {
    const { deps, models, logs } = testDeps();
    const server = await startApp(deps);
    try {
      // A JSON Schema 5,000 levels deep (it overflowed the stack: an unlogged 500), and a question nested so.
      const deep = (n: number) => '{"type":"object","properties":{"a":'.repeat(n) + '{"type":"string"}' + "}}".repeat(n);
      const bodies: [string, string][] = [
        ["/v1/responses", `{"model":"debatt","input":"/vote Hi?","text":{"format":{"type":"json_schema","name":"x","schema":${deep(5_000)}}}}`],
        [
          "/v1/chat/completions",
          `{"model":"debatt","messages":[{"role":"user","content":"Hi"}],"response_format":{"type":"json_schema","json_schema":{"name":"x","schema":${deep(MAX_BODY_DEPTH)}}}}`,
        ],
        ["/api/v1/chat/stream", `{"message":"Hi","participants":${"[".repeat(70)}${"]".repeat(70)}}`],
        ["/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"debatt","arguments":${deep(100)}}}`],
      ];
      for (const [path, body] of bodies) {
        const res = await fetch(`${server.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          body,
        });
        const json = (await res.json()) as { error: { code: string | number; message: string } };
        // (MCP answers in JSON-RPC's shape: its code for a request refused.)
        expect([path, res.status, json.error.code, json.error.message]).toEqual([
          path,
          400,
          path === "/mcp" ? -32000 : "invalid_body",
          expect.stringContaining("the body's objects and arrays nest deeper than 64 levels"),
        ]);
      }
      expect({ calls: models.calls.length, logs }).toEqual({ calls: 0, logs: [] });
      // A schema within the bound is taken (braces inside strings do not count).
      const fine = await fetch(`${server.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: `{"model":"debatt","messages":[{"role":"user","content":"${"{[".repeat(200)}"}],"response_format":{"type":"json_schema","json_schema":{"name":"x","schema":${deep(20)}}}}`,
      });
      expect(fine.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("answers a declared Content-Length over the limit with 413 at once, before the body, and closes the connection", async () => {
    const server = await startApp(testDeps().deps);
    try {
      const { port } = new URL(server.url);
      const reply = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), "127.0.0.1", () => {
          socket.write(
            `POST /api/v1/chat/stream HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n{"message":`,
          );
        });
        let text = "";
        socket.on("data", (d) => (text += d.toString()));
        socket.on("close", () => resolve(text));
        socket.on("error", reject);
        setTimeout(() => reject(new Error(`no answer and no close within 3 s: ${text}`)), 3_000);
      });
      expect(reply).toMatch(/^HTTP\/1\.1 413/);
      expect(reply).toMatch(/connection: close/i);
      expect(reply).toContain('"payload_too_large"');
    } finally {
      await server.close();
    }
  });
});

describe.each(HISTORY_DATABASES)("crafted cursors on $db", (database) => {
  const hooks = historyDatabaseHooks(database);
  it.skipIf(database.skip)("answers every crafted cursor with 400 invalid_cursor, never a 500", async () => {
    const db = await hooks.open();
    const server = await startApp(testDeps().deps, { history: db.history });
    hooks.later(server.close);
    const encode = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    for (const cursor of [
      encode([9e15, "x"]),
      encode([1, "a\u0000b"]),
      encode([1, "x".repeat(500)]),
      encode([-9e15, "x"]),
      encode([1.5, "x"]),
      encode({}),
      "%%%",
      encode([1, "x\n[debatt] forged line"]),
    ]) {
      const res = await fetch(`${server.url}/api/v1/conversations?cursor=${encodeURIComponent(cursor)}`);
      expect(await answer(res), cursor).toEqual([400, "invalid_cursor"]);
    }
  });
});

describe("slow clients", () => {
  const start = serverProcesses();

  it("closes a connection whose headers do not arrive within 10 s", async () => {
    const server = await start({});
    const { port } = new URL(server.url);
    const started = Date.now();
    const closedAfter = await new Promise<number>((resolve) => {
      const socket = connect(Number(port), "127.0.0.1", () => socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n"));
      socket.on("data", () => {});
      socket.on("close", () => resolve(Date.now() - started));
      socket.on("error", () => {});
    });
    // Not before its 10 s; that it closes at all is what the test's own time limit checks.
    expect(closedAfter).toBeGreaterThanOrEqual(9_000);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

describe("text that could spoof a reader", () => {
  it("removes bidi controls and stray zero-width characters, keeping the joiners emoji and scripts need", () => {
    expect(removeSpoofing("Is \u202eevil\u202c fine\u200b?\u2066x\u2069\ufeff")).toBe("Is evil fine?x");
    expect(removeSpoofing("a\u200db \u200c x\u200d")).toBe("ab  x");
    // Emoji sequences (with skin tones too), scripts that shape with joiners, and the bidi marks mixed text needs.
    for (const kept of [
      "👩\u200d💻",
      "🧑🏽\u200d💻",
      "👩🏽\u200d❤️\u200d💋\u200d👨🏿",
      "❤️\u200d🔥",
      "می\u200cخواهم",
      "ශ්\u200dරී",
      "ന്\u200d",
      "עברית \u200f(1)",
      "Åsa\tär\nhär",
    ]) {
      expect(removeSpoofing(kept), kept).toBe(kept);
    }
  });

  it("removes them from topics and titles, and a message of nothing else is empty", async () => {
    const { deps, models } = testDeps({ script: withOverrides((req) => (req.phase === "title" ? "Ett \u202eknepigt\u202c\u200b rubrik" : undefined)) });
    const server = await startApp(deps);
    try {
      const res = await postDeliberate(server.url, { question: "Vilket \u202ebästa\u202c\u200b språk?", mode: "vote" });
      const { events } = await readSse(res);
      const asked = models.callsOf("answer").map((c) => String(c.messages.at(-1)?.content));
      expect(asked.length).toBeGreaterThan(0);
      for (const prompt of asked) expect(prompt).toContain("Vilket bästa språk?");
      expect(events.find((e) => e.event === "title-complete")?.data.data.title).toBe("Ett knepigt rubrik");
      const empty = await postChat(server.url, { message: "\u200b\u202e \u2066" });
      expect(empty.status).toBe(400);
      expect(((await empty.json()) as { error: { message: string } }).error.message).toContain("message is empty");
    } finally {
      await server.close();
    }
  });

  it("refuses NUL and control characters in prompt overrides, stored or per run", async () => {
    const { deps, models } = testDeps({ settings: { adminToken: "admin-secret" } });
    const server = await startApp(deps);
    try {
      const put = await fetch(`${server.url}/api/v1/admin/prompts/deliberation.title`, {
        method: "PUT",
        headers: { authorization: "Bearer admin-secret", "content-type": "application/json" },
        body: JSON.stringify({ text: "Title for {question}\u0000 now\u001b[2J" }),
      });
      expect(put.status).toBe(400);
      expect(JSON.stringify(await put.json())).toContain("control characters");
      // Per run, through the run configuration's prompt_overrides (Studio, the SDK).
      await expect(loadPromptSet(new InMemoryPromptStore(), { "deliberation.title": "Title\u0007 {question}" })).rejects.toThrow(/control characters/);
      const tabs = await fetch(`${server.url}/api/v1/admin/prompts/deliberation.title`, {
        method: "PUT",
        headers: { authorization: "Bearer admin-secret", "content-type": "application/json" },
        body: JSON.stringify({ text: "Title for\t{question}\r\nnow" }),
      });
      expect(tabs.status).toBe(200);
      expect(models.calls).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});

describe("the log", () => {
  it("escapes control characters, so a client cannot forge a log line", () => {
    expect(escapeControls("bad cursor x\n[debatt] admin signed in\r\u0007\u2028")).toBe("bad cursor x\\n[debatt] admin signed in\\r\\u0007\\u2028");
  });

  it("leaves out a failed query's parameters (a token's hash, a message), and keeps the query", () => {
    const hash = tokenHash("secret-token-of-ada");
    const failed = new DrizzleQueryError('select "id" from "users" where "token_hash" = $1', [hash, "Ada's question"], new Error("Connection terminated"));
    const lines: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((line: string) => void lines.push(line));
    try {
      stderrLog(`users: the lookup failed: ${failed.stack}`);
    } finally {
      spy.mockRestore();
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('Failed query: select \"id\" from \"users\" where \"token_hash\" = $1\\nparams: (left out)');
    expect(lines[0]).not.toContain(hash);
    expect(lines[0]).not.toContain("Ada's question");
  });
});
