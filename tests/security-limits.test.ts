import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { PROMPTS } from "../prompts/registry.js";
import { validatePromptText } from "../prompts/render.js";
import { AudioArchive } from "../providers/audio-archive.js";
import { installed } from "../providers/installed.js";
import { RunLimits } from "../service/run-limits.js";
import { loadSettings } from "../state/config.js";
import { FakeSpeech } from "./support/fake-speech.js";
import { testDeps } from "./support/harness.js";
import { postChat, readSse, startApp } from "./support/http.js";

const TWO = ["call_grok", "call_claude"];

describe("run limits", () => {
  it("reads RUNS_PER_MINUTE and MAX_CONCURRENT_RUNS, with defaults, and refuses bad values", () => {
    expect(loadSettings({})).toMatchObject({ runsPerMinute: 30, maxConcurrentRuns: 10 });
    expect(loadSettings({ RUNS_PER_MINUTE: "5", MAX_CONCURRENT_RUNS: "2" })).toMatchObject({ runsPerMinute: 5, maxConcurrentRuns: 2 });
    expect(() => loadSettings({ RUNS_PER_MINUTE: "0" })).toThrow(/RUNS_PER_MINUTE must be positive/);
  });

  it("counts starts per key in a sliding minute and runs at once, and says when to retry", () => {
    let now = 0;
    const limits = new RunLimits(3, 2, () => now);
    const a1 = limits.take("a");
    const a2 = limits.take("a");
    expect(() => limits.take("a")).toThrow(/at most 2 runs at once/);
    limits.take("b"); // another key is not held back
    a1();
    a1(); // releasing twice gives back one slot only
    now = 10_000;
    const a3 = limits.take("a"); // the third start of the minute
    expect(() => limits.take("a")).toThrow(/at once/);
    a2();
    a3();
    try {
      limits.take("a");
      expect.unreachable();
    } catch (err) {
      expect(err).toMatchObject({ code: "rate_limited", retryAfterS: 50 });
    }
    now = 60_001; // the first two starts have left the window
    limits.take("a");
  });

  async function app(settings: Parameters<typeof testDeps>[0] = {}) {
    const { deps, models } = testDeps(settings);
    const server = await startApp(deps);
    return { ...server, models };
  }

  it("answers 429 with Retry-After over the runs a minute, before any model is called", async () => {
    const server = await app({ settings: { runsPerMinute: 2 } });
    try {
      for (let i = 0; i < 2; i++) expect((await readSse(await postChat(server.url, { message: `Hej ${i}` }))).events.at(-1)!.event).toBe("done");
      const calls = server.models.calls.length;
      const res = await postChat(server.url, { message: "/debatt En till?", participants: TWO });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await res.json()).error).toMatchObject({ code: "rate_limited", message: expect.stringContaining("at most 2 runs a minute") });
      expect(server.models.calls.length).toBe(calls);
    } finally {
      await server.close();
    }
  });

  it("counts no refused command (a format without its topic, an unknown option) against the user's runs; such answers are limited apart", async () => {
    const server = await app({ settings: { runsPerMinute: 2, maxConcurrentRuns: 1 } });
    try {
      for (const message of ["/vote", "/debatt --max_cost_usd 0 Bör AI regleras?"]) {
        const res = await postChat(server.url, { message });
        expect(res.status, message).toBe(200);
        await readSse(res);
      }
      expect(server.models.calls).toHaveLength(0);
      // The user's two runs of the minute are still theirs.
      for (let i = 0; i < 2; i++) expect((await readSse(await postChat(server.url, { message: `Hej ${i}` }))).events.at(-1)!.event).toBe("done");
      expect((await postChat(server.url, { message: "Hej igen" })).status).toBe(429);
      // And explanations cannot be asked for without end either.
      expect((await postChat(server.url, { message: "/compare" })).status).toBe(429);
    } finally {
      await server.close();
    }
  });

  it("answers 429 over the runs at once, and takes new ones when a run ends", async () => {
    const server = await app({ settings: { maxConcurrentRuns: 1 }, script: () => ({ text: "slow answer", latencyMs: 300 }) });
    try {
      const first = await postChat(server.url, { message: "Hej" });
      expect(first.status).toBe(200);
      const second = await postChat(server.url, { message: "Hej igen" });
      expect(second.status).toBe(429);
      expect((await second.json()).error.message).toContain("at most 1 runs at once");
      await readSse(first);
      const third = await postChat(server.url, { message: "Nu då?" });
      expect(third.status).toBe(200);
      await readSse(third);
    } finally {
      await server.close();
    }
  });
});

