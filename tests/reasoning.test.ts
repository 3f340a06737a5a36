import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { HumanMessage, type AIMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it } from "vitest";
import { reasoningFields } from "../providers/request-shape.js";
import { StreamChatModel } from "../providers/stream-chat-model.js";
import { depsFromEnv } from "../service/deps.js";
import { streamClientEvents } from "../service/stream.js";
import { estimateRun } from "../state/estimate.js";
import type { ClientEvent } from "../state/events.js";
import { effortFor, reasonsByDefault, retryRoom, THINKING_ROOM } from "../state/reasoning.js";
import { usageOfAnswer } from "../state/usage.js";
import { PHASE_OUTPUT_CAPS } from "../providers/output-caps.js";
import { graphOf } from "./support/harness.js";
import { recorded, RECORDED_ANSWER } from "./support/replay-provider.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/**
 * An endpoint whose models think: a request whose cap (either field) is below `needs` gets the
 * recorded answer whose thinking used the whole cap, any other OpenRouter's recorded answer.
 */
async function startThinkingEndpoint(needs: number) {
  const seen: Record<string, any>[] = [];
  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw) as Record<string, any>;
    seen.push(body);
    const cap = body.max_tokens ?? body.max_completion_tokens ?? Infinity;
    res.writeHead(200, { "content-type": "text/event-stream" }).end(recorded(cap < needs ? "reasoning-length-empty.sse" : "openrouter.sse"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => (server.close(() => resolve()), server.closeAllConnections())));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

