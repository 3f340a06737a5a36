import { readdirSync } from "node:fs";
import { createParser } from "eventsource-parser";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, readStream } from "../providers/http-post.js";
import { StreamReader, type StreamedAnswer } from "../providers/stream-reader.js";
import { recorded, startReplayProvider, STREAMS } from "./support/replay-provider.js";
import { depsFromEnv } from "../service/deps.js";
import { streamClientEvents } from "../service/stream.js";
import type { ClientEvent } from "../state/events.js";
import { graphOf } from "./support/harness.js";
import { createNarrator } from "../service/narrator.js";
import { MARKDOWN_STYLES } from "../service/narration.js";
import { translate } from "../state/messages/index.js";

const ANSWER = "Kärnkraft behövs i övergången, men förnybart ska bära systemet.";

/** What each recorded provider shape must come to. */
const EXPECTED: Record<string, Partial<StreamedAnswer> & { file: string }> = {
  "gpt-5": {
    file: "openai.sse",
    text: ANSWER,
    reasoning: "",
    ending: "stop",
    usage: { input_tokens: 120, output_tokens: 40, cached_tokens: 64, reasoning_tokens: 24 },
  },
  "x-ai/grok-4": {
    file: "openrouter.sse",
    text: ANSWER,
    reasoning: "Väger kostnad mot utsläpp.",
    ending: "stop",
    sources: [{ url: "https://example.org/iea", title: "IEA 2025" }],
    usage: { input_tokens: 200, output_tokens: 30, cached_tokens: 0, reasoning_tokens: 8, cost_usd: 0.00123 },
  },
  "anthropic/claude-sonnet-4.5": {
    file: "anthropic-openrouter.sse",
    text: ANSWER,
    reasoning: "Frågan gäller balans.",
    ending: "stop",
    usage: { input_tokens: 900, output_tokens: 45, cached_tokens: 800, reasoning_tokens: 0, cost_usd: 0.0042 },
  },
  "deepseek-reasoner": {
    file: "deepseek.sse",
    text: ANSWER,
    reasoning: "Jämför riskerna.",
    ending: "stop",
    usage: { input_tokens: 150, output_tokens: 60, cached_tokens: 100, reasoning_tokens: 20 },
  },
  "qwen/qwen3-32b": {
    file: "groq.sse",
    text: ANSWER,
    reasoning: "Kort övervägande.",
    ending: "stop",
    usage: { input_tokens: 80, output_tokens: 35, cached_tokens: 0, reasoning_tokens: 0 },
  },
  "magistral-medium-latest": {
    file: "mistral.sse",
    text: ANSWER,
    reasoning: "Jag väger för och emot.",
    ending: "stop",
    usage: { input_tokens: 90, output_tokens: 50, cached_tokens: 0, reasoning_tokens: 0 },
  },
  "sonar-pro": {
    file: "perplexity.sse",
    text: "Kärnkraft behövs [1] i övergången, men förnybart ska bära systemet. [2]",
    ending: "stop",
    sources: [
      { url: "https://example.org/iaea", title: "IAEA report" },
      { url: "https://example.org/irena", title: "IRENA outlook" },
    ],
    // The running totals are not summed: the last one is the call's.
    usage: { input_tokens: 12, output_tokens: 14, cached_tokens: 0, reasoning_tokens: 0, cost_usd: 0.00503 },
  },
  "grok-3-mini": {
    file: "xai.sse",
    text: ANSWER,
    reasoning: "Först frågan.",
    ending: "stop",
    usage: { input_tokens: 12, output_tokens: 299, cached_tokens: 11, reasoning_tokens: 290, cost_usd: 0.000146625 },
  },
  "qwen3-max": {
    file: "qwen.sse",
    text: ANSWER,
    reasoning: "Tänker.",
    ending: "stop",
    usage: { input_tokens: 70, output_tokens: 33, cached_tokens: 0, reasoning_tokens: 0 },
  },
  "qwen3:8b": {
    file: "ollama-think.sse",
    text: ANSWER,
    reasoning: "\nJag borde väga riskerna.",
    ending: "stop",
    usage: { input_tokens: 60, output_tokens: 40, cached_tokens: 0, reasoning_tokens: 0 },
  },
  "llama3.1": {
    file: "ollama-plain.sse",
    text: ANSWER,
    reasoning: "",
    ending: "stop",
    usage: { input_tokens: 60, output_tokens: 40, cached_tokens: 0, reasoning_tokens: 0 },
  },
  "deepseek-r1-distill-qwen-7b": {
    file: "vllm-think.sse",
    text: ANSWER,
    reasoning: "Riskerna först.",
    ending: "stop",
    usage: { input_tokens: 60, output_tokens: 40, cached_tokens: 0, reasoning_tokens: 0 },
  },
  "mistral-7b-instruct": {
    file: "vllm-plain.sse",
    text: ANSWER,
    reasoning: "",
    ending: "stop",
    usage: { input_tokens: 60, output_tokens: 40, cached_tokens: 0, reasoning_tokens: 0 },
  },
  "qwen3-8b.gguf": {
    file: "llamacpp-think.sse",
    text: ANSWER,
    reasoning: "Riskerna först, sen nyttan.",
    ending: "stop",
    usage: { input_tokens: 60, output_tokens: 40, cached_tokens: 0, reasoning_tokens: 0 },
  },
  "llama-3.1-8b.gguf": {
    file: "llamacpp-plain.sse",
    text: ANSWER,
    reasoning: "",
    ending: "stop",
    usage: { input_tokens: 60, output_tokens: 40, cached_tokens: 0, reasoning_tokens: 0 },
  },
  // The failure shapes.
  "failing/error-frame": { file: "error-frame.sse", text: "Kärnkraft behövs ", ending: "failed", message: "Upstream provider returned 502" },
  "failing/no-done": { file: "no-done.sse", text: "Kärnkraft behövs i övergången, men ", ending: "cut_off" },
  "failing/length": {
    file: "length.sse",
    text: "Kärnkraft behövs i övergången, men ",
    ending: "length",
    usage: { input_tokens: 10, output_tokens: 8, cached_tokens: 0, reasoning_tokens: 0 },
  },
  "failing/thought-away": {
    file: "reasoning-length-empty.sse",
    text: "",
    reasoning: "Väger kostnad mot utsläpp och lagring, igen och igen",
    ending: "length",
    usage: { input_tokens: 300, output_tokens: 2800, cached_tokens: 0, reasoning_tokens: 2800, cost_usd: 0.042 },
  },
  "failing/content-filter": { file: "content-filter.sse", text: "", ending: "content_filter" },
  "failing/refusal": { file: "refusal.sse", text: "", ending: "refused", message: "I can't help with that." },
  "failing/tool-calls": { file: "tool-calls.sse", text: "", ending: "tool_calls" },
  "failing/no-role": {
    file: "no-role.sse",
    text: ANSWER,
    ending: "stop",
    usage: { input_tokens: 10, output_tokens: 20, cached_tokens: 0, reasoning_tokens: 0 },
  },
  "failing/html": { file: "html-200.html", text: "", ending: "failed" },
};

