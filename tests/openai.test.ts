import { FORMAT_DEFINITIONS, OPENAI_MODELS } from "../service/formats.js";
import { FORMAT_IDS } from "../state/formats.js";
import { servedWithHistory } from "./support/served.js";
import { ChatOpenAI } from "@langchain/openai";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { Settings } from "../state/config.js";
import { defaultScript, withOverrides, type Script } from "./support/fake-model.js";
import { testDeps } from "./support/harness.js";
import { sqliteHistory } from "./support/history-db.js";
import { startApp } from "./support/http.js";

const THREE = ["call_grok", "call_claude", "call_gpt"];
const ADMIN = "admin-token-for-openai-tests";

describe("the OpenAI-compatible endpoint, through the official openai client", () => {
  /** A server with a history, and an `openai` client pointed at its /v1. */
  async function serve(options: { script?: Script; settings?: Partial<Settings>; apiKey?: string } = {}) {
    const { server, models, db } = await servedWithHistory(options);
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: options.apiKey ?? "not-needed-on-loopback", maxRetries: 0 });
    /** The answer the history keeps for a run. */
    const stored = async (runId: string) =>
      (await (await fetch(`${server.url}/api/v1/debates/${runId}`)).json()) as { content: string; status: string; conversationId: string };
    return { client, server, models, db, stored };
  }

  it("lists one model per format, with OpenAI's list shape, and retrieves one", async () => {
    const { client } = await serve();
    const ids = [];
    for await (const model of client.models.list()) {
      expect(model).toMatchObject({ object: "model", owned_by: "debatt" });
      ids.push(model.id);
    }
    // Each format's definition names its model (a format's own test pins its name), listed in the formats' order.
    expect(ids).toEqual(Object.keys(OPENAI_MODELS));
    expect(Object.values(OPENAI_MODELS)).toEqual(FORMAT_IDS.filter((id) => FORMAT_DEFINITIONS[id].openaiModel !== null));
    expect(ids).toEqual(expect.arrayContaining(["debatt", "debatt-compare", "debatt-vote", "debatt-revise", "debatt-deep", "debatt-council"]));
    expect((await client.models.retrieve("debatt-council")).id).toBe("debatt-council");
  });

  it("answers a /vote whole: the winner's answer as the content, the deliberation as reasoning_content, filed in the history", async () => {
    const { client, stored } = await serve();
    const { data, response } = await client.chat.completions
      .create({
        model: "debatt-vote",
        messages: [{ role: "user", content: "Which language suits web APIs best?" }],
        participants: THREE,
      } as OpenAI.ChatCompletionCreateParamsNonStreaming)
      .withResponse();
    const runId = response.headers.get("x-debatt-run-id")!;
    const answer = await stored(runId);
    expect(answer.status).toBe("complete");
    expect(data.object).toBe("chat.completion");
    expect(data.model).toBe("debatt-vote");
    expect(data.choices[0].finish_reason).toBe("stop");
    expect(data.choices[0].message.content!.trim()).toBe(answer.content.trim());
    const reasoning = (data.choices[0].message as unknown as { reasoning_content: string }).reasoning_content;
    // Who answered, the vote and the winner, in the question's language (English here).
    for (const name of ["Grok", "Claude", "GPT"]) expect(reasoning).toContain(name);
    expect(reasoning).toMatch(/Winner|winner/);
    expect(reasoning).not.toMatch(/Vinnare|Omröstning/);
    expect(response.headers.get("x-debatt-conversation-id")).toBe(answer.conversationId);
  });

  it("streams a /debatt: progress as reasoning_content, the synthesis as content without the arena-data block, then finish_reason stop", async () => {
    const { client, stored } = await serve();
    const { data: stream, response } = await client.chat.completions
      .create({
        model: "debatt",
        stream: true,
        messages: [{ role: "user", content: "Bör AI regleras?" }],
        participants: THREE,
      } as OpenAI.ChatCompletionCreateParamsStreaming)
      .withResponse();
    let content = "";
    let reasoning = "";
    const finishes: (string | null)[] = [];
    for await (const chunk of stream) {
      expect(chunk.object).toBe("chat.completion.chunk");
      const delta = chunk.choices[0].delta as { content?: string; reasoning_content?: string };
      content += delta.content ?? "";
      reasoning += delta.reasoning_content ?? "";
      finishes.push(chunk.choices[0].finish_reason);
    }
    expect(finishes.at(-1)).toBe("stop");
    expect(finishes.slice(0, -1).every((f) => f === null)).toBe(true);
    // Swedish question, Swedish narration: the rounds and who spoke.
    expect(reasoning).toContain("Runda 1");
    expect(reasoning).toContain("Grok");
    const synthesis = (await stored(response.headers.get("x-debatt-run-id")!)).content;
    expect(synthesis).toContain("debate-arena-data");
    expect(content).not.toContain("debate-arena-data");
    expect(content.trim()).toBe(synthesis.slice(synthesis.indexOf("```\n", 3) + 4).trim());
  });

  it("reports what the run used: a last chunk with usage when stream_options.include_usage asks, and usage on a whole answer", async () => {
    // Every call reports 100 tokens in (40 cached), 10 out, and a cost of a tenth of a cent.
    const reporting = withOverrides((req, i, messages) => {
      const step = defaultScript(req, i, messages);
      return { ...(typeof step === "string" ? { text: step } : step), usage: { input: 100, output: 10, cached: 40, cost: 0.001 } };
    });
    const { client, models } = await serve({ script: reporting });
    const stream = await client.chat.completions.create({
      model: "debatt-vote",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "Which?" }],
      participants: THREE,
    } as OpenAI.ChatCompletionCreateParamsStreaming);
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    const calls = models.calls.length;
    expect(last.usage).toMatchObject({
      prompt_tokens: 100 * calls,
      completion_tokens: 10 * calls,
      total_tokens: 110 * calls,
      prompt_tokens_details: { cached_tokens: 40 * calls },
      model_calls: calls,
    });
    expect((last.usage as unknown as { cost: number }).cost).toBeCloseTo(0.001 * calls, 10);
    // Only the last chunk carries usage, and only when asked for.
    expect(chunks.slice(0, -1).every((c) => !c.usage)).toBe(true);
    const whole = await client.chat.completions.create({
      model: "debatt-compare",
      messages: [{ role: "user", content: "Tabs?" }],
      participants: THREE,
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(whole.usage).toMatchObject({ prompt_tokens: 300, completion_tokens: 30, total_tokens: 330, model_calls: 3 });
  });

  it("sends the progress as a <think> block in the content with DEBATT_OPENAI_PROGRESS=think, and not at all with none", async () => {
    const think = await serve({ settings: { openaiProgress: "think" } });
    const a = await think.client.chat.completions.create({
      model: "debatt-compare",
      messages: [{ role: "user", content: "Tabs or spaces?" }],
      participants: THREE,
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const text = a.choices[0].message.content!;
    expect(text.startsWith("<think>\n")).toBe(true);
    const [thought, answer] = text.split("\n</think>\n\n");
    expect(thought).toContain("Tabs or spaces?");
    for (const name of ["Grok", "Claude", "GPT"]) expect(answer).toContain(name);
    expect((a.choices[0].message as unknown as { reasoning_content?: string }).reasoning_content).toBeUndefined();

    const none = await serve({ settings: { openaiProgress: "none" } });
    const b = await none.client.chat.completions.create({
      model: "debatt-compare",
      messages: [{ role: "user", content: "Tabs or spaces?" }],
      participants: THREE,
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(b.choices[0].message.content).not.toContain("<think>");
    expect(b.choices[0].message.content).not.toContain("Tabs or spaces?");
    expect(b.choices[0].message.content).toContain("Claude");
  });

  it("gives a multi-turn format the earlier messages as its history, and a single-question format only the question", async () => {
    const { client, models } = await serve();
    const messages = [
      { role: "system" as const, content: "You are terse." },
      { role: "user" as const, content: "Which database for a small shop?" },
      { role: "assistant" as const, content: "SQLite keeps it simple." },
      { role: "user" as const, content: "And when it grows?" },
    ];
    await client.chat.completions.create({ model: "debatt-vote", messages, participants: THREE } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const sent = models.callsOf("answer").map((c) => c.messages.map((m) => String(m.content)).join("\n"));
    expect(sent.length).toBe(3);
    for (const prompt of sent) {
      expect(prompt).toContain("Which database for a small shop?");
      expect(prompt).toContain("SQLite keeps it simple.");
      expect(prompt).toContain("And when it grows?");
      expect(prompt).not.toContain("You are terse.");
    }
    models.calls.length = 0;
    // /revise takes no follow-ups: only the last question is asked, and it is answered.
    const revised = await client.chat.completions.create({
      model: "debatt-revise",
      messages,
      participants: THREE,
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(revised.choices[0].message.content).not.toBe("");
    for (const c of models.callsOf("answer")) expect(c.messages.map((m) => String(m.content)).join("\n")).not.toContain("SQLite keeps it simple.");
  });

  it("answers errors in OpenAI's shape with the right status: unknown model 404, a bad conversation 400, another format's command 400", async () => {
    const { client } = await serve();
    const refusal = async (body: Record<string, unknown>) => {
      try {
        await client.chat.completions.create(body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming);
      } catch (err) {
        expect(err).toBeInstanceOf(OpenAI.APIError);
        const e = err as InstanceType<typeof OpenAI.APIError>;
        return [e.status, e.type, e.code, e.message];
      }
      throw new Error("no error");
    };
    const [status, type, code, message] = await refusal({ model: "gpt-4o", messages: [{ role: "user", content: "Hi" }] });
    expect([status, type, code]).toEqual([404, "invalid_request_error", "model_not_found"]);
    expect(message).toContain("debatt-vote");
    expect(await refusal({ model: "debatt-vote", messages: [{ role: "assistant", content: "Hi" }] })).toEqual([
      400,
      "invalid_request_error",
      "invalid_body",
      expect.stringContaining("last message must be the user's question"),
    ]);
    expect(await refusal({ model: "debatt-vote", messages: [] })).toEqual([
      400,
      "invalid_request_error",
      "invalid_body",
      expect.stringContaining("messages is empty"),
    ]);
    expect(await refusal({ model: "debatt-vote", messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "x" } }] }] })).toEqual([
      400,
      "invalid_request_error",
      "invalid_body",
      expect.stringContaining("no text, only image_url parts: the models read text only"),
    ]);
    expect(await refusal({ model: "debatt-vote", messages: [{ role: "assistant", content: "Hi" }] })).toEqual([
      400,
      "invalid_request_error",
      "invalid_body",
      expect.stringContaining("(it is an assistant message)"),
    ]);
    // What cannot be honoured is refused by name.
    for (const [param, body] of [
      ["tool_choice", { tool_choice: "required", tools: [{ type: "function", function: { name: "f", parameters: {} } }] }],
      ["tool_choice", { tool_choice: { type: "function", function: { name: "f" } }, tools: [{ type: "function", function: { name: "f", parameters: {} } }] }],
      ["logprobs", { logprobs: true }],
      ["audio", { modalities: ["text", "audio"], audio: { voice: "alloy", format: "wav" } }],
      ["response_format", { response_format: { type: "xml" } }],
      ["max_tokens", { max_tokens: 0 }],
      ["tool_choice", { tool_choice: "bogus" }],
      ["stop", { stop: ["a", "b", "c", "d", "e"] }],
      ["stop", { stop: "x".repeat(1_001) }],
      [
        "response_format",
        { response_format: { type: "json_schema", json_schema: { name: "big", schema: { type: "object", description: "x".repeat(16_001) } } } },
      ],
    ] as const) {
      const [s, , c, m] = await refusal({ model: "debatt-vote", messages: [{ role: "user", content: "Which?" }], ...body });
      expect([s, c], param).toEqual([400, "invalid_body"]);
      expect(m, param).toContain(param);
    }
    expect(await refusal({ model: "debatt-vote", messages: [{ role: "user", content: "/council Ship it." }] })).toEqual([
      400,
      "invalid_request_error",
      "invalid_body",
      expect.stringContaining("use the model debatt-council"),
    ]);
    expect(await refusal({ model: "debatt-vote", messages: [{ role: "user", content: "Which?" }], participants: ["call_grok"] })).toEqual([
      400,
      "invalid_request_error",
      "invalid_participants",
      expect.stringContaining("/vote"),
    ]);
    expect(await refusal({ model: "debatt-vote", messages: [{ role: "user", content: "Which?" }], n: 3 })).toEqual([
      400,
      "invalid_request_error",
      "invalid_body",
      expect.stringContaining("n must be 1"),
    ]);
  });

  it("needs the user's bearer token with AUTH=tokens (401 authentication_error), and files the run as that user's", async () => {
    const { server } = await serve({ settings: { auth: "tokens", adminToken: ADMIN } });
    const created = await fetch(`${server.url}/api/v1/admin/users`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "ada" }),
    });
    const { token } = (await created.json()) as { token: string };
    const stranger = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "not-a-token", maxRetries: 0 });
    await expect(stranger.models.list()).rejects.toMatchObject({ status: 401, type: "authentication_error", code: "unauthorized" });
    const ada = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: token, maxRetries: 0 });
    const { response } = await ada.chat.completions
      .create({
        model: "debatt-compare",
        messages: [{ role: "user", content: "Tabs or spaces?" }],
        participants: THREE,
      } as OpenAI.ChatCompletionCreateParamsNonStreaming)
      .withResponse();
    const conversation = response.headers.get("x-debatt-conversation-id")!;
    const list = (await (await fetch(`${server.url}/api/v1/conversations`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      conversations: { id: string }[];
    };
    expect(list.conversations.map((c) => c.id)).toContain(conversation);
  });

  it("stops the run when a streaming client leaves: the calls in flight are aborted and the answer is kept as cancelled", async () => {
    const slow = withOverrides((req) => (req.phase === "turn" ? { text: `${req.participant!.display} argues at length.`, latencyMs: 400 } : undefined));
    const { client, models, stored } = await serve({ script: slow });
    const controller = new AbortController();
    const { data: stream, response } = await client.chat.completions
      .create(
        {
          model: "debatt",
          stream: true,
          messages: [{ role: "user", content: "Should AI be regulated?" }],
          participants: THREE,
        } as OpenAI.ChatCompletionCreateParamsStreaming,
        { signal: controller.signal },
      )
      .withResponse();
    const runId = response.headers.get("x-debatt-run-id")!;
    // The client leaves once the first turn has ended (the SDK ends the iteration, or throws an abort).
    await (async () => {
      for await (const chunk of stream) if ((chunk.choices[0].delta as { reasoning_content?: string }).reasoning_content?.includes("words")) controller.abort();
    })().catch((err: Error) => expect(err.name).toMatch(/Abort/));
    expect(controller.signal.aborted).toBe(true);
    await expect.poll(async () => (await stored(runId)).status, { timeout: 5_000 }).toBe("cancelled");
    expect(models.calls.at(-1)!.aborted).toBe(true);
  });
});

