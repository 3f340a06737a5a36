import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { depsFromEnv } from "../service/deps.js";
import { debater, roster } from "./support/debater.js";
import { startFakeOpenAI } from "./support/fake-servers.js";
import { withOverrides } from "./support/fake-model.js";
import { testDeps } from "./support/harness.js";
import { idsAreGapless, postChat, readSse, startApp } from "./support/http.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function serve(deps: Parameters<typeof startApp>[0]) {
  const server = await startApp(deps);
  cleanups.push(server.close);
  return server;
}

describe("the SSE chat stream", () => {
  it("streams a whole 8-participant debate as kebab-case SSE with gapless ids, ending in done", async () => {
    const { deps } = testDeps();
    const { url } = await serve(deps);

    const res = await postChat(url, { message: "/debatt Bör AI regleras?" });
    const { events } = await readSse(res);

    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(res.headers.get("cache-control")).toContain("no-cache");
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    expect(idsAreGapless(events)).toBe(true);
    expect(events[0]).toMatchObject({ event: "metadata", data: { thread_id: expect.any(String), run_id: expect.any(String) } });
    expect(events[1].event).toBe("debate-init");
    expect(events[1].data.participants).toHaveLength(8);
    expect(events.filter((e) => e.event === "debate-participant-end")).toHaveLength(24);
    expect(events.filter((e) => e.event === "debate-vote-result")).toHaveLength(8);
    expect(events.map((e) => e.event)).toContain("debate-results");
    expect(events.at(-1)!.event).toBe("done");
    expect(events.every((e) => /^[a-z]+(-[a-z]+)*$/.test(e.event))).toBe(true);
  });

  it("sends keep-alive comments while the stream waits", async () => {
    const { deps } = testDeps({ script: withOverrides((req) => (req.phase === "turn" ? { text: "slow answer", latencyMs: 250 } : undefined)) });
    deps.settings = { ...deps.settings, sseKeepAliveMs: 50 };
    const { url } = await serve(deps);

    const { raw, events } = await readSse(await postChat(url, { message: "/debatt X", participants: ["call_grok", "call_claude"] }));

    expect(raw).toMatch(/^: keep-alive$/m);
    expect(events.at(-1)!.event).toBe("done");
  });

  it("routes a normal message to the supervisor and streams its answer", async () => {
    const { deps } = testDeps();
    const { url } = await serve(deps);

    const { events } = await readSse(await postChat(url, { message: "Hej, vad kan du?", threadId: "chat-1" }));

    expect(events[0].data.thread_id).toBe("chat-1");
    expect(events.map((e) => e.event)).toEqual(["metadata", ...events.slice(1, -2).map(() => "text-delta"), "usage", "done"]);
    expect(events.map((e) => e.data.delta ?? "").join("")).toBe("Hello from the supervisor.");
  });

  it("cancels the run when the client disconnects and no client comes back: the model's HTTP request is aborted, no more start", async () => {
    const openai = await startFakeOpenAI((body) => ({ ...debater(body), delayMs: 1_500 }));
    cleanups.push(openai.close);
    // No grace for a reconnect: the run stops as soon as its only client leaves.
    const deps = depsFromEnv(
      { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: openai.baseURL, DEBATE_PARTICIPANTS: roster, RESUME_GRACE_MS: "0" },
      { log: () => {} },
    );
    const server = await serve(deps);
    const client = new AbortController();

    const res = await postChat(server.url, { message: "/debatt X" }, { signal: client.signal });
    await readSse(res, (e) => {
      if (e.event === "debate-participant-start") client.abort();
    });
    await new Promise((r) => setTimeout(r, 300));

    expect(openai.seen.length).toBeGreaterThanOrEqual(1);
    expect(openai.seen.every((r) => r.aborted)).toBe(true);
    const seenAfterAbort = openai.seen.length;
    await new Promise((r) => setTimeout(r, 1_700));
    expect(openai.seen.length).toBe(seenAfterAbort);
    expect(server.service.size).toBe(0);
  });

  it("reports the process and prompt store on /healthz", async () => {
    const { deps } = testDeps();
    const { url } = await serve(deps);

    const res = await fetch(`${url}/healthz`);
    const body = await res.json();

    expect(res.status).toBe(200);
    expect(body).toMatchObject({ status: "ok", pid: process.pid, active_streams: 0, prompt_store: "memory", redis: { status: "not_configured" } });
    expect(body.rss_bytes).toBeGreaterThan(0);
  });
});

const CHROMIUM = "/usr/bin/chromium";
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn("server.test.ts: browser part SKIPPED — Debian's chromium is not installed (apt-get install -y chromium)");

