import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HumanMessage, SystemMessage, type AIMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it } from "vitest";
import { streamMessage } from "../nodes/shared/model-call.js";
import { endpointOf, OpenAIModelFactory, shownUrl } from "../providers/openai.js";
import { sqliteHistory } from "./support/history-db.js";
import { callTokensOf } from "../state/usage.js";
import { loadSettings } from "../state/config.js";
import { defaultRoster } from "../state/participants.js";
import { depsFromEnv } from "../service/deps.js";
import { streamClientEvents } from "../service/stream.js";
import type { ClientEvent } from "../state/events.js";
import { graphOf } from "./support/harness.js";
import { createTavilySearch } from "../providers/tavily.js";
import { debater, roster } from "./support/debater.js";
import { startFakeOpenAI, startFakeTavily, startSilentServer } from "./support/fake-servers.js";
import { postChat, readSse, startApp } from "./support/http.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function collect(env: Record<string, string>, message: string, signal?: AbortSignal, log: (line: string) => void = () => {}): Promise<ClientEvent[]> {
  const graph = graphOf(depsFromEnv(env, { log }));
  const events: ClientEvent[] = [];
  for await (const e of streamClientEvents(graph, { message }, { signal })) events.push(e);
  return events;
}

describe("an OpenAI-compatible endpoint and Tavily", () => {
  it("runs a real debate over HTTP, with OneSeek researching through TAVILY_BASE_URL", async () => {
    const openai = await startFakeOpenAI(debater);
    const tavily = await startFakeTavily();
    cleanups.push(openai.close, tavily.close);
    const env = {
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: openai.baseURL,
      DEBATE_PARTICIPANTS: roster,
      TAVILY_API_KEY: "tvly-test",
      TAVILY_BASE_URL: tavily.url,
    };
    const events = await collect(env, "/debatt Bör AI regleras?");
    expect(events.find((e) => e.event === "debate-init")!.data).toMatchObject({ simulated: false });
    expect(events.filter((e) => e.event === "debate-participant-end").every((e) => e.data.status === "ok")).toBe(true);
    expect(events.find((e) => e.event === "debate-results")!.data).toMatchObject({ total_votes: 3, invalid_votes: 0 });
    // Turns stream with the participant's model id and the 800-token budget.
    const text = (m: { content: unknown }) => (typeof m.content === "string" ? m.content : (m.content as { text: string }[]).map((p) => p.text).join(""));
    const turns = openai.seen.filter(
      (r) =>
        r.body.stream &&
        r.body.messages.some((m: { content: unknown }) => text(m).includes("Runda 1 — Introduktion")) &&
        !r.body.messages.some((m: { content: unknown }) => text(m).includes("Runda 2")),
    );
    expect(turns.map((r) => r.body.model).sort()).toEqual(["anthropic/claude-sonnet-4.5", "internal/oneseek", "x-ai/grok-4"]);
    // Grok 4 reasons: 2,000 tokens of thinking room on top of the answer's 800.
    expect(turns.map((r) => [r.body.model, r.body.max_tokens ?? r.body.max_completion_tokens]).sort()).toEqual([
      ["anthropic/claude-sonnet-4.5", 800],
      ["internal/oneseek", 800],
      ["x-ai/grok-4", 2800],
    ]);
    // Research: two queries searched in parallel with ≤3 results, the critic kept 0 and 2, cut to 300 characters.
    expect(tavily.seen.filter((r) => r.body.query === "ai act status")).toHaveLength(3);
    expect(tavily.seen.every((r) => r.body.max_results === 3)).toBe(true);
    const oneseekTurn = turns.find((r) => r.body.model === "internal/oneseek")!;
    const system = oneseekTurn.body.messages[0].content as string;
    expect(system).toContain(`Dagens datum är ${new Date().toISOString().slice(0, 10)}`);
    // The research follows the round's instruction, the turn's last message (so the next call's prefix is the same without it).
    const research = text(oneseekTurn.body.messages.at(-1));
    expect(text(oneseekTurn.body.messages.at(-2))).toContain("Runda 1 — Introduktion");
    expect(research).toContain("[Tavily Result] Result 0 for ai act status: fact 0");
    expect(research).not.toContain("Result 1 for ai act status");
    const line = research.split("\n").find((l) => l.startsWith("[Tavily Result] Result 0"))!;
    expect(line.length).toBeLessThanOrEqual("[Tavily Result] Result 0 for ai act status: ".length + 300);
    // The kept results are OneSeek's sources, on its turns' end events; nobody else's.
    const ends = events.filter((e) => e.event === "debate-participant-end").map((e) => e.data as { model_key: string; sources?: unknown });
    expect(ends.filter((e) => e.model_key !== "call_oneseek").every((e) => e.sources === undefined)).toBe(true);
    expect(ends.find((e) => e.model_key === "call_oneseek")!.sources).toEqual(
      expect.arrayContaining([{ url: "https://example.org/ai%20act%20status/0", title: "Result 0 for ai act status" }]),
    );
    expect(events.at(-1)!.event).toBe("done");
  });

  it("aborts the HTTP request to the model when the run is cancelled", async () => {
    const openai = await startFakeOpenAI((body) => ({ ...debater(body), delayMs: 2_000 }));
    cleanups.push(openai.close);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const events = await collect({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: openai.baseURL, DEBATE_PARTICIPANTS: roster }, "/debatt X", controller.signal);
    await new Promise((r) => setTimeout(r, 200));
    expect(openai.seen).toHaveLength(1);
    expect(openai.seen[0].aborted).toBe(true);
    expect(events.at(-1)!.event).toBe("done");
  });

  it("answers chat through the supervisor, calling web search when the model asks", async () => {
    let calls = 0;
    const openai = await startFakeOpenAI((body) =>
      calls++ === 0 && body.tools?.length ? { toolCall: { name: "web_search", args: { query: "väder Stockholm" } } } : { text: "Det blir sol i Stockholm." },
    );
    const tavily = await startFakeTavily(1);
    cleanups.push(openai.close, tavily.close);
    const events = await collect(
      { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: openai.baseURL, TAVILY_API_KEY: "k", TAVILY_BASE_URL: tavily.url },
      "Hur blir vädret?",
    );
    expect(
      events
        .filter((e) => e.event === "text-delta")
        .map((e) => e.data.delta)
        .join(""),
    ).toBe("Det blir sol i Stockholm.");
    expect(tavily.seen[0].body.query).toBe("väder Stockholm");
    const second = openai.seen[1].body.messages;
    expect(second.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_1" });
    expect(second[0].content).toContain("/debatt");
  });

  it("times a web search out even though @tavily/core takes no signal", async () => {
    const silent = await startSilentServer();
    cleanups.push(silent.close);
    const search = createTavilySearch({ apiKey: "k", baseUrl: silent.url, timeoutMs: 200 });
    // The silent server never answers: only the timeout can end the search.
    await expect(search.search("q", { maxResults: 3, maxChars: 300 })).rejects.toThrow();
  });
});

describe("what a call to an OpenAI-compatible endpoint used", () => {
  it("reads the tokens (cached ones too) and the provider's own cost, streamed and not", async () => {
    const usage = { prompt_tokens: 120, completion_tokens: 30, prompt_tokens_details: { cached_tokens: 100 }, cost: 0.00042 };
    const openai = await startFakeOpenAI(() => ({ text: "An answer in several words.", usage }));
    cleanups.push(openai.close);
    const models = new OpenAIModelFactory(loadSettings({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: openai.baseURL }));
    const model = models.create({ phase: "answer", participant: defaultRoster()[1] });
    const streamed = await streamMessage(model, [new HumanMessage("Which language?")], new AbortController().signal, () => {});
    // The stream asked for the usage chunk, and the answer carries what it said.
    expect(openai.seen.at(-1)!.body.stream_options).toEqual({ include_usage: true });
    expect(callTokensOf(streamed)).toEqual({ input_tokens: 120, output_tokens: 30, cached_tokens: 100, reasoning_tokens: 0, cost_usd: 0.00042 });
    const whole = (await model.invoke([new HumanMessage("Which language?")])) as AIMessage;
    expect(callTokensOf(whole)).toEqual({ input_tokens: 120, output_tokens: 30, cached_tokens: 100, reasoning_tokens: 0, cost_usd: 0.00042 });
    // Without a cost, tokens only (the price table prices them).
    const { cost: _, ...tokensOnly } = usage;
    const plain = await startFakeOpenAI(() => ({ text: "Another answer.", usage: tokensOnly }));
    cleanups.push(plain.close);
    const other = new OpenAIModelFactory(loadSettings({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: plain.baseURL })).create({
      phase: "answer",
      participant: defaultRoster()[1],
    });
    expect(callTokensOf(await streamMessage(other, [new HumanMessage("x")], new AbortController().signal, () => {}))).toEqual({
      input_tokens: 120,
      output_tokens: 30,
      cached_tokens: 100,
      reasoning_tokens: 0,
    });
  });
});

describe("a provider's prompt cache", () => {
  it("marks the last message of a call to an Anthropic model with a cache_control breakpoint, and leaves other models' calls as they are", async () => {
    const openai = await startFakeOpenAI(() => ({ text: "ok" }));
    cleanups.push(openai.close);
    const models = new OpenAIModelFactory(loadSettings({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: openai.baseURL }));
    const [grok, claude] = defaultRoster();
    expect(claude.model).toMatch(/^anthropic\//);
    const messages = [new SystemMessage("You debate."), new HumanMessage("The debate so far, then the round's instruction.")];
    await streamMessage(models.create({ phase: "turn", participant: claude }), messages, new AbortController().signal, () => {});
    await streamMessage(models.create({ phase: "turn", participant: grok }), messages, new AbortController().signal, () => {});
    const [toClaude, toGrok] = openai.seen.map((r) => r.body.messages);
    expect(toClaude).toEqual([
      { role: "system", content: "You debate." },
      { role: "user", content: [{ type: "text", text: "The debate so far, then the round's instruction.", cache_control: { type: "ephemeral" } }] },
    ]);
    expect(toGrok).toEqual([
      { role: "system", content: "You debate." },
      { role: "user", content: "The debate so far, then the round's instruction." },
    ]);
  });
});

describe("real providers and their errors", () => {
  /** A roster of two: Claude at its own endpoint with its own key, Grok at the global one. */
  const mixed = (claudeUrl: string) =>
    JSON.stringify([
      { key: "call_grok", display: "Grok", model: "x-ai/grok-4" },
      { key: "call_claude", display: "Claude", model: "anthropic/claude-sonnet-4.5", baseUrl: claudeUrl, apiKeyEnv: "CLAUDE_KEY" },
    ]);

  it("calls each participant at its own endpoint with its own key, and the internal model at ONESEEK_BASE_URL", async () => {
    const global = await startFakeOpenAI(() => ({ text: "Global answer." }));
    const own = await startFakeOpenAI(() => ({ text: "Own answer." }));
    cleanups.push(global.close, own.close);
    const env = {
      OPENAI_API_KEY: "sk-global",
      OPENAI_BASE_URL: global.baseURL,
      CLAUDE_KEY: "sk-claude",
      DEBATE_PARTICIPANTS: mixed(own.baseURL),
      ONESEEK_BASE_URL: own.baseURL,
      ONESEEK_API_KEY: "sk-internal",
    };
    const events = await collect(env, "/compare Tabs or spaces?");
    expect(events.filter((e) => e.event === "compare-answer-end").map((e) => [e.data.model, e.data.status])).toEqual(
      expect.arrayContaining([
        ["Grok", "ok"],
        ["Claude", "ok"],
      ]),
    );
    expect(global.seen.map((r) => [r.body.model, r.authorization])).toEqual([["x-ai/grok-4", "Bearer sk-global"]]);
    expect(own.seen.map((r) => [r.body.model, r.authorization])).toEqual([["anthropic/claude-sonnet-4.5", "Bearer sk-claude"]]);
    // The key itself never reaches the events.
    expect(JSON.stringify(events)).not.toContain("sk-claude");
  });

  it("calls the internal model's tasks, OneSeek and the default chairman at ONESEEK_*, a model named through ALLOWED_MODELS at the global endpoint", () => {
    const settings = loadSettings({
      OPENAI_API_KEY: "sk-global",
      OPENAI_BASE_URL: "http://global.example/v1",
      ONESEEK_BASE_URL: "http://internal.example/v1",
      ONESEEK_API_KEY: "sk-internal",
      CLAUDE_KEY: "sk-claude",
      ALLOWED_MODELS: "meta/llama-4",
      DEBATE_PARTICIPANTS: JSON.stringify([
        ...JSON.parse(mixed("http://claude.example/v1")),
        { key: "call_oneseek", display: "OneSeek", model: "openai/gpt-4.1-mini", oneseek: true },
      ]),
    });
    const at = (p?: Parameters<typeof endpointOf>[1]) => {
      const e = endpointOf(settings, p);
      return [e.baseUrl, e.keyVar];
    };
    expect(at(undefined)).toEqual(["http://internal.example/v1", "ONESEEK_API_KEY"]);
    expect(at({ key: "chairman", display: "Chairman", model: settings.oneseekModel })).toEqual(["http://internal.example/v1", "ONESEEK_API_KEY"]);
    expect(at(settings.roster.find((p) => p.key === "call_oneseek"))).toEqual(["http://internal.example/v1", "ONESEEK_API_KEY"]);
    expect(at(settings.roster.find((p) => p.key === "call_claude"))).toEqual(["http://claude.example/v1", "CLAUDE_KEY"]);
    expect(at(settings.roster.find((p) => p.key === "call_grok"))).toEqual(["http://global.example/v1", "OPENAI_API_KEY"]);
    expect(at({ key: "model_meta_llama_4", display: "llama-4", model: "meta/llama-4" })).toEqual(["http://global.example/v1", "OPENAI_API_KEY"]);
    // Without a global key, a model named through ALLOWED_MODELS would have none.
    expect(() =>
      loadSettings({
        CLAUDE_KEY: "k",
        ONESEEK_API_KEY: "i",
        ALLOWED_MODELS: "*",
        DEBATE_PARTICIPANTS: JSON.stringify([
          JSON.parse(mixed("http://c.example/v1"))[1],
          { ...JSON.parse(mixed("http://c.example/v1"))[1], key: "call_two", display: "Two" },
        ]),
      }),
    ).toThrow(/ALLOWED_MODELS/);
  });

  it("refuses a roster whose key variable is not set, or a participant left without any key", () => {
    expect(() => loadSettings({ OPENAI_API_KEY: "k", DEBATE_PARTICIPANTS: mixed("http://127.0.0.1:9/v1") })).toThrow(
      /call_claude's key is read from CLAUDE_KEY .* not set/,
    );
    expect(() => loadSettings({ CLAUDE_KEY: "k", ONESEEK_API_KEY: "i", DEBATE_PARTICIPANTS: mixed("http://127.0.0.1:9/v1") })).toThrow(
      /call_grok name no apiKeyEnv/,
    );
    expect(() =>
      loadSettings({
        DEBATE_PARTICIPANTS: JSON.stringify([
          { key: "a", display: "A", model: "m", apiKeyEnv: "sk-live-123" },
          { key: "b", display: "B", model: "m" },
        ]),
      }),
    ).toThrow(/name of an environment variable/);
  });

  it.each([
    [401, undefined, "auth_failed", ["refused the key for x-ai/grok-4"]],
    [402, undefined, "insufficient_credits", ["no credits left"]],
    [404, undefined, "model_not_found", ["x-ai/grok-4 does not exist"]],
    [400, "context_length_exceeded", "context_too_long", ["longer than x-ai/grok-4 takes"]],
    [503, undefined, "provider_error", ["failed for x-ai/grok-4"]],
  ])(
    "tells a person what to do about HTTP %i (%s): %s; the endpoint and the key's variable only in the operator's log",
    async (status, errorCode, code, words) => {
      const openai = await startFakeOpenAI((body) => (body.model === "x-ai/grok-4" ? { status, errorCode } : { text: "Fine." }));
      cleanups.push(openai.close);
      const logs: string[] = [];
      const events = await collect(
        { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: openai.baseURL, DEBATE_MAX_RETRIES: "0", DEBATE_PARTICIPANTS: roster },
        "/compare Tabs or spaces?",
        undefined,
        (l) => logs.push(l),
      );
      const grok = events.find((e) => e.event === "compare-answer-end" && e.data.model === "Grok")!.data as { status: string; error: string };
      expect(grok.status).toBe("error");
      expect(grok.error).toContain(`(${code}, HTTP ${status})`);
      for (const w of words) expect(grok.error).toContain(w);
      // What a user reads names no endpoint, no address and no key variable (as /health/models hides them from users).
      expect(JSON.stringify(events)).not.toContain(new URL(openai.baseURL).host);
      expect(JSON.stringify(events)).not.toContain("OPENAI_API_KEY");
      expect(logs.find((l) => l.includes("x-ai/grok-4") && l.includes(`(${code}`))).toMatch(
        new RegExp(`${openai.baseURL.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}, key OPENAI_API_KEY`),
      );
    },
  );

  it("keeps an unreachable endpoint's address out of what the reader sees", async () => {
    const logs: string[] = [];
    const events = await collect(
      { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: "http://127.0.0.1:9/v1", DEBATE_MAX_RETRIES: "0", DEBATE_PARTICIPANTS: roster },
      "/compare Tabs or spaces?",
      undefined,
      (l) => logs.push(l),
    );
    const ends = events.filter((e) => e.event === "compare-answer-end").map((e) => e.data as { status: string; error: string });
    expect(ends.every((e) => e.status === "error" && /provider_error/.test(e.error))).toBe(true);
    // The address, not a number 9 (`"latency_ms":9`).
    expect(JSON.stringify(events)).not.toMatch(/127\.0\.0\.1|[^"]:9\b/);
    expect(logs.some((l) => l.includes("http://127.0.0.1:9/v1"))).toBe(true);
  });

  it("tries a 5xx again after a second, and never an account out of credit (429 insufficient_quota)", async () => {
    const calls: Record<string, number> = {};
    const openai = await startFakeOpenAI((body) => {
      calls[body.model] = (calls[body.model] ?? 0) + 1;
      if (body.model === "x-ai/grok-4") return calls[body.model] === 1 ? { status: 503 } : { text: "Grok, second time." };
      if (body.model === "anthropic/claude-sonnet-4.5") return { status: 429, errorCode: "insufficient_quota" };
      return { text: "Fine." };
    });
    cleanups.push(openai.close);
    const events = await collect(
      { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: openai.baseURL, DEBATE_MAX_RETRIES: "2", DEBATE_PARTICIPANTS: roster },
      "/compare Tabs or spaces?",
    );
    const end = (model: string) =>
      events.find((e) => e.event === "compare-answer-end" && e.data.model === model)!.data as { status: string; error?: string; latency_ms: number };
    expect(end("Grok")).toMatchObject({ status: "ok" });
    expect(end("Grok").latency_ms).toBeGreaterThanOrEqual(950);
    expect(calls["x-ai/grok-4"]).toBe(2);
    expect(end("Claude").error).toContain("(insufficient_credits, HTTP 429)");
    expect(calls["anthropic/claude-sonnet-4.5"]).toBe(1);
  });

  it("waits out a rate limit's Retry-After and tries again within the call's time", async () => {
    let grokCalls = 0;
    const openai = await startFakeOpenAI((body) => {
      if (body.model !== "x-ai/grok-4") return { text: "Fine." };
      grokCalls++;
      return grokCalls === 1 ? { status: 429, headers: { "retry-after": "1" } } : { text: "Grok after waiting." };
    });
    cleanups.push(openai.close);
    const events = await collect(
      { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: openai.baseURL, DEBATE_MAX_RETRIES: "1", DEBATE_PARTICIPANTS: roster },
      "/compare Tabs or spaces?",
    );
    const grok = events.find((e) => e.event === "compare-answer-end" && e.data.model === "Grok")!.data as { status: string; latency_ms: number };
    expect(grok.status).toBe("ok");
    expect(grokCalls).toBe(2);
    expect(grok.latency_ms).toBeGreaterThanOrEqual(950);
  });

  it("tries FALLBACK_MODEL when the synthesis model fails, before the computed fallback text", async () => {
    const openai = await startFakeOpenAI((body) => {
      const all = body.messages.map((m: any) => m.content).join("\n");
      if (all.includes("slutanalysen")) return body.model === "backup/model" ? { text: "## Sammanfattning\n\nReservmodellens analys." } : { status: 500 };
      return debater(body);
    });
    cleanups.push(openai.close);
    const env = {
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: openai.baseURL,
      DEBATE_MAX_RETRIES: "0",
      DEBATE_PARTICIPANTS: roster,
      FALLBACK_MODEL: "backup/model",
    };
    const events = await collect(env, "/debatt Bör AI regleras?");
    const synthesis = events
      .filter((e) => e.event === "text-delta")
      .map((e) => e.data.delta)
      .join("");
    expect(synthesis).toContain("Reservmodellens analys.");
    const synthesisCalls = openai.seen.filter((r) => r.body.messages?.some((m: any) => String(m.content).includes("slutanalysen")));
    expect(synthesisCalls.map((r) => r.body.model)).toEqual(["openai/gpt-4.1-mini", "backup/model"]);
  });

  it("prices a fallback's answer as the fallback model's", async () => {
    const openai = await startFakeOpenAI((body) => {
      const all = body.messages.map((m: any) => m.content).join("\n");
      if (all.includes("slutanalysen"))
        return body.model === "backup/model"
          ? { text: "## Sammanfattning\n\nReserv.", usage: { prompt_tokens: 1_000_000, completion_tokens: 0 } }
          : { status: 500 };
      return debater(body);
    });
    cleanups.push(openai.close);
    const prices = JSON.stringify({ "backup/model": { input: 7, output: 7 }, "openai/gpt-4.1-mini": { input: 1000, output: 1000 } });
    const env = {
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: openai.baseURL,
      DEBATE_MAX_RETRIES: "0",
      DEBATE_PARTICIPANTS: roster,
      FALLBACK_MODEL: "backup/model",
      MODEL_PRICES: prices,
      DEBATT_DATA_DIR: mkdtempSync(join(tmpdir(), "debatt-fallback-")),
    };
    const app = await startApp(depsFromEnv(env, { log: () => {} }));
    cleanups.push(app.close);
    const { events } = await readSse(await postChat(app.url, { message: "/debatt Bör AI regleras?" }));
    const usage = events.find((e) => e.event === "usage")!.data as { by_participant: Record<string, { cost_usd: number }> };
    expect(usage.by_participant.synthesis.cost_usd).toBe(7);
  });
});

describe("GET /api/v1/health/models", () => {
  it("names the configured model ids an endpoint does not list, per endpoint, and an endpoint that refuses its key", async () => {
    const global = await startFakeOpenAI(() => ({ text: "x" }), {
      models: ["x-ai/grok-4", "openai/gpt-4.1-mini", "openai/gpt-9.1", "anthropic/claude-opus-4"],
    });
    const own = await startFakeOpenAI(() => ({ status: 401 }), { modelsStatus: 401 });
    cleanups.push(global.close, own.close);
    const participants = JSON.stringify([
      { key: "call_grok", display: "Grok", model: "x-ai/grok-4" },
      { key: "call_gpt", display: "GPT", model: "openai/gpt-9-retired" },
      { key: "call_claude", display: "Claude", model: "anthropic/claude-sonnet-4.5", baseUrl: own.baseURL, apiKeyEnv: "CLAUDE_KEY" },
    ]);
    const deps = depsFromEnv(
      {
        OPENAI_API_KEY: "sk-global",
        OPENAI_BASE_URL: global.baseURL,
        CLAUDE_KEY: "sk-bad",
        DEBATE_PARTICIPANTS: participants,
        DEBATT_DATA_DIR: mkdtempSync(join(tmpdir(), "debatt-health-")),
      },
      { log: () => {} },
    );
    const app = await startApp(deps);
    cleanups.push(app.close);
    const health = (await (await fetch(`${app.url}/api/v1/health/models`)).json()) as {
      simulated: boolean;
      endpoints: { base_url: string; key_var: string; status: string; missing: string[] }[];
    };
    expect(health.simulated).toBe(false);
    expect(health.endpoints).toEqual(
      expect.arrayContaining([
        // A retired id is named with the listed one of its vendor nearest to it, never another vendor's.
        expect.objectContaining({
          base_url: global.baseURL,
          key_var: "OPENAI_API_KEY",
          status: "ok",
          missing: ["openai/gpt-9-retired"],
          nearest: { "openai/gpt-9-retired": "openai/gpt-9.1" },
        }),
        expect.objectContaining({ base_url: own.baseURL, key_var: "CLAUDE_KEY", status: "auth_failed" }),
      ]),
    );
    expect(own.seenModelLists[0].authorization).toBe("Bearer sk-bad");
    expect(JSON.stringify(health)).not.toContain("sk-");
  });

  it("says the models are simulated, without asking anyone, when no key is set", async () => {
    const app = await startApp(depsFromEnv({ DEBATT_DATA_DIR: mkdtempSync(join(tmpdir(), "debatt-health-")) }, { log: () => {} }));
    cleanups.push(app.close);
    expect(await (await fetch(`${app.url}/api/v1/health/models`)).json()).toEqual({ simulated: true, endpoints: [] });
  });
});

describe("what a provider's endpoint shows of itself", () => {
  it("never shows an endpoint's credentials, query or fragment", () => {
    expect(shownUrl("https://user:secret@gateway.example/v1/?key=sk-123#x")).toBe("https://gateway.example/v1");
    expect(shownUrl("http://localhost:11434/v1")).toBe("http://localhost:11434/v1");
  });

  it("tells a user with a token each endpoint's status and models, and only the admin where they are", async () => {
    const global = await startFakeOpenAI(() => ({ text: "x" }), { models: ["x-ai/grok-4"] });
    cleanups.push(global.close);
    const db = await sqliteHistory();
    cleanups.push(() => db.close());
    const admin = "admin-token-for-health-tests";
    const deps = depsFromEnv(
      {
        OPENAI_API_KEY: "sk-global",
        OPENAI_BASE_URL: global.baseURL,
        AUTH: "tokens",
        ADMIN_TOKEN: admin,
        DEBATT_DATA_DIR: mkdtempSync(join(tmpdir(), "debatt-health-")),
      },
      { log: () => {} },
    );
    const app = await startApp(deps, { history: db.history });
    cleanups.push(app.close);
    const created = await fetch(`${app.url}/api/v1/admin/users`, {
      method: "POST",
      headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "ada" }),
    });
    const { token } = (await created.json()) as { token: string };
    const as = async (t: string) =>
      (await (await fetch(`${app.url}/api/v1/health/models`, { headers: { authorization: `Bearer ${t}` } })).json()) as {
        endpoints: Record<string, unknown>[];
      };
    const user = await as(token);
    expect(user.endpoints.length).toBeGreaterThan(0);
    for (const e of user.endpoints) expect(Object.keys(e).sort()).toEqual(["missing", "models", "nearest", "status"]);
    expect((await as(admin)).endpoints[0]).toHaveProperty("base_url", global.baseURL);
  });
});