describe("every provider's recorded stream, read over HTTP", () => {
  let provider: Awaited<ReturnType<typeof startReplayProvider>>;
  beforeAll(async () => {
    provider = await startReplayProvider(Object.fromEntries(Object.entries(EXPECTED).map(([model, e]) => [model, e.file])));
  });
  afterAll(() => provider?.close());

  it("has a recorded stream for every shape in the folder, each saying where its shape comes from", () => {
    const files = readdirSync(STREAMS).sort();
    expect(files).toEqual(
      Object.values(EXPECTED)
        .map((e) => e.file)
        .sort(),
    );
    for (const f of files.filter((f) => f.endsWith(".sse"))) expect(recorded(f), f).toMatch(/^: shape of /);
  });

  it.each(Object.entries(EXPECTED))("%s: the answer, its reasoning apart, its sources, how it ended and its usage counted once", async (model, expected) => {
    const texts: string[] = [];
    const thoughts: string[] = [];
    // Read as the product reads it: Node's HTTP client, the bytes as they come.
    const res = await post(
      `${provider.baseURL}/chat/completions`,
      { "content-type": "application/json" },
      JSON.stringify({ model, stream: true, messages: [] }),
    );
    const answer = await readStream(res, new StreamReader({ text: (d) => texts.push(d), reasoning: (d) => thoughts.push(d) }));
    const { file: _, ...want } = expected;
    expect(answer).toMatchObject(want);
    // A stream that reports no usage has none made up for it.
    if (!("usage" in expected)) expect(answer.usage).toBeUndefined();
    if (expected.sources === undefined) expect(answer.sources).toEqual([]);
    // What streamed is the answer and the reasoning, each apart, as they came (a template's bare
    // end tag aside: its thinking is only known to be thinking once the tag comes).
    if (expected.file !== "llamacpp-think.sse") {
      expect(texts.join("")).toBe(answer.text);
      expect(thoughts.join("")).toBe(answer.reasoning);
    }
    if (expected.file === "html-200.html") expect(answer.message).toMatch(/answered 200 with text\/html.*not an event stream.*Sign in/);
  });
});

