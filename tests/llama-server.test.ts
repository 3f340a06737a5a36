import OpenAI from "openai";
import { getLlama, type Llama, type LlamaModel } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { missingModelsReason, modelPaths, startLlamaServer, type LlamaServer } from "./support/llama-server.js";

/**
 * The test llama server (tests/support/llama-server.ts) on the two real small models that
 * scripts/fetch-models.sh caches: llama-server's wire shapes, real token counts, the official
 * OpenAI client, errors, and a closed connection freeing the one generation slot. No timing is
 * asserted: each test waits on the server's own events.
 */
const paths = modelPaths();
const slow = { timeout: 180_000 };
const france = [
  { role: "system", content: "You are a helpful assistant." },
  { role: "user", content: "What is the capital of France? Answer in one sentence." },
];

interface Chunk {
  object: string;
  choices: { index: number; finish_reason: string | null; delta: { role?: string; content?: string | null } }[];
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

describe.skipIf(!paths)(`the test llama server on real models${paths ? "" : ` (skipped: ${missingModelsReason()})`}`, () => {
  let server: LlamaServer | undefined;
  let url = "";
  let llama: Llama | undefined;
  let smolVocab: LlamaModel | undefined;

  beforeAll(async () => {
    server = await startLlamaServer({ models: { smollm2: paths!.smollm2, gemma3: paths!.gemma3 }, contextSize: 2048 });
    url = server.url;
    // The tokenizer alone, to count an answer's tokens independently of the server.
    llama = await getLlama({ gpu: false, build: "never", maxThreads: 1 });
    smolVocab = await llama.loadModel({ modelPath: paths!.smollm2, vocabOnly: true });
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    await smolVocab?.dispose();
    await llama?.dispose();
  });

  /** Posts a chat-completions body. */
  const post = (body: unknown, init: RequestInit = {}) =>
    fetch(`${url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), ...init });

  /** Reads an SSE body to its end: the JSON chunks, and whether `[DONE]` came last. */
  async function readStream(res: Response): Promise<{ chunks: Chunk[]; done: boolean }> {
    const events = (await res.text()).split("\n\n").filter(Boolean);
    for (const e of events) expect(e.startsWith("data: ")).toBe(true);
    const data = events.map((e) => e.slice("data: ".length));
    return { chunks: data.filter((d) => d !== "[DONE]").map((d) => JSON.parse(d) as Chunk), done: data.at(-1) === "[DONE]" };
  }

  const contentOf = (chunks: Chunk[]) => chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");

  it("lists the loaded models", async () => {
    const body = (await (await fetch(`${url}/v1/models`)).json()) as { object: string; data: { id: string; object: string }[] };

    expect(body.object).toBe("list");
    expect(body.data.map((m) => [m.id, m.object])).toEqual([
      ["smollm2", "model"],
      ["gemma3", "model"],
    ]);
  });

  it("streams llama-server's chunks, ending on stop, with the real token counts", slow, async () => {
    const res = await post({ model: "smollm2", messages: france, stream: true, stream_options: { include_usage: true }, max_tokens: 64 });
    const { chunks, done } = await readStream(res);

    expect(res.headers.get("content-type")).toBe("text/event-stream");
    expect(done).toBe(true);
    expect(chunks.every((c) => c.object === "chat.completion.chunk")).toBe(true);
    expect(chunks[0].choices[0].delta).toEqual({ role: "assistant", content: null });
    const [finish, usage] = chunks.slice(-2);
    expect(finish.choices).toEqual([{ finish_reason: "stop", index: 0, delta: {} }]);
    expect(usage.choices).toEqual([]);
    const content = contentOf(chunks);
    expect(content).toMatch(/Paris/);
    // Every token the model sampled: the answer's, and the end-of-turn token that stopped it.
    expect(usage.usage?.completion_tokens).toBe(smolVocab!.tokenize(content).length + 1);
    expect(usage.usage?.total_tokens).toBe(usage.usage!.prompt_tokens + usage.usage!.completion_tokens);
  });

  it("stops at the smaller of max_tokens and max_completion_tokens, finishing on length", slow, async () => {
    const res = await post({
      model: "gemma3",
      messages: france,
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 5,
      max_completion_tokens: 3,
    });
    const { chunks } = await readStream(res);

    const [finish, usage] = chunks.slice(-2);
    expect(finish.choices[0].finish_reason).toBe("length");
    expect(usage.usage?.completion_tokens).toBe(3);
  });

  it("has no usage chunk unless asked for one", slow, async () => {
    const { chunks, done } = await readStream(await post({ model: "gemma3", messages: france, stream: true, max_tokens: 2 }));

    expect(done).toBe(true);
    expect(chunks.at(-1)?.choices[0].finish_reason).toBe("length");
    expect(chunks.some((c) => c.usage)).toBe(false);
  });

  it("streams to the official OpenAI client, and answers the same without streaming", slow, async () => {
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "not-needed-on-loopback", maxRetries: 0 });

    const stream = await client.chat.completions.create({
      model: "smollm2",
      messages: [
        { role: "system", content: "You are a helpful assistant." },
        { role: "user", content: [{ type: "text", text: "What is the capital of France? Answer in one sentence." }] },
      ],
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 64,
    });
    let streamed = "";
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      streamed += chunk.choices[0]?.delta.content ?? "";
      usage = chunk.usage ?? usage;
    }
    const whole = await client.chat.completions.create({ model: "smollm2", messages: france as OpenAI.ChatCompletionMessageParam[], max_tokens: 64 });

    expect(streamed).toMatch(/Paris/);
    expect(usage?.completion_tokens).toBeGreaterThan(0);
    expect(whole.object).toBe("chat.completion");
    expect(whole.choices[0].message).toMatchObject({ role: "assistant", content: streamed });
    expect(whole.choices[0].finish_reason).toBe("stop");
    expect(whole.usage).toEqual(usage);
  });

  it("answers 404 with an error body for a model it does not serve", async () => {
    const res = await post({ model: "gpt-4o", messages: france });
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "not-needed-on-loopback", maxRetries: 0 });

    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 404, message: "model 'gpt-4o' not found", type: "not_found_error" } });
    await expect(client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "Hi" }] })).rejects.toMatchObject({ status: 404 });
  });

  it("refuses a prompt longer than the context as llama-server does", async () => {
    const res = await post({ model: "smollm2", messages: [{ role: "user", content: "word ".repeat(3000) }], stream: true });
    const body = (await res.json()) as { error: { type: string; code: number; n_ctx: number; n_prompt_tokens: number; message: string } };

    expect(res.status).toBe(400);
    expect(body.error).toMatchObject({ type: "exceed_context_size_error", code: 400, n_ctx: 2048 });
    expect(body.error.n_prompt_tokens).toBeGreaterThan(2048);
    expect(body.error.message).toMatch(/exceeds the available context size \(2048 tokens\)/);
  });

  it("queues requests that arrive together and answers each", slow, async () => {
    const bodies = ["smollm2", "gemma3", "smollm2"].map((model) => ({ model, messages: france, max_tokens: 4 }));

    const answers = await Promise.all(bodies.map(async (b) => (await post(b)).json() as Promise<{ model: string; usage: { completion_tokens: number } }>));

    expect(answers.map((a) => [a.model, a.usage.completion_tokens > 0])).toEqual([
      ["smollm2", true],
      ["gemma3", true],
      ["smollm2", true],
    ]);
  });

  it("stops generating when the client goes away, freeing the slot for the next request", slow, async () => {
    const abort = new AbortController();
    // Gemma 3 270M is a base model: it never ends its turn, so unbounded it would fill the context.
    const res = await post({ model: "gemma3", messages: france, stream: true }, { signal: abort.signal });
    const reader = res.body!.getReader();
    await reader.read(); // the first chunk: generation has begun

    abort.abort();
    await vi.waitFor(
      async () => {
        const [slot] = (await (await fetch(`${url}/slots`)).json()) as { is_processing: boolean }[];
        expect(slot.is_processing).toBe(false);
      },
      { timeout: 120_000, interval: 50 },
    );
    const [slot] = (await (await fetch(`${url}/slots`)).json()) as { model: string; n_decoded: number; n_ctx: number }[];
    const next = (await (await post({ model: "smollm2", messages: france, max_tokens: 64 })).json()) as { choices: { message: { content: string } }[] };

    expect(slot.model).toBe("gemma3");
    expect(slot.n_decoded).toBeGreaterThan(0);
    expect(slot.n_decoded).toBeLessThan(1000); // far from the ~2000 tokens the context had room for
    expect(next.choices[0].message.content).toMatch(/Paris/);
  });
});