describe("the OpenAI-compatible endpoint, as a LangChain model", () => {
  it("lets ChatOpenAI use a council as its model, invoked and streamed", async () => {
    const db = await sqliteHistory();
    const { deps } = testDeps();
    const server = await startApp(deps, { history: db.history });
    try {
      const council = new ChatOpenAI({ model: "debatt-vote", apiKey: "not-needed-on-loopback", configuration: { baseURL: `${server.url}/v1` }, maxRetries: 0 });
      /** The answer of the newest run, as the history keeps it. */
      const newest = async () => {
        const { conversations } = (await (await fetch(`${server.url}/api/v1/conversations`)).json()) as { conversations: { id: string }[] };
        const { messages } = (await (await fetch(`${server.url}/api/v1/conversations/${conversations[0].id}`)).json()) as {
          messages: { role: string; content: string }[];
        };
        return messages.find((m) => m.role === "assistant")!.content.trim();
      };
      const answer = await council.invoke("Which language suits web APIs best?");
      expect(String(answer.content)).toContain("says in round 1");
      expect(String(answer.content).trim()).toBe(await newest());
      let streamed = "";
      for await (const chunk of await council.stream("Which language is the easiest to read?")) streamed += String(chunk.content);
      expect(streamed).toContain("says in round 1");
      expect(streamed.trim()).toBe(await newest());
    } finally {
      await server.close();
      await db.close();
    }
  });
});