/** A site of its own (another port: another origin) that serves one empty page, as Open WebUI's would be. */
async function otherSite(): Promise<{ port: number; close: () => Promise<void> }> {
  const server: Server = createServer((_req, res) =>
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<!doctype html><title>other site</title>"),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe.skipIf(!haveChromium)(`browser clients in a real browser${haveChromium ? "" : " (skipped: chromium is not installed)"}`, () => {
  const ADMIN = "admin-token-0123456789";
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--headless"] });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("a page of an allowed origin calls /v1 with its token and reads the streamed answer and its headers; a page of another origin cannot", async () => {
    const site = await otherSite();
    cleanups.push(site.close);
    // The same site by two names: two origins, one of them allowed.
    const allowed = `http://127.0.0.1:${site.port}`;
    const other = `http://localhost:${site.port}`;
    const { deps, models } = testDeps({ settings: { auth: "tokens", adminToken: ADMIN, corsAllowedOrigins: [allowed] } });
    const { url } = await serve(deps);
    const page = await browser.newPage();
    cleanups.push(() => page.close());
    /** What the OpenAI SDK does in a browser: a preflighted POST with a bearer token and its own headers. */
    const complete = (api: string, token: string) =>
      page.evaluate(
        async ({ api, token }) => {
          try {
            const res = await fetch(`${api}/v1/chat/completions`, {
              method: "POST",
              headers: {
                authorization: `Bearer ${token}`,
                "content-type": "application/json",
                "x-stainless-lang": "js",
                "x-stainless-retry-count": "0",
                "openai-organization": "org-x",
              },
              body: JSON.stringify({ model: "debatt-compare", stream: true, messages: [{ role: "user", content: "Vad är 2+2?" }] }),
            });
            const body = await res.text();
            return {
              status: res.status,
              runId: res.headers.get("x-debatt-run-id"),
              conversationId: res.headers.get("x-debatt-conversation-id"),
              ended: body.trimEnd().endsWith("data: [DONE]"),
            };
          } catch (err) {
            return { failed: String(err) };
          }
        },
        { api, token },
      );

    await page.goto(`${allowed}/`);
    const answered = await complete(url, ADMIN);
    expect(answered).toMatchObject({ status: 200, runId: expect.stringMatching(/^[0-9a-f-]{36}$/), conversationId: expect.any(String), ended: true });
    // A refusal reaches the page as the server gave it, so it can say why.
    expect(await complete(url, "not-a-token")).toMatchObject({ status: 401 });

    await page.goto(`${other}/`);
    const asked = models.calls.length;
    expect(await complete(url, ADMIN)).toEqual({ failed: expect.stringContaining("Failed to fetch") });
    // Its preflight was refused, so the request itself was never sent: no run, no model call.
    expect(models.calls.length).toBe(asked);
  });

  it("an EventSource on a finished run gets its error as a MessageEvent, then done, and stops: no reconnection after done", async () => {
    const { deps } = testDeps();
    const { url } = await serve(deps);
    // A run that ends with an `error` event (the command lacks its topic), then `done`.
    const { events } = await readSse(await postChat(url, { message: "/vote" }));
    expect(events.map((e) => e.event)).toEqual(["metadata", "error", "done"]);
    const page = await browser.newPage();
    cleanups.push(() => page.close());
    const requests: string[] = [];
    page.on("request", (r) => r.url().endsWith("/events") && requests.push(r.url()));
    await page.goto(`${url}/healthz`);

    const seen = await page.evaluate(async (runId) => {
      const source = new EventSource(`/api/v1/debates/${runId}/events`);
      const got: { type: string; message: boolean; code?: string; id?: string }[] = [];
      let opens = 0;
      source.onopen = () => opens++;
      const on = (e: Event) =>
        got.push(
          e instanceof MessageEvent ? { type: e.type, message: true, code: JSON.parse(e.data).code, id: e.lastEventId } : { type: e.type, message: false },
        );
      for (const name of ["metadata", "error", "done"]) source.addEventListener(name, on);
      // The page does not call close() after done: the server's 204 must stop the reconnecting.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      return { got, opens, readyState: source.readyState };
    }, String(events[0].data.run_id));

    expect(seen.got).toEqual([
      { type: "metadata", message: true, code: undefined, id: "1" },
      // The run's own error: a MessageEvent with data and an id.
      { type: "error", message: true, code: "missing_topic", id: "2" },
      { type: "done", message: true, code: undefined, id: "3" },
      // The connection's: plain Events, when the server ends the stream after done (the browser
      // reconnects) and when that reconnect is answered 204 (it stops).
      { type: "error", message: false },
      { type: "error", message: false },
    ]);
    expect(seen.opens).toBe(1);
    expect(seen.readyState).toBe(2);
    expect(requests).toHaveLength(2);
  });
});
