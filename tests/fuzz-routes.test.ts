import { MemorySaver } from "@langchain/langgraph";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { depsFromEnv } from "../service/deps.js";
import { sqliteHistory, type TestHistory } from "./support/history-db.js";
import { startApp } from "./support/http.js";

const ADMIN = "fuzz-admin-token";

/** Every route of the API, with the method it answers (`:id` and `:key` are filled by the fuzzer). */
const ROUTES: [string, string][] = [
  ["POST", "/api/v1/chat/stream"],
  ["POST", "/api/v1/deliberate/stream"],
  ["GET", "/api/v1/debates/:id/events"],
  ["POST", "/api/v1/debates/:id/resume"],
  ["POST", "/api/v1/debates/:id/cancel"],
  ["GET", "/api/v1/debates/:id"],
  ["GET", "/api/v1/debates/:id/audio.wav"],
  ["GET", "/api/v1/debates/:id/audio.mp3"],
  ["GET", "/api/v1/conversations"],
  ["GET", "/api/v1/evaluations/latest"],
  ["GET", "/api/v1/conversations/:id"],
  ["DELETE", "/api/v1/conversations/:id"],
  ["GET", "/api/v1/session"],
  ["POST", "/api/v1/session"],
  ["DELETE", "/api/v1/session"],
  ["GET", "/api/v1/admin/prompts"],
  ["GET", "/api/v1/admin/prompts/:key"],
  ["PUT", "/api/v1/admin/prompts/:key"],
  ["DELETE", "/api/v1/admin/prompts/:key"],
  ["GET", "/api/v1/admin/flow-graph"],
  ["GET", "/api/v1/admin/debate/voice-settings"],
  ["PUT", "/api/v1/admin/debate/voice-settings"],
  ["GET", "/api/v1/admin/debate/voice-defaults"],
  ["GET", "/api/v1/admin/users"],
  ["POST", "/api/v1/admin/users"],
  ["DELETE", "/api/v1/admin/users/:id"],
  ["GET", "/api/v1/health/models"],
  ["POST", "/api/v1/estimate"],
  ["GET", "/v1/models"],
  ["GET", "/v1/models/:id"],
  ["POST", "/v1/chat/completions"],
  ["POST", "/v1/responses"],
  ["POST", "/mcp"],
  ["GET", "/mcp"],
  ["DELETE", "/mcp"],
];

/** Printable ASCII: what fetch lets through in a header value. */
const headerText = fc.stringMatching(/^[\x20-\x7e]{0,80}$/);