describe("open streams", () => {
  it("reads MAX_OPEN_STREAMS, and answers 429 over a user's open event streams, before a run starts; a closed one frees its place", async () => {
    expect(loadSettings({})).toMatchObject({ maxOpenStreams: 20 });
    const { deps, models } = testDeps({ settings: { maxOpenStreams: 2 }, script: () => ({ text: "slow answer", latencyMs: 300 }) });
    const server = await startApp(deps);
    try {
      // The chat stream of a run, and a second reader of it.
      const first = await postChat(server.url, { message: "Hej" });
      let reading: Promise<unknown> | undefined;
      const runId = await new Promise<string>((resolve) => {
        reading = readSse(first, (e) => e.event === "metadata" && resolve(String(e.data.run_id)));
      });
      const reader = new AbortController();
      const second = await fetch(`${server.url}/api/v1/debates/${runId}/events`, { signal: reader.signal });
      expect(second.status).toBe(200);
      // A third stream, of a new run or the same one, is refused, and no run is started for it.
      const calls = models.calls.length;
      const refused = await postChat(server.url, { message: "Hej igen" });
      expect(refused.status).toBe(429);
      expect((await refused.json()).error).toMatchObject({ code: "rate_limited", message: expect.stringContaining("at most 2 open streams at once") });
      expect((await fetch(`${server.url}/api/v1/debates/${runId}/events`)).status).toBe(429);
      expect(models.calls.length).toBe(calls);
      // The second reader leaves: its place is free.
      reader.abort();
      await vi.waitFor(async () => {
        const again = await fetch(`${server.url}/api/v1/debates/${runId}/events`);
        expect(again.status).toBe(200);
        await again.body?.cancel();
      });
      await reading;
    } finally {
      await server.close();
    }
  });
});

describe("limits on what costs CPU or tokens", () => {
  it("refuses a prompt override that, filled with the longest values, would make huge requests; every default passes", async () => {
    for (const p of PROMPTS) expect(validatePromptText(p.key, p.default), p.key).toEqual([]);
    const { deps } = testDeps({ settings: { adminToken: "admin-token-0123456789" } });
    const server = await startApp(deps);
    try {
      const put = (text: string) =>
        fetch(`${server.url}/api/v1/admin/prompts/debate.round.1.introduction`, {
          method: "PUT",
          headers: { authorization: "Bearer admin-token-0123456789", "content-type": "application/json" },
          body: JSON.stringify({ text }),
        });
      const amplifying = "{context} ".repeat(1_900); // 19 KB, under the text limit
      const res = await put(amplifying);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatchObject({
        code: "invalid_prompt",
        message: expect.stringMatching(/it would be \d+ characters, at most 160000 are allowed; use each placeholder once/),
      });
      expect((await put("{context}\n\nRunda 1: presentera din ståndpunkt.")).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("throttles failed admin sign-ins per address", async () => {
    const { deps } = testDeps({ settings: { adminToken: "admin-token-0123456789" } });
    const server = await startApp(deps);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++)
        statuses.push((await fetch(`${server.url}/api/v1/admin/prompts`, { headers: { authorization: `Bearer wrong-${i}` } })).status);
      expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
      expect(statuses[20]).toBe(429);
    } finally {
      await server.close();
    }
  });

  it.skipIf(!["ffmpeg", "lame"].some(installed))(
    "encodes at most two MP3 exports at once; the others are asked to come back (503 with Retry-After)",
    async () => {
      const { deps } = testDeps();
      const speech = new FakeSpeech(() => ({ bytes: 200_000 }));
      deps.speech = () => speech;
      const dir = mkdtempSync(join(tmpdir(), "debatt-audio-"));
      deps.audio = new AudioArchive(dir, () => {});
      const server = await startApp(deps);
      try {
        const { events } = await readSse(await postChat(server.url, { message: "/dvoice Bör AI regleras?", participants: TWO }));
        const id = events.find((e) => e.event === "debate-init")!.data.debate_id as string;
        const answers = await Promise.all(Array.from({ length: 10 }, () => fetch(`${server.url}/api/v1/debates/${id}/audio.mp3`)));
        const busy = answers.filter((r) => r.status === 503);
        expect(busy.length).toBeGreaterThan(0);
        expect(answers.filter((r) => r.status === 200).length).toBeGreaterThan(0);
        for (const r of busy) {
          expect(r.headers.get("retry-after")).toBe("5");
          expect((await r.json()).error.code).toBe("encoder_busy");
        }
        for (const r of answers.filter((a) => a.status === 200)) expect((await r.arrayBuffer()).byteLength).toBeGreaterThan(1_000);
        // Once they are done, exports are taken again.
        expect((await fetch(`${server.url}/api/v1/debates/${id}/audio.mp3`)).status).toBe(200);
      } finally {
        await server.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