/** An endpoint that answers each chat request with `answer` (given the response and the request's body); its base URL. */
async function startEndpoint(answer: (res: ServerResponse, body: Record<string, unknown>) => void): Promise<string> {
  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    answer(res, JSON.parse(raw) as Record<string, unknown>);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => (server.close(() => resolve()), server.closeAllConnections())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

describe("reasoning budgeted apart from the answer", () => {
  it("knows the default roster's reasoning models by their ids, and gives them low effort unless told otherwise", () => {
    for (const m of ["x-ai/grok-4", "openai/gpt-5", "google/gemini-2.5-pro", "o3-mini", "deepseek/deepseek-r1", "qwen/qwen3-235b-a22b-thinking-2507"])
      expect(reasonsByDefault(m), m).toBe(true);
    for (const m of [
      "anthropic/claude-sonnet-4.5",
      "openai/gpt-4.1-mini",
      "openai/gpt-5-chat",
      "gpt-4o",
      "deepseek/deepseek-chat-v3.1",
      "perplexity/sonar-pro",
    ])
      expect(reasonsByDefault(m), m).toBe(false);
    expect(effortFor("openai/gpt-5", undefined, undefined)).toBe("low");
    expect(effortFor("gpt-4o", undefined, undefined)).toBeUndefined();
    expect(effortFor("gpt-4o", undefined, undefined, true)).toBe("low");
    expect(effortFor("openai/gpt-5", undefined, "high")).toBe("high");
    expect(effortFor("openai/gpt-5", "off", "high")).toBe("off");
    expect(retryRoom("off")).toBe(THINKING_ROOM.medium);
    expect(retryRoom("high")).toBe(2 * THINKING_ROOM.high);
  });

  it("asks OpenRouter as `reasoning: {effort}` and OpenAI's API as `reasoning_effort`", () => {
    expect(reasoningFields("https://openrouter.ai/api/v1", "medium")).toEqual({ reasoning: { effort: "medium" } });
    expect(reasoningFields("https://openrouter.ai/api/v1", "off")).toEqual({ reasoning: { enabled: false } });
    expect(reasoningFields("https://api.openai.com/v1", "high")).toEqual({ reasoning_effort: "high" });
    expect(reasoningFields("https://api.openai.com/v1", "off")).toEqual({});
    expect(reasoningFields("https://api.openai.com/v1", undefined)).toEqual({});
  });

  it("asks once more with more room when the thinking used the whole cap, and counts both calls", async () => {
    const endpoint = await startThinkingEndpoint(5_000);
    const model = new StreamChatModel({ baseUrl: endpoint.baseUrl, apiKey: "k", model: "x-ai/grok-4", maxTokens: 800 });
    const streamed: string[] = [];
    const answer = (await model.invoke([new HumanMessage("Kärnkraft?")], { onText: (t: string) => streamed.push(t) })) as AIMessage;
    expect(answer.content).toBe(RECORDED_ANSWER);
    expect(streamed.join("")).toBe(RECORDED_ANSWER);
    // The answer's 800 with low effort's 2,000 of thinking, then with the retry's 6,000.
    expect(endpoint.seen.map((b) => b.max_tokens)).toEqual([2_800, 6_800]);
    expect(endpoint.seen.every((b) => b.reasoning_effort === "low")).toBe(true);
    // Both calls' tokens and cost: 300 + 5 in, 2,800 + 12 out (OpenRouter's recorded usage).
    const first = { input: 300, output: 2_800, cost: 0.042 };
    expect(answer.usage_metadata!.input_tokens).toBeGreaterThan(first.input);
    expect(answer.usage_metadata!.output_tokens).toBeGreaterThan(first.output);
    expect((answer.response_metadata.usage as { cost: number }).cost).toBeGreaterThan(first.cost);
  });

  it("counts the retried answer as two calls, and keeps the first when the second fails", async () => {
    const endpoint = await startThinkingEndpoint(5_000);
    const model = new StreamChatModel({ baseUrl: endpoint.baseUrl, apiKey: "k", model: "x-ai/grok-4", maxTokens: 800 });
    const answer = (await model.invoke([new HumanMessage("Kärnkraft?")])) as AIMessage;
    expect(usageOfAnswer("x-ai/grok-4", answer, {})).toMatchObject({ calls: 2 });
    // Now the second request fails: the first, paid for, is the answer, empty and cut, with its tokens.
    let asked = 0;
    const failing = await startEndpoint((res) =>
      ++asked === 1 ? res.writeHead(200, { "content-type": "text/event-stream" }).end(recorded("reasoning-length-empty.sse")) : res.writeHead(500).end("{}"),
    );
    const cut = (await new StreamChatModel({ baseUrl: failing, apiKey: "k", model: "x-ai/grok-4", maxTokens: 800 }).invoke([
      new HumanMessage("Q"),
    ])) as AIMessage;
    expect([asked, cut.content, cut.response_metadata.finish_reason]).toEqual([2, "", "length"]);
    expect(usageOfAnswer("x-ai/grok-4", cut, {})).toMatchObject({ calls: 1, output_tokens: 2_800 });
  });

  it("never asks again a model that does not think: its empty answer under the cap is its answer", async () => {
    // A base model that wrote only blank lines until its 48 tokens were spent, without reasoning.
    const chunk = (delta: object, finish: string | null, usage?: object) =>
      `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "gemma3", choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
    const bodies: Record<string, unknown>[] = [];
    const baseUrl = await startEndpoint((res, body) => {
      bodies.push(body);
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(
        `${chunk({ role: "assistant", content: "\n\n\n" }, null)}${chunk({}, "length", { prompt_tokens: 20, completion_tokens: 48, total_tokens: 68 })}data: [DONE]\n\n`,
      );
    });
    const answer = (await new StreamChatModel({ baseUrl, apiKey: "k", model: "gemma3", maxTokens: 48 }).invoke([new HumanMessage("Q")])) as AIMessage;
    expect(answer.response_metadata.finish_reason).toBe("length");
    expect(bodies.map((b) => b.max_tokens)).toEqual([48]);
    expect(usageOfAnswer("gemma3", answer, {})).toMatchObject({ calls: 1, output_tokens: 48 });
  });

  it("reports an answer that is still empty after its one retry as cut by the limit", async () => {
    const endpoint = await startThinkingEndpoint(Infinity);
    const model = new StreamChatModel({ baseUrl: endpoint.baseUrl, apiKey: "k", model: "x-ai/grok-4", maxTokens: 800, reasoning: "high" });
    const answer = (await model.invoke([new HumanMessage("Kärnkraft?")])) as AIMessage;
    expect(answer.content).toBe("");
    expect(answer.response_metadata.finish_reason).toBe("length");
    expect(endpoint.seen.map((b) => b.max_tokens)).toEqual([800 + THINKING_ROOM.high, 800 + 2 * THINKING_ROOM.high]);
    expect(answer.usage_metadata!.output_tokens).toBe(5_600);
  });

  it("gives a model it saw reasoning thinking room from its next call on", async () => {
    const endpoint = await startThinkingEndpoint(0);
    const model = new StreamChatModel({ baseUrl: endpoint.baseUrl, apiKey: "k", model: "acme/plain-chat", maxTokens: 800 });
    await model.invoke([new HumanMessage("Kärnkraft?")]);
    await model.invoke([new HumanMessage("Kärnkraft?")]);
    expect(endpoint.seen.map((b) => [b.max_tokens, b.reasoning_effort])).toEqual([
      [800, undefined],
      [2_800, "low"],
    ]);
  });

  it("takes the effort from the roster entry, and the run's over it, on every call of a /compare", async () => {
    const endpoint = await startThinkingEndpoint(0);
    const roster = JSON.stringify([
      { key: "call_gpt", display: "GPT-5", model: "openai/gpt-5", reasoning: "high" },
      { key: "call_claude", display: "Claude Sonnet 4.5", model: "anthropic/claude-sonnet-4.5" },
    ]);
    const graph = graphOf(depsFromEnv({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: endpoint.baseUrl, DEBATE_PARTICIPANTS: roster }, { log: () => {} }));
    const run = async (configurable: Record<string, unknown>) => {
      endpoint.seen.length = 0;
      const events: ClientEvent[] = [];
      for await (const e of streamClientEvents(graph, { message: "/compare Tabs or spaces?" }, { configurable })) events.push(e);
      expect(events.filter((e) => e.event === "compare-answer-end").every((e) => e.data.status === "ok")).toBe(true);
      return Object.fromEntries(endpoint.seen.filter((b) => b.max_tokens).map((b) => [b.model, [b.max_tokens, b.reasoning_effort]]));
    };
    expect(await run({})).toMatchObject({ "openai/gpt-5": [800 + THINKING_ROOM.high, "high"], "anthropic/claude-sonnet-4.5": [800, undefined] });
    expect(await run({ reasoning: "off" })).toMatchObject({ "openai/gpt-5": [800, undefined], "anthropic/claude-sonnet-4.5": [800, undefined] });
    expect(await run({ reasoning: "medium" })).toMatchObject({
      "openai/gpt-5": [800 + THINKING_ROOM.medium, "medium"],
      "anthropic/claude-sonnet-4.5": [800 + THINKING_ROOM.medium, "medium"],
    });
  });

  it("gives OneSeek's answer with tools (LangChain's client) the same thinking room and effort", async () => {
    const endpoint = await startThinkingEndpoint(0);
    const graph = graphOf(depsFromEnv({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: endpoint.baseUrl, ONESEEK_MODEL: "o3-mini" }, { log: () => {} }));
    for await (const e of streamClientEvents(graph, { message: "What is the capital of Sweden?" })) void e;
    const supervisor = endpoint.seen.filter(
      (b) => b.model === "o3-mini" && b.max_completion_tokens !== undefined && b.max_completion_tokens > PHASE_OUTPUT_CAPS.title,
    );
    expect(supervisor.length).toBeGreaterThan(0);
    expect(supervisor.map((b) => [b.max_completion_tokens, b.reasoning_effort])).toContainEqual([800 + THINKING_ROOM.low, "low"]);
  });

  it("refuses an effort it does not know, naming the field", () => {
    const roster = JSON.stringify([
      { key: "a", display: "A", model: "m", reasoning: "max" },
      { key: "b", display: "B", model: "m" },
    ]);
    expect(() => depsFromEnv({ DEBATE_PARTICIPANTS: roster }, { log: () => {} })).toThrow(/reasoning/);
  });

  it("counts the thinking of the models that reason in a run's estimate", () => {
    const inputs = {
      question: "Tabs or spaces?",
      internalModel: "openai/gpt-4.1-mini",
      responseTokensAsked: 800,
      contextChars: 600,
      maxRounds: 3,
      debate: false,
      research: false,
    };
    const plain = [
      { key: "a", display: "A", model: "openai/gpt-4.1" },
      { key: "b", display: "B", model: "anthropic/claude-sonnet-4.5" },
    ];
    const thinking = [{ key: "a", display: "A", model: "openai/gpt-5" }, plain[1]];
    const prices = {
      "openai/gpt-4.1": { input: 2, output: 8 },
      "openai/gpt-5": { input: 2, output: 8 },
      "anthropic/claude-sonnet-4.5": { input: 3, output: 15 },
    };
    const without = estimateRun("compare", plain, inputs, prices);
    const withThinking = estimateRun("compare", thinking, inputs, prices);
    expect(withThinking.output_tokens - without.output_tokens).toBe(THINKING_ROOM.low);
    expect(estimateRun("compare", thinking, { ...inputs, reasoning: "off" }, prices).output_tokens).toBe(without.output_tokens);
  });
});
