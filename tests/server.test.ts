import { afterEach, describe, expect, it } from "vitest";
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
    const deps = depsFromEnv({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: openai.baseURL, DEBATE_PARTICIPANTS: roster, RESUME_GRACE_MS: "0" }, { log: () => {} });
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