/** A recorded stream's chunks, parsed as an SSE client would. */
function chunksOf(file: string): unknown[] {
  const chunks: unknown[] = [];
  const parser = createParser({ onEvent: (e) => e.data !== "[DONE]" && chunks.push(JSON.parse(e.data)) });
  parser.feed(recorded(file));
  return chunks;
}

describe("a <think> block, however the stream is cut", () => {
  it("comes apart the same for every split of its content into chunks", () => {
    const content = chunksOf("ollama-think.sse")
      .map((c: any) => c.choices?.[0]?.delta?.content ?? "")
      .join("");
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: content.length - 1 }), { maxLength: 12 }), (cuts) => {
        const at = [0, ...[...new Set(cuts)].sort((a, b) => a - b), content.length];
        const reader = new StreamReader();
        for (let i = 1; i < at.length; i++) reader.read({ choices: [{ delta: { content: content.slice(at[i - 1], at[i]) } }] });
        reader.read({ choices: [{ delta: {}, finish_reason: "stop" }] });
        const answer = reader.end(true);
        expect(answer.text).toBe(ANSWER);
        expect(answer.reasoning).toBe("\nJag borde väga riskerna.");
      }),
      { numRuns: 300 },
    );
  });

  it("leaves a think tag later in the answer as written, and an answer that only looks like one", () => {
    const read = (content: string) => {
      const reader = new StreamReader();
      reader.read({ choices: [{ delta: { content }, finish_reason: "stop" }] });
      return reader.end(true);
    };
    expect(read("Svaret: taggen <think> betyder tänkande.")).toMatchObject({ text: "Svaret: taggen <think> betyder tänkande.", reasoning: "" });
    expect(read("<thin client>")).toMatchObject({ text: "<thin client>", reasoning: "" });
  });
});

