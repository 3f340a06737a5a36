import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { HumanMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it } from "vitest";
import { OpenAIModelFactory, providerError } from "../providers/openai.js";
import { PHASE_OUTPUT_CAPS } from "../providers/output-caps.js";
import { loadSettings } from "../state/config.js";
import {
  budgetCeiling,
  defaultBudgetField,
  OPTIONAL_FIELDS,
  reasoningFields,
  refusedField,
  RequestShapes,
  type OptionalField,
} from "../providers/request-shape.js";
import { StreamChatModel } from "../providers/stream-chat-model.js";
import { depsFromEnv } from "../service/deps.js";
import { streamClientEvents } from "../service/stream.js";
import type { ClientEvent } from "../state/events.js";
import { graphOf } from "./support/harness.js";
import { recorded, RECORDED_ANSWER } from "./support/replay-provider.js";

/** A refusal as a provider wrote it (tests/fixtures/refusals/). */
interface Refusal {
  source: string;
  request: Record<string, unknown>;
  status: number;
  body: unknown;
}

const REFUSALS = fileURLToPath(new URL("./fixtures/refusals/", import.meta.url));
const refusal = (name: string): Refusal => JSON.parse(readFileSync(`${REFUSALS}${name}.json`, "utf8")) as Refusal;

/** The field of a fixture's request that its endpoint refuses: the one besides the model, `stream` and `messages`. */
const triggerOf = (r: Refusal) => Object.keys(r.request).find((k) => !["model", "stream", "messages"].includes(k))!;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/**
 * An endpoint that refuses, with the recorded body, every request carrying one of `refused`'s
 * trigger fields (a nested one, such as `stream_options.include_usage`, by its first part), or
 * that `refused` picks when it is a function, and answers any other with OpenAI's recorded stream.
 * It keeps each request's body. With `together`, the first that many requests are answered only
 * once all of them have come (calls at once, each written before any answer was read).
 */
async function startRefusingEndpoint(refused: Refusal[] | ((body: Record<string, unknown>) => Refusal | undefined), together = 0) {
  const seen: Record<string, unknown>[] = [];
  let arrived = () => {};
  const allIn = new Promise<void>((resolve) => (arrived = resolve));
  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw) as Record<string, unknown>;
    seen.push(body);
    if (seen.length === together) arrived();
    if (seen.length <= together) await allIn;
    const hit = typeof refused === "function" ? refused(body) : refused.find((r) => triggerOf(r) in body);
    if (hit) return void res.writeHead(hit.status, { "content-type": "application/json" }).end(JSON.stringify(hit.body));
    res.writeHead(200, { "content-type": "text/event-stream" }).end(recorded("openai.sse"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => (server.close(() => resolve()), server.closeAllConnections())));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