/** A path segment: any text percent-encoded, or raw characters that include broken %-escapes. */
const segment = fc.oneof(
  fc.string({ unit: "binary", maxLength: 200 }).map(encodeURIComponent),
  fc.stringMatching(/^[%A-Za-z0-9._~:!$&'()*+,;=@-]{1,300}$/),
  fc.constantFrom("%", "%E0%A4%A", "%00", "..%2F..%2Fetc%2Fpasswd", "a".repeat(5_000), "deliberation.title", "call_grok"),
);

/** A body: JSON of any shape, almost-right objects, text, or bytes. */
const body = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc
    .record(
      {
        message: fc.oneof(fc.string(), fc.jsonValue()),
        question: fc.oneof(fc.string(), fc.jsonValue()),
        mode: fc.oneof(fc.constantFrom("vote", "debate", "deep", "council", "chat"), fc.string()),
        modeConfig: fc.jsonValue(),
        participants: fc.oneof(fc.array(fc.string(), { maxLength: 12 }), fc.jsonValue()),
        threadId: fc.jsonValue(),
        conversationId: fc.jsonValue(),
        text: fc.oneof(fc.string(), fc.jsonValue()),
        token: fc.oneof(fc.string(), fc.jsonValue()),
        name: fc.oneof(fc.string(), fc.jsonValue()),
        api_base: fc.oneof(fc.webUrl(), fc.string()),
        api_key: fc.jsonValue(),
        model: fc.oneof(fc.constantFrom("debatt", "debatt-vote", "gpt-4o"), fc.jsonValue()),
        messages: fc.oneof(
          fc.array(fc.record({ role: fc.constantFrom("user", "assistant", "system", "x"), content: fc.jsonValue() }), { maxLength: 3 }),
          fc.jsonValue(),
        ),
        input: fc.oneof(
          fc.string(),
          fc.array(
            fc.record(
              {
                type: fc.constantFrom("message", "item_reference", "reasoning", "x"),
                role: fc.constantFrom("user", "assistant", "developer", "x"),
                content: fc.jsonValue(),
                id: fc.oneof(fc.constantFrom("msg_x", "rs_x"), fc.jsonValue()),
              },
              { requiredKeys: [] },
            ),
            { maxLength: 3 },
          ),
          fc.jsonValue(),
        ),
        previous_response_id: fc.oneof(fc.constantFrom("resp_", "resp_x"), fc.jsonValue()),
        jsonrpc: fc.oneof(fc.constant("2.0"), fc.jsonValue()),
        id: fc.jsonValue(),
        method: fc.oneof(fc.constantFrom("initialize", "tools/list", "tools/call", "ping"), fc.string()),
        params: fc.jsonValue(),
      },
      { requiredKeys: [] },
    )
    .map((v) => JSON.stringify(v)),
  fc.string({ unit: "binary", maxLength: 300 }),
  fc.uint8Array({ maxLength: 300 }),
);

const request = fc.record({
  route: fc.constantFrom(...ROUTES),
  otherMethod: fc.option(fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"), { freq: 4 }),
  id: segment,
  query: fc.option(fc.dictionary(fc.constantFrom("limit", "cursor", "after", "format", "x"), fc.string({ maxLength: 60 }), { maxKeys: 3 })),
  contentType: fc.option(
    fc.constantFrom("application/json", "application/json; charset=latin1", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data"),
    { freq: 2 },
  ),
  contentEncoding: fc.option(fc.constantFrom("gzip", "deflate", "br", "identity", "zstd"), { freq: 5 }),
  lastEventId: fc.option(headerText, { freq: 3 }),
  authorization: fc.option(fc.oneof(fc.constant(`Bearer ${ADMIN}`), headerText), { freq: 2 }),
  body: fc.option(body, { freq: 4 }),
});

type Request = typeof request extends fc.Arbitrary<infer R> ? R : never;

describe.each([
  { auth: "none", runs: 5_000 },
  { auth: "tokens", runs: 1_000 },
])("the route fuzzer with AUTH=$auth", ({ auth, runs }) => {
  let db: TestHistory;
  let server: Awaited<ReturnType<typeof startApp>>;
  let logs: string[];
  beforeAll(async () => {
    db = await sqliteHistory();
    // The server as `npm start` configures it (simulated models, the voice settings, the audio
    // archive), with limits high enough that the fuzzer reaches the validation behind them.
    logs = [];
    const deps = depsFromEnv(
      {
        DEBATT_DATA_DIR: mkdtempSync(join(tmpdir(), "debatt-fuzz-")),
        ADMIN_TOKEN: ADMIN,
        AUTH: auth,
        SETTINGS_ENCRYPTION_KEY: "11".repeat(32),
        RUNS_PER_MINUTE: "100000",
        MAX_CONCURRENT_RUNS: "100000",
        SIMULATED_LATENCY_MS: "0",
        SIMULATED_CHUNK_DELAY_MS: "0",
      },
      { log: (line) => logs.push(line) },
    );
    server = await startApp(deps, { history: db.history, checkpointer: new MemorySaver() });
  });
  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  /** Sends one generated request; returns its status and, for an error, its parsed JSON. */
  async function send(r: Request): Promise<{ status: number; json?: unknown; type: string }> {
    const [method, template] = r.route;
    const path = template.replace(/:id|:key/, r.id);
    const query = r.query ? `?${new URLSearchParams(r.query)}` : "";
    const headers: Record<string, string> = {};
    if (r.contentType) headers["content-type"] = r.contentType;
    if (r.contentEncoding) headers["content-encoding"] = r.contentEncoding;
    if (r.lastEventId !== null) headers["last-event-id"] = r.lastEventId;
    if (r.authorization !== null) headers.authorization = r.authorization;
    const verb = r.otherMethod ?? method;
    const res = await fetch(`${server.url}${path}${query}`, { method: verb, headers, body: verb === "GET" || r.body === null ? undefined : r.body });
    const type = res.headers.get("content-type") ?? "";
    if (res.status < 400) {
      await res.body?.cancel();
      return { status: res.status, type };
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: res.status, json, type };
  }

  it("answers every generated bad request with a 4xx JSON error that names the problem (never a 5xx), and /healthz stays green", async () => {
    let refused = 0;
    let total = 0;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const { status, json, type } = await send(r);
        total++;
        expect(status, JSON.stringify(r).slice(0, 500)).toBeLessThan(500);
        if (status >= 400) {
          refused++;
          expect(type, JSON.stringify(r).slice(0, 500)).toContain("application/json");
          // The MCP endpoint answers in JSON-RPC's shape (a numeric code; debatt's own in data.code).
          if (r.route[1] === "/mcp") expect(json).toMatchObject({ jsonrpc: "2.0", error: { code: expect.any(Number), message: expect.any(String) } });
          else expect(json).toMatchObject({ error: { code: expect.stringMatching(/^[a-z_]+$/), message: expect.any(String) } });
          expect((json as { error: { message: string } }).error.message.length).toBeGreaterThan(5);
        }
      }),
      { numRuns: runs },
    );
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { status: string }).status).toBe("ok");
    expect(logs.filter((l) => l.includes("failed:") && l.includes("internal"))).toEqual([]);
    // Generated requests are mostly bad ones: the fuzzer did reach the refusals.
    expect(refused / total).toBeGreaterThan(0.75);
  }, 240_000);
});
