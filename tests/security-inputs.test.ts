import { connect } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { escapeControls } from "../service/app-deps.js";
import { testDeps } from "./support/harness.js";
import { HISTORY_DATABASES, historyDatabaseHooks } from "./support/history-db.js";
import { startApp } from "./support/http.js";
import { startServerProcess } from "./support/server-process.js";

/** Status and error code of an answer, which must be JSON. */
async function answer(res: Response): Promise<[number, string]> {
  const body = (await res.json()) as { error: { code: string } };
  return [res.status, body.error.code];
}

describe("bad input gets a clear 4xx", () => {
  it("answers a broken %-escape in any path parameter with 400 invalid_path", async () => {
    const server = await startApp(testDeps().deps);
    try {
      for (const path of ["/api/v1/conversations/%E0%A4%A", "/api/v1/debates/%ZZ/events", "/api/v1/debates/%ZZ/audio.wav", "/api/v1/debates/%ZZ", "/api/v1/debates/%/resume"]) {
        const res = await fetch(`${server.url}${path}`, { method: path.endsWith("resume") ? "POST" : "GET" });
        expect(await answer(res), path).toEqual([400, "invalid_path"]);
      }
      expect(await answer(await fetch(`${server.url}/api/v1/debates/a%00b/audio.wav`))).toEqual([404, "no_audio"]);
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

  it("answers a declared Content-Length over the limit with 413 at once, before the body, and closes the connection", async () => {
    const server = await startApp(testDeps().deps);
    try {
      const { port } = new URL(server.url);
      const reply = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), "127.0.0.1", () => {
          socket.write(`POST /api/v1/chat/stream HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n{"message":`);
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
    for (const cursor of [encode([9e15, "x"]), encode([1, "a\u0000b"]), encode([1, "x".repeat(500)]), encode([-9e15, "x"]), encode([1.5, "x"]), encode({}), "%%%", encode([1, "x\n[debatt] forged line"])]) {
      const res = await fetch(`${server.url}/api/v1/conversations?cursor=${encodeURIComponent(cursor)}`);
      expect(await answer(res), cursor).toEqual([400, "invalid_cursor"]);
    }
  });
});

describe("slow clients", () => {
  const servers: Awaited<ReturnType<typeof startServerProcess>>[] = [];
  afterAll(async () => {
    for (const s of servers) {
      s.child.kill("SIGKILL");
      await s.exited;
    }
  });

  it("closes a connection whose headers do not arrive within 10 s", async () => {
    const server = await startServerProcess({});
    servers.push(server);
    const { port } = new URL(server.url);
    const started = Date.now();
    const closedAfter = await new Promise<number>((resolve) => {
      const socket = connect(Number(port), "127.0.0.1", () => socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n"));
      socket.on("data", () => {});
      socket.on("close", () => resolve(Date.now() - started));
      socket.on("error", () => {});
    });
    expect(closedAfter).toBeGreaterThanOrEqual(9_000);
    expect(closedAfter).toBeLessThan(14_000);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  }, 30_000);
});

describe("the log", () => {
  it("escapes control characters, so a client cannot forge a log line", () => {
    expect(escapeControls("bad cursor x\n[debatt] admin signed in\r\u0007\u2028")).toBe("bad cursor x\\n[debatt] admin signed in\\r\\u0007\\u2028");
  });
});