describe("what an endpoint refuses, read from the providers' real refusals", () => {
  it.each([
    ["openai-max-tokens", "max_tokens"],
    ["openai-reasoning-effort", "reasoning_effort"],
    ["openrouter-reasoning-mandatory", "reasoning"],
    ["groq-reasoning-effort-value", "reasoning_effort"],
    ["mistral-stream-options", "stream_options"],
    ["mistral-max-completion-tokens", "max_completion_tokens"],
    ["vllm-stream-options", "stream_options"],
    ["azure-openai-stream-options", "stream_options"],
    ["azure-ai-inference-stream-options", "stream_options"],
  ] as const)("%s refuses %s", (name, field) => {
    const r = refusal(name);
    const sent = OPTIONAL_FIELDS.filter((f) => f === field || f === "stream_options");
    expect(refusedField(r.status, JSON.stringify(r.body), sent)).toBe(field);
  });

  it("reads no refusal of a parameter in an unknown model, a bad key or a context overflow", () => {
    const sent: OptionalField[] = ["max_tokens", "stream_options"];
    for (const name of ["openai-unknown-model", "openrouter-unknown-model", "openrouter-no-endpoints"]) {
      const r = refusal(name);
      expect(refusedField(r.status, JSON.stringify(r.body), sent), name).toBeUndefined();
    }
    // A budget too large is a ceiling to learn, not a refusal of the field; a value refused is one only for the reasoning fields.
    for (const name of ["openai-max-tokens-too-large", "volcengine-max-completion-tokens-above-maximum"]) {
      const r = refusal(name);
      expect(refusedField(r.status, JSON.stringify(r.body), [...sent, "max_completion_tokens"]), name).toBeUndefined();
    }
    // debatt sends no temperature: a refusal of it is no refusal of what was sent.
    for (const name of ["openai-temperature", "openai-temperature-unsupported-parameter"])
      expect(refusedField(400, JSON.stringify(refusal(name).body), sent), name).toBeUndefined();
    expect(refusedField(401, JSON.stringify(refusal("openai-max-tokens").body), sent)).toBeUndefined();
  });

  it("reads the most a model takes as its budget from OpenAI's, Volcengine's, Anthropic's and Qwen's answers", () => {
    const ceiling = (name: string, sent: number) => {
      const r = refusal(name);
      return budgetCeiling(r.status, JSON.stringify(r.body), sent);
    };
    expect(ceiling("openai-max-tokens-too-large", 8192)).toBe(4096);
    expect(ceiling("volcengine-max-completion-tokens-above-maximum", 32000)).toBe(12288);
    expect(budgetCeiling(400, JSON.stringify({ error: { message: "max_tokens: 70000 > 64000, which is the maximum allowed" } }), 70000)).toBe(64000);
    expect(budgetCeiling(400, "InvalidParameter: Range of max_tokens should be [1, 8192]", 10000)).toBe(8192);
    // Not a ceiling: no smaller number, not a refusal at all, or a refusal of the field itself.
    expect(ceiling("openai-max-tokens-too-large", 4096)).toBeUndefined();
    expect(budgetCeiling(401, JSON.stringify(refusal("openai-max-tokens-too-large").body), 8192)).toBeUndefined();
    expect(ceiling("openai-max-tokens", 800)).toBeUndefined();
  });

  it("names an unknown model as missing, from OpenAI's 404 and OpenRouter's 400 and 404", () => {
    const endpoint = { baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", keyVar: "OPENAI_API_KEY" };
    for (const name of ["openai-unknown-model", "openrouter-unknown-model", "openrouter-no-endpoints"]) {
      const r = refusal(name);
      const message = `${r.status} ${(r.body as { error: { message: string } }).error.message}`;
      const err = providerError({ status: r.status, message }, "vendor/gone", endpoint) as { code: string };
      expect(err.code, name).toBe("model_not_found");
    }
  });

  it("sends the budget as max_completion_tokens to OpenAI's API, OpenRouter and Groq, as max_tokens elsewhere", () => {
    expect(defaultBudgetField("https://api.openai.com/v1")).toBe("max_completion_tokens");
    expect(defaultBudgetField("https://openrouter.ai/api/v1")).toBe("max_completion_tokens");
    expect(defaultBudgetField("https://api.groq.com/openai/v1")).toBe("max_completion_tokens");
    expect(defaultBudgetField("https://my-resource.openai.azure.com/openai/v1")).toBe("max_completion_tokens");
    // Ollama and DeepSeek ignore max_completion_tokens without a word: the cap would be lost.
    expect(defaultBudgetField("http://localhost:11434/v1")).toBe("max_tokens");
    expect(defaultBudgetField("https://api.deepseek.com/v1")).toBe("max_tokens");
    expect(defaultBudgetField("https://evil.example/api.openai.com")).toBe("max_tokens");
  });
});

describe("a call to an endpoint that refuses a parameter", () => {
  const ask = (model: StreamChatModel) => model.invoke([new HumanMessage("Kärnkraft?")]);

  it("learns max_completion_tokens from OpenAI's refusal, sends the call again once, and starts with it next time", async () => {
    const endpoint = await startRefusingEndpoint([refusal("openai-max-tokens")]);
    const shapes = new RequestShapes();
    const model = new StreamChatModel({ baseUrl: endpoint.baseUrl, apiKey: "k", model: "o3-mini", maxTokens: 800, shapes });
    expect((await ask(model)).content).toBe(RECORDED_ANSWER);
    // o3-mini reasons: 2,000 tokens of thinking room on top of the answer's 800, at low effort.
    expect(endpoint.seen.map((b) => [b.max_tokens, b.max_completion_tokens, b.reasoning_effort])).toEqual([
      [2800, undefined, "low"],
      [undefined, 2800, "low"],
    ]);
    // Another client of the same factory (another budget) knows it from the start.
    const other = new StreamChatModel({ baseUrl: endpoint.baseUrl, apiKey: "k", model: "o3-mini", maxTokens: 1600, shapes });
    expect((await ask(other)).content).toBe(RECORDED_ANSWER);
    expect(endpoint.seen.slice(2).map((b) => [b.max_tokens, b.max_completion_tokens])).toEqual([[undefined, 3600]]);
    // What is learnt is the endpoint's and the model's: another model there is asked as before.
    const gpt4o = new StreamChatModel({ baseUrl: endpoint.baseUrl, apiKey: "k", model: "gpt-4o", maxTokens: 800, shapes });
    await ask(gpt4o).catch(() => undefined);
    expect(endpoint.seen[3]).toMatchObject({ model: "gpt-4o", max_tokens: 800 });
    expect(endpoint.seen[3]).not.toHaveProperty("reasoning_effort");
  });

  it("goes back to max_tokens where Mistral refuses max_completion_tokens, and leaves out the stream_options it refuses", async () => {
    const endpoint = await startRefusingEndpoint([refusal("mistral-max-completion-tokens"), refusal("mistral-stream-options")]);
    // Played as a host first sent max_completion_tokens.
    const shapes = new RequestShapes(() => "max_completion_tokens");
    const model = new StreamChatModel({ baseUrl: endpoint.baseUrl, apiKey: "k", model: "mistral-large-latest", maxTokens: 500, shapes });
    const answer = await ask(model);
    expect(answer.content).toBe(RECORDED_ANSWER);
    expect(endpoint.seen).toHaveLength(3);
    expect(endpoint.seen.at(-1)).toMatchObject({ max_tokens: 500 });
    expect(endpoint.seen.at(-1)).not.toHaveProperty("stream_options");
    expect(endpoint.seen.at(-1)).not.toHaveProperty("max_completion_tokens");
    await ask(model);
    expect(endpoint.seen).toHaveLength(4);
  });

  it("gives up after the endpoint's second word on the same field, with its error", async () => {
    // An endpoint that refuses stream_options however it is asked (a broken proxy): one retry, then the refusal.
    const r = refusal("vllm-stream-options");
    const endpoint = await startRefusingEndpoint([{ ...r, request: { max_tokens: 1 } }]);
    const model = new StreamChatModel({ baseUrl: endpoint.baseUrl, apiKey: "k", model: "m", maxTokens: 100 });
    await expect(ask(model)).rejects.toMatchObject({ status: 400 });
    expect(endpoint.seen).toHaveLength(2);
  });

  it("sends again every call to one model that was written before its refusal was learnt (calls at once)", async () => {
    const endpoint = await startRefusingEndpoint([refusal("mistral-stream-options")], 3);
    const shapes = new RequestShapes();
    const asked = Array.from(
      { length: 3 },
      () => new StreamChatModel({ baseUrl: endpoint.baseUrl, apiKey: "k", model: "mistral-large-latest", maxTokens: 300, shapes }),
    );
    const answers = await Promise.all(asked.map(ask));
    expect(answers.map((a) => a.content)).toEqual([RECORDED_ANSWER, RECORDED_ANSWER, RECORDED_ANSWER]);
    // Three refused, three sent again without the field.
    expect(endpoint.seen.map((b) => "stream_options" in b)).toEqual([true, true, true, false, false, false]);
  });

  it("learns the most a model takes as its budget from OpenAI's refusal, and asks within it from then on", async () => {
    const tooLarge = refusal("openai-max-tokens-too-large");
    const endpoint = await startRefusingEndpoint((b) => ((b.max_completion_tokens as number) > 4096 ? tooLarge : undefined));
    const shapes = new RequestShapes(() => "max_completion_tokens");
    const model = new StreamChatModel({ baseUrl: endpoint.baseUrl, apiKey: "k", model: "gpt-4o", maxTokens: 800, reasoning: "high", shapes });
    expect((await ask(model)).content).toBe(RECORDED_ANSWER);
    expect((await ask(model)).content).toBe(RECORDED_ANSWER);
    expect(endpoint.seen.map((b) => b.max_completion_tokens)).toEqual([800 + 16_000, 4096, 4096]);
  });

  it("gives no thinking room to a model whose endpoint refused the effort asked of it", async () => {
    const endpoint = await startRefusingEndpoint([refusal("openai-reasoning-effort")]);
    const model = new StreamChatModel({ baseUrl: endpoint.baseUrl, apiKey: "k", model: "gpt-4o-mini", maxTokens: 800, reasoning: "medium" });
    expect((await ask(model)).content).toBe(RECORDED_ANSWER);
    expect(endpoint.seen.map((b) => [b.max_tokens, b.reasoning_effort])).toEqual([
      [800 + 6_000, "medium"],
      [800, undefined],
    ]);
  });

  it("asks a model that always reasons without `reasoning` when OpenRouter refuses to turn it off", () => {
    const r = refusal("openrouter-reasoning-mandatory");
    const shapes = new RequestShapes();
    const base = "https://openrouter.ai/api/v1";
    const wanted = { maxTokens: 800, stream_options: { include_usage: true }, ...reasoningFields(base, "off") };
    const sent = shapes.fields(base, "openai/gpt-5", wanted);
    expect(sent).toMatchObject({ reasoning: { enabled: false }, max_completion_tokens: 800 });
    expect(shapes.learn(base, "openai/gpt-5", sent, r.status, JSON.stringify(r.body))).toBe(true);
    expect(shapes.fields(base, "openai/gpt-5", wanted)).toEqual({ stream_options: { include_usage: true }, max_completion_tokens: 800 });
  });

  it("turns a /compare with o3-mini whole where each of its calls was refused before", async () => {
    const endpoint = await startRefusingEndpoint([{ ...refusal("openai-max-tokens"), request: { max_tokens: 1 } }]);
    const roster = JSON.stringify([
      { key: "call_o3_mini", display: "o3-mini", model: "o3-mini" },
      { key: "call_gpt_4o", display: "GPT-4o", model: "gpt-4o" },
    ]);
    const graph = graphOf(depsFromEnv({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: endpoint.baseUrl, DEBATE_PARTICIPANTS: roster }, { log: () => {} }));
    const events: ClientEvent[] = [];
    for await (const e of streamClientEvents(graph, { message: "/compare Tabs or spaces?" })) events.push(e);
    const ends = events.filter((e) => e.event === "compare-answer-end").map((e) => e.data as { model: string; status: string });
    expect(ends.map((e) => [e.model, e.status]).sort()).toEqual([
      ["GPT-4o", "ok"],
      ["o3-mini", "ok"],
    ]);
    expect(JSON.stringify(events)).not.toContain("max_tokens");
  });

  it("caps every call, also those whose node sets no budget: a ballot, a ranking, a moderator's numbers, every phase", async () => {
    const endpoint = await startRefusingEndpoint([]);
    const roster = JSON.stringify([
      { key: "call_plain", display: "Plain", model: "plain" },
      { key: "call_o3", display: "o3 mini", model: "o3-mini" },
    ]);
    const settings = loadSettings({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: endpoint.baseUrl, DEBATE_PARTICIPANTS: roster });
    const [plain, reasoner] = settings.roster;
    // A factory each: the recorded answer shows reasoning tokens, after which a model gets thinking room.
    // (The supervisor's tool-calling client is LangChain's, which reads a whole reply, not this endpoint's stream.)
    for (const phase of (Object.keys(PHASE_OUTPUT_CAPS) as (keyof typeof PHASE_OUTPUT_CAPS)[]).filter((p) => p !== "supervisor")) {
      await new OpenAIModelFactory(settings, () => {}).create({ phase, participant: plain }).invoke([new HumanMessage("Q")]);
      expect(endpoint.seen.at(-1), phase).toMatchObject({ max_tokens: PHASE_OUTPUT_CAPS[phase] });
    }
    // A model that reasons gets its thinking room on top of a ballot's cap too.
    await new OpenAIModelFactory(settings, () => {}).create({ phase: "ballot", participant: reasoner }).invoke([new HumanMessage("Q")]);
    expect(endpoint.seen.at(-1)).toMatchObject({ max_tokens: PHASE_OUTPUT_CAPS.ballot + 2_000 });
  });

  it("has a fixture for every refusal it reads, each naming its source", () => {
    const files = readdirSync(REFUSALS).filter((f) => f.endsWith(".json"));
    expect(files.length).toBeGreaterThanOrEqual(10);
    for (const f of files) expect((JSON.parse(readFileSync(`${REFUSALS}${f}`, "utf8")) as Refusal).source, f).toMatch(/https?:\/\//);
  });
});