describe("every provider's recorded stream through /compare and /debatt", () => {
  /** Eight participants, each behind one provider's recorded stream. */
  const SHAPES = ["gpt-5", "x-ai/grok-4", "deepseek-reasoner", "qwen/qwen3-32b", "magistral-medium-latest", "grok-3-mini", "qwen3:8b", "qwen3-8b.gguf"];
  const NAMES = ["OpenAI", "OpenRouter", "DeepSeek", "Groq", "Mistral", "xAI", "Ollama", "LlamaCpp"];
  const roster = JSON.stringify(SHAPES.map((model, i) => ({ key: `call_p${i}`, display: NAMES[i], model })));
  let provider: Awaited<ReturnType<typeof startReplayProvider>>;
  beforeAll(async () => {
    provider = await startReplayProvider(Object.fromEntries(Object.entries(EXPECTED).map(([model, e]) => [model, e.file])));
  });
  afterAll(() => provider?.close());

  const run = async (message: string) => {
    const graph = graphOf(
      depsFromEnv(
        { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: provider.baseURL, DEBATE_PARTICIPANTS: roster, ONESEEK_MODEL: "gpt-5", DEBATE_MAX_RETRIES: "0" },
        { log: () => {} },
      ),
    );
    const events: ClientEvent[] = [];
    for await (const e of streamClientEvents(graph, { message }, {})) events.push(e);
    return events;
  };

  it("/compare: each answer is the answer alone, streamed as it came, its words counted without the reasoning, its usage once", async () => {
    const events = await run("/compare Behövs kärnkraft?");
    for (const [i, model] of SHAPES.entries()) {
      const end = events.find((e) => e.event === "compare-answer-end" && e.data.model_key === `call_p${i}`)!.data as any;
      const streamed = events
        .filter((e) => e.event === "compare-answer-delta" && e.data.model_key === `call_p${i}`)
        .map((e) => (e.data as any).delta)
        .join("");
      expect(end.status, model).toBe("ok");
      // A template that opened the think block itself shows its thinking live until the end tag
      // comes (nothing says it is thinking before); the answer kept and counted is the answer alone.
      if (model === "qwen3-8b.gguf") expect(streamed, model).toContain(ANSWER);
      else expect(streamed, model).toBe(ANSWER);
      expect(end.word_count, model).toBe(9);
      const usage = EXPECTED[model].usage;
      if (usage)
        expect(end.usage, model).toMatchObject({
          calls: 1,
          input_tokens: usage.input_tokens,
          output_tokens: usage.output_tokens,
          cached_tokens: usage.cached_tokens,
        });
    }
    expect(events.at(-1)!.event).toBe("done");
  });

  it("a provider that fails mid-stream, or answers with an HTML page, is a provider_error that names what came", async () => {
    const graph = graphOf(
      depsFromEnv(
        {
          OPENAI_API_KEY: "sk-test",
          OPENAI_BASE_URL: provider.baseURL,
          DEBATE_MAX_RETRIES: "0",
          ONESEEK_MODEL: "gpt-5",
          DEBATE_PARTICIPANTS: JSON.stringify([
            { key: "call_a", display: "Alfa", model: "failing/error-frame" },
            { key: "call_b", display: "Beta", model: "failing/html" },
          ]),
        },
        { log: () => {} },
      ),
    );
    const events: ClientEvent[] = [];
    for await (const e of streamClientEvents(graph, { message: "/compare Behövs kärnkraft?" }, {})) events.push(e);
    const end = (key: string) => events.find((e) => e.event === "compare-answer-end" && e.data.model_key === key)!.data as any;
    expect(end("call_a")).toMatchObject({
      status: "error",
      error: expect.stringMatching(/failed for failing\/error-frame: .*Upstream provider returned 502.*\(provider_error, HTTP 502\)/),
    });
    expect(end("call_b")).toMatchObject({ status: "error", error: expect.stringMatching(/answered 200 with text\/html.*\(provider_error, HTTP 502\)/) });
  });

  it("each answer keeps its reasoning and sources beside it (events, the run's answer), and says how it ended when not whole", async () => {
    const shapes = {
      "x-ai/grok-4": "OpenRouter",
      "sonar-pro": "Perplexity",
      "deepseek-reasoner": "DeepSeek",
      "failing/length": "Cut",
      "failing/no-done": "Broken",
      "failing/content-filter": "Filtered",
      "failing/refusal": "Refuser",
      "failing/tool-calls": "Tooler",
    };
    const participants = Object.entries(shapes).map(([model, display], i) => ({ key: `call_q${i}`, display, model }));
    const graph = graphOf(
      depsFromEnv(
        {
          OPENAI_API_KEY: "sk-test",
          OPENAI_BASE_URL: provider.baseURL,
          DEBATE_MAX_RETRIES: "0",
          ONESEEK_MODEL: "gpt-5",
          DEBATE_PARTICIPANTS: JSON.stringify(participants),
        },
        { log: () => {} },
      ),
    );
    const events: ClientEvent[] = [];
    for await (const e of streamClientEvents(graph, { message: "/compare Behövs kärnkraft?" }, {})) events.push(e);
    const end = (display: string) => events.find((e) => e.event === "compare-answer-end" && e.data.model === display)!.data as any;
    // OpenRouter (reasoning, url_citation), Perplexity (citations, search_results), DeepSeek (reasoning_content).
    expect(end("OpenRouter")).toMatchObject({
      status: "ok",
      reasoning: "Väger kostnad mot utsläpp.",
      sources: [{ url: "https://example.org/iea", title: "IEA 2025" }],
    });
    expect(end("Perplexity")).toMatchObject({ status: "ok", sources: [{ url: "https://example.org/iaea" }, { url: "https://example.org/irena" }] });
    expect(end("Perplexity").reasoning).toBeUndefined();
    expect(end("DeepSeek")).toMatchObject({ status: "ok", reasoning: "Jämför riskerna." });
    // Cut by the token limit, or a stream that stopped without [DONE]: kept, and marked.
    expect(end("Cut")).toMatchObject({ status: "ok", ending: "length", word_count: 5 });
    expect(end("Broken")).toMatchObject({ status: "ok", ending: "cut_off", word_count: 5 });
    // A content filter, a refusal (with the provider's words) and a call for tools are named, not "an empty answer".
    expect(end("Filtered")).toMatchObject({ status: "error", ending: "content_filter", error: expect.stringMatching(/^content_filter: /) });
    expect(end("Refuser")).toMatchObject({ status: "error", ending: "refused", error: "refused: I can't help with that." });
    expect(end("Tooler")).toMatchObject({ status: "error", ending: "tool_calls", error: expect.stringMatching(/^tool_calls: /) });
    // What the OpenAI-compatible and MCP surfaces give as the result: each answer with its sources after it.
    let result = "";
    const narrate = createNarrator(
      (text, part) => void (part === "result" && (result += text)),
      MARKDOWN_STYLES,
      (key, values) => translate("en", key, values),
    );
    events.forEach(narrate);
    expect(result).toContain(
      "Kärnkraft behövs [1] i övergången, men förnybart ska bära systemet. [2]\n\n   Sources:\n   - [1] IAEA report <https://example.org/iaea>\n   - [2] IRENA outlook <https://example.org/irena>\n",
    );
    expect(result).toContain("   ⚠ cut at the token limit");
    expect(result).not.toContain("Väger kostnad");
  });

  it("/debatt: no reasoning reaches the turns the others read, and the debate finishes", async () => {
    const events = await run("/debatt --order simultaneous Behövs kärnkraft?");
    expect(events.at(-1)!.event).toBe("done");
    const turns = events.filter((e) => e.event === "debate-participant-end").map((e) => e.data as any);
    expect(turns.length).toBe(SHAPES.length * 3);
    expect(turns.every((t) => t.status === "ok" && t.word_count === 9)).toBe(true);
    // What the later rounds were sent holds the answers and none of the reasoning.
    const asked = JSON.stringify(provider.seen.filter((b) => JSON.stringify(b.messages).includes("Kärnkraft behövs")));
    for (const thought of [
      "Väger kostnad",
      "Jämför riskerna",
      "Kort övervägande",
      "Jag väger",
      "Först frågan",
      "Jag borde väga",
      "Riskerna först",
      "<think>",
      "</think>",
    ])
      expect(asked, thought).not.toContain(thought);
  });
});
