import { servedWithHistory } from "./support/served.js";
import { readFileSync } from "node:fs";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, streamText } from "ai";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { Settings } from "../state/config.js";
import { defaultScript, withOverrides, type Script } from "./support/fake-model.js";

const THREE = ["call_grok", "call_claude", "call_gpt"];
type Params = OpenAI.Responses.ResponseCreateParamsNonStreaming;
type StreamParams = OpenAI.Responses.ResponseCreateParamsStreaming;
type Event = OpenAI.Responses.ResponseStreamEvent;

/** The text of a response's message items. */
const textOf = (r: OpenAI.Responses.Response) =>
  r.output.flatMap((i) => (i.type === "message" ? i.content.map((c) => (c.type === "output_text" ? c.text : "")) : [])).join("");
/** The summary text of a response's reasoning items. */
const reasoningOf = (r: OpenAI.Responses.Response) => r.output.flatMap((i) => (i.type === "reasoning" ? i.summary.map((s) => s.text) : [])).join("");
/** Every call reports 100 tokens in (40 cached), 10 out, and a cost of a tenth of a cent. */
const reporting = withOverrides((req, i, messages) => {
  const step = defaultScript(req, i, messages);
  return { ...(typeof step === "string" ? { text: step } : step), usage: { input: 100, output: 10, cached: 40, cost: 0.001 } };
});
/** What a client is told of a /compare that the history keeps: each answer (the history heads them its own way). */
const answersOf = (kept: string) =>
  kept
    .split(/^### .*$/m)
    .map((s) => s.trim())
    .filter(Boolean);
/** A run's id from its response's id. */
const runOf = (responseId: string) => responseId.replace(/^resp_/, "");

describe("the OpenAI Responses API, POST /v1/responses", () => {
  /** A server with a history (closed when the test ends); the official `openai` client and the Vercel AI SDK's OpenAI provider pointed at its /v1. */
  async function serve(options: { script?: Script; settings?: Partial<Settings> } = {}) {
    const { server, models, db } = await servedWithHistory(options);
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "not-needed-on-loopback", maxRetries: 0 });
    const provider = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: "not-needed-on-loopback" });
    /** The answer the history keeps for a run. */
    const stored = async (runId: string) =>
      (await (await fetch(`${server.url}/api/v1/debates/${runId}`)).json()) as { content: string; status: string; conversationId: string };
    const post = (body: unknown) =>
      fetch(`${server.url}/v1/responses`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return { server, client, provider, stored, post, models, db };
  }

  it("answers a /vote whole through the official client: a reasoning item with the deliberation, a message item with the winner's answer, usage", async () => {
    const { client, stored, models } = await serve({ script: reporting });
    const { data, response } = await client.responses
      .create({ model: "debatt-vote", input: "Which language suits web APIs best?", participants: THREE } as Params)
      .withResponse();
    const runId = response.headers.get("x-debatt-run-id")!;
    expect(data.id).toBe(`resp_${runId}`);
    expect([data.object, data.status, data.model]).toEqual(["response", "completed", "debatt-vote"]);
    expect(data.output.map((i) => i.type)).toEqual(["reasoning", "message"]);
    const answer = await stored(runId);
    expect(answer.status).toBe("complete");
    expect(textOf(data).trim()).toBe(answer.content.trim());
    expect(data.output_text).toBe(textOf(data));
    for (const name of ["Grok", "Claude", "GPT"]) expect(reasoningOf(data)).toContain(name);
    expect(reasoningOf(data)).toMatch(/Winner|winner/);
    const calls = models.calls.length;
    expect(data.usage).toMatchObject({
      input_tokens: 100 * calls,
      output_tokens: 10 * calls,
      total_tokens: 110 * calls,
      input_tokens_details: { cached_tokens: 40 * calls },
      output_tokens_details: { reasoning_tokens: 0 },
    });
    expect((data.usage as unknown as { cost: number }).cost).toBeCloseTo(0.001 * calls, 10);
  });

  it("streams a /compare as the Responses API's typed events, in order, numbered, the reasoning all before the answer", async () => {
    const { client, stored } = await serve();
    const stream = await client.responses.create({ model: "debatt-compare", input: "Tabs or spaces?", stream: true, participants: THREE } as StreamParams);
    const events: Event[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    // Each kind once, in the API's order, with the deltas between.
    const kinds = events.map((e) => e.type).filter((t, i, all) => t !== all[i - 1] || !t.endsWith(".delta"));
    expect(kinds).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.done",
      "response.reasoning_summary_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    const text = events.flatMap((e) => (e.type === "response.output_text.delta" ? [e.delta] : [])).join("");
    const reasoning = events.flatMap((e) => (e.type === "response.reasoning_summary_text.delta" ? [e.delta] : [])).join("");
    expect(reasoning).toContain("Tabs or spaces?");
    const done = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(textOf(done.response)).toBe(text);
    expect(reasoningOf(done.response)).toBe(reasoning);
    expect(done.response.usage).toMatchObject({ input_tokens: expect.any(Number), output_tokens: expect.any(Number), total_tokens: expect.any(Number) });
    const answers = answersOf((await stored(runOf(done.response.id))).content);
    expect(answers).toHaveLength(3);
    for (const answer of answers) expect(text).toContain(answer);
    // The items' ids and indexes agree from the first event to the last.
    const added = events.filter((e): e is OpenAI.Responses.ResponseOutputItemAddedEvent => e.type === "response.output_item.added");
    expect(added.map((e) => [e.output_index, e.item.type])).toEqual([
      [0, "reasoning"],
      [1, "message"],
    ]);
    expect(done.response.output.map((i) => i.id)).toEqual(added.map((e) => e.item.id));
    // The client's own accumulator makes the same response of the events.
    const final = await client.responses
      .stream({ model: "debatt-compare", input: "Tabs or spaces?", participants: THREE } as Omit<Params, "stream">)
      .finalResponse();
    expect(final.output.map((i) => i.type)).toEqual(["reasoning", "message"]);
    for (const answer of answersOf((await stored(runOf(final.id))).content)) expect(final.output_text).toContain(answer);
  });

  it("serves every format: each model's text is the answer the history keeps", async () => {
    const { client, stored } = await serve();
    for (const model of ["debatt", "debatt-revise", "debatt-deep", "debatt-council"]) {
      const stream = model === "debatt" || model === "debatt-council";
      const params = { model, input: "Should the release ship on Friday?", participants: THREE };
      let response: OpenAI.Responses.Response;
      if (stream) {
        const events: Event[] = [];
        for await (const e of await client.responses.create({ ...params, stream: true } as StreamParams)) events.push(e);
        response = (events.at(-1) as OpenAI.Responses.ResponseCompletedEvent).response;
      } else response = await client.responses.create(params as Params);
      const kept = (await stored(runOf(response.id))).content;
      const text = textOf(response);
      expect(response.status, model).toBe("completed");
      expect(text.length, model).toBeGreaterThan(0);
      // /debatt's synthesis is kept with the arena page's data block at its head, which a client does not get.
      expect(text.trim(), model).toBe((model === "debatt" ? kept.slice(kept.indexOf("```\n", 3) + 4) : kept).trim());
      expect(reasoningOf(response).length, model).toBeGreaterThan(0);
    }
  });

  it("works as the Vercel AI SDK's default OpenAI model: generateText and streamText, one reasoning part, the text, usage", async () => {
    const { provider, stored } = await serve({ script: reporting });
    /** Whether the text is the answer the history keeps for the response's run. */
    const isKept = async (model: string, text: string, responseId: string) => {
      const kept = (await stored(runOf(responseId))).content;
      return model === "debatt-compare" ? answersOf(kept).every((a) => text.includes(a)) : text.trim() === kept.trim();
    };
    for (const model of ["debatt-vote", "debatt-compare"]) {
      const whole = await generateText({ model: provider(model), prompt: "Which language suits web APIs best?" });
      expect(whole.reasoning, model).toHaveLength(1);
      expect(whole.reasoningText, model).toContain("Which language suits web APIs best?");
      expect(await isKept(model, whole.text, whole.response.id), model).toBe(true);
      expect(whole.finishReason, model).toBe("stop");
      expect(whole.usage.inputTokens, model).toBeGreaterThan(0);

      const streamed = streamText({ model: provider(model), prompt: "Which language is the easiest to read?" });
      const kinds: string[] = [];
      for await (const part of streamed.fullStream)
        if (["reasoning-start", "reasoning-delta", "text-start", "text-delta", "error"].includes(part.type)) kinds.push(part.type);
      expect(
        kinds.filter((k) => k === "reasoning-start"),
        model,
      ).toHaveLength(1);
      expect(
        kinds.slice(kinds.indexOf("text-delta")).filter((k) => k.startsWith("reasoning")),
        model,
      ).toEqual([]);
      expect(kinds, model).not.toContain("error");
      const id = (await streamed.response).id;
      expect(await isKept(model, await streamed.text, id), model).toBe(true);
      expect((await streamed.usage).outputTokens, model).toBeGreaterThan(0);
    }
  });

  it("honours max_output_tokens (an incomplete response) and text.format (the result as JSON)", async () => {
    const { client, post, models, provider } = await serve();
    const ask = { model: "debatt-vote", input: "Which language suits web APIs best?", participants: THREE };
    const cut = await client.responses.create({ ...ask, max_output_tokens: 5 } as Params);
    expect(cut.status).toBe("incomplete");
    expect(cut.incomplete_details).toEqual({ reason: "max_output_tokens" });
    expect(cut.output.at(-1)).toMatchObject({ type: "message", status: "incomplete" });
    expect(textOf(cut).length).toBeLessThanOrEqual(20);
    const streamed = await (await post({ ...ask, stream: true, max_output_tokens: 5 })).text();
    expect(streamed).toContain("event: response.incomplete\n");
    expect(streamed).not.toContain("response.completed");
    expect((await generateText({ model: provider("debatt-vote"), prompt: "Which?", maxOutputTokens: 5 })).finishReason).toBe("length");

    const schema = { type: "object", properties: { answer: { type: "string" } }, required: ["answer"], additionalProperties: false };
    const json = await client.responses.create({ ...ask, text: { format: { type: "json_schema", name: "answer", schema } } } as Params);
    expect(JSON.parse(json.output_text)).toEqual({ answer: "A scripted JSON answer." });
    expect(models.callsOf("json_result")).toHaveLength(1);
    const object = await client.responses.create({ ...ask, text: { format: { type: "json_object" } } } as Params);
    expect(JSON.parse(object.output_text)).toEqual({ answer: "A scripted JSON answer." });
  });

  it("gives a multi-turn format the earlier input messages as history, leaving an image and a function call of earlier turns out and saying so", async () => {
    const { client, models } = await serve();
    const input = [
      { role: "developer", content: "You are terse." },
      {
        role: "user",
        content: [
          { type: "input_text", text: "What is in this picture?" },
          { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=", detail: "auto" },
        ],
      },
      // An earlier answer's reasoning is not the conversation; a function call is left out, and named.
      { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Pondering the picture." }] },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "A lighthouse at dusk.", annotations: [] }] },
      { type: "function_call", call_id: "call_1", name: "lookup", arguments: "{}" },
      { role: "user", content: "Where could it be?" },
    ];
    const r = await client.responses.create({ model: "debatt-vote", input, instructions: "Be brief.", participants: THREE } as Params);
    expect(r.status).toBe("completed");
    expect(reasoningOf(r)).toContain("Left out of the conversation: input_image, function_call (the models read text only).");
    const sent = models.callsOf("answer").map((c) => JSON.stringify(c.messages.map((m) => m.content)));
    expect(sent).toHaveLength(3);
    for (const prompt of sent) {
      expect(prompt).toContain("What is in this picture?");
      expect(prompt).toContain("A lighthouse at dusk.");
      expect(prompt).toContain("Where could it be?");
      expect(prompt).not.toMatch(/data:image|input_image|You are terse|Be brief|Pondering|lookup/);
    }
  });

  it("continues a conversation: previous_response_id, and the Vercel AI SDK's references to its earlier answers", async () => {
    const { client, provider, models, post, stored } = await serve();
    const first = await client.responses.create({ model: "debatt-vote", input: "Which database for a small shop?", participants: THREE } as Params);
    models.calls.length = 0;
    const { data: next, response } = await client.responses
      .create({ model: "debatt-vote", input: "And when it grows?", previous_response_id: first.id, participants: THREE } as Params)
      .withResponse();
    expect(next.previous_response_id).toBe(first.id);
    expect(response.headers.get("x-debatt-conversation-id")).toBe((await stored(runOf(first.id))).conversationId);
    const prompts = () => models.callsOf("answer").map((c) => JSON.stringify(c.messages.map((m) => m.content)));
    expect(prompts()).toHaveLength(3);
    for (const prompt of prompts()) expect(prompt).toContain("Which database for a small shop?");
    // Another format's conversation, or a response that is not there, cannot be continued.
    const refused = async (body: Record<string, unknown>) => {
      const res = await post({ input: "Why?", participants: THREE, ...body });
      return [res.status, ((await res.json()) as { error: { code: string } }).error.code];
    };
    expect(await refused({ model: "debatt-deep", previous_response_id: first.id })).toEqual([400, "mode_mismatch"]);
    expect(await refused({ model: "debatt-vote", previous_response_id: "resp_nothing-here" })).toEqual([404, "debate_not_found"]);

    // The AI SDK sends an earlier answer back as a reference to its message item: read from the history.
    const said = await generateText({ model: provider("debatt-vote"), prompt: "Which editor for Go?" });
    models.calls.length = 0;
    const again = await generateText({
      model: provider("debatt-vote"),
      messages: [{ role: "user", content: "Which editor for Go?" }, ...said.response.messages, { role: "user", content: "And for Rust?" }],
    });
    expect(again.text.length).toBeGreaterThan(0);
    expect(prompts().length).toBeGreaterThanOrEqual(3);
    for (const prompt of prompts()) expect(prompt).toContain(JSON.stringify(said.text.trim()).slice(1, -1));
    expect(again.reasoningText).not.toContain("Left out");
  });

  it("reads a question a client wrapped for retrieval in an input_text item: the question alone, the retrieved text as material", async () => {
    const { post, models } = await serve();
    const wrapped = `### Task:\nRespond to the user query using the provided context, incorporating inline citations in the format [id] **only when the <source> tag includes an explicit id attribute** (e.g., <source id="1">).\n\n<context>\n<source id="1" name="policy.pdf">Refunds are accepted within 30 days of purchase.</source>\n</context>\n\nWhat is the refund period?`;
    const res = await post({
      model: "debatt-compare",
      input: [{ role: "user", content: [{ type: "input_text", text: wrapped }] }],
      participants: ["call_grok", "call_claude"],
    });
    expect(res.status).toBe(200);
    for (const call of models.callsOf("compare")) {
      const given = JSON.stringify(call.messages.map((m) => m.content));
      expect(given).toContain("What is the refund period?");
      expect(given).toContain("[1] policy.pdf\\nRefunds are accepted within 30 days of purchase.");
      expect(given).not.toContain("### Task");
    }
    expect(models.callsOf("compare")).toHaveLength(2);
  });

  it("reads text files and PDFs sent as input_file (OpenAI's SDK) as material by their names; an unreadable PDF or a file by id is left out, saying so", async () => {
    const { client, models } = await serve();
    const notes = Buffer.from("Kodordet är PELIKAN-42.\nInget annat.", "utf8").toString("base64");
    // A PDF as a browser prints one (Chromium, embedded subset fonts, two pages).
    const pdf = readFileSync(new URL("./fixtures/files/returpolicy.pdf", import.meta.url)).toString("base64");
    const r = await client.responses.create({
      model: "debatt-compare",
      participants: ["call_grok", "call_claude"],
      input: [
        {
          role: "user",
          content: [
            { type: "input_text", text: "Vilket är kodordet?" },
            { type: "input_file", filename: "anteckningar.txt", file_data: `data:text/plain;base64,${notes}` },
            { type: "input_file", filename: "returpolicy.pdf", file_data: `data:application/pdf;base64,${pdf}` },
            { type: "input_file", filename: "scan.pdf", file_data: "data:application/pdf;base64,JVBERi0xLjQK" },
            { type: "input_file", file_id: "file-abc123" },
          ],
        },
      ],
    } as Params);
    expect(r.status).toBe("completed");
    const given = models.callsOf("compare").map((c) => JSON.stringify(c.messages.map((m) => m.content)));
    expect(given).toHaveLength(2);
    for (const g of given) {
      expect(g).toContain("Vilket är kodordet?");
      expect(g).toContain("[1] anteckningar.txt\\nKodordet är PELIKAN-42.\\nInget annat.");
      expect(g).toContain("[2] returpolicy.pdf\\nReturpolicy\\nReturer tas emot inom 30 dagar från köpet.");
      expect(g).toContain("Sida två: frakten är gratis över 500 kronor.");
      expect(g).not.toContain("JVBERi0");
    }
    const reasoning = r.output.flatMap((i) => (i.type === "reasoning" ? i.summary.map((x) => x.text) : [])).join("");
    expect(reasoning).toContain("Utelämnat ur samtalet: input_file");
  });

  it("reads a PDF the Vercel AI SDK attaches as a file part, on the Responses API and on chat completions", async () => {
    const { provider, models } = await serve();
    const data = readFileSync(new URL("./fixtures/files/returpolicy.pdf", import.meta.url));
    for (const model of [provider("debatt-compare"), provider.chat("debatt-compare")]) {
      models.calls.length = 0;
      const r = await generateText({
        model,
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "Hur länge tas returer emot?" },
              { type: "file", data, mediaType: "application/pdf", filename: "returpolicy.pdf" },
            ],
          },
        ],
      });
      expect(r.text.length).toBeGreaterThan(0);
      const given = models.callsOf("compare").map((c) => JSON.stringify(c.messages.map((m) => m.content)));
      expect(given.length).toBeGreaterThan(1);
      for (const g of given) expect(g).toContain("[1] returpolicy.pdf\\nReturpolicy\\nReturer tas emot inom 30 dagar från köpet.");
    }
  });

  it("refuses a question that is only a file, naming what is missing, on both APIs", async () => {
    const { post } = await serve();
    const file = { type: "input_file", filename: "a.md", file_data: `data:text/markdown;base64,${Buffer.from("# Notes").toString("base64")}` };
    const res = await post({ model: "debatt-vote", input: [{ role: "user", content: [file] }] });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/no text, only files/);
    const chat = await fetch(res.url.replace("/responses", "/chat/completions"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "debatt-vote",
        messages: [{ role: "user", content: [{ type: "file", file: { filename: "a.md", file_data: file.file_data } }] }],
      }),
    });
    expect(chat.status).toBe(400);
    expect(((await chat.json()) as { error: { message: string } }).error.message).toMatch(/no text, only files/);
  });

  it("answers a client's housekeeping chore with one call to the internal model, and starts no run", async () => {
    const { client, models, db } = await serve();
    const body = JSON.parse(readFileSync(new URL("./fixtures/clients/open-webui-title.json", import.meta.url), "utf8")).body as {
      messages: { role: string; content: string }[];
    };
    const r = await client.responses.create({ model: "debatt-vote", input: body.messages } as Params);
    expect(JSON.parse(r.output_text)).toEqual({ title: "🧪 A Scripted Chore" });
    expect(r.output.map((i) => i.type)).toEqual(["message"]);
    expect(models.callsOf("client_task")).toHaveLength(1);
    expect(models.calls.filter((c) => c.phase !== "client_task")).toEqual([]);
    expect(await db.rows("conversations")).toEqual([]);
  });

  it("refuses what it cannot honour in OpenAI's error shape, naming the field", async () => {
    const { client } = await serve();
    const refusal = async (body: Record<string, unknown>) => {
      try {
        await client.responses.create({ model: "debatt-vote", input: "Which?", ...body } as Params);
      } catch (err) {
        expect(err).toBeInstanceOf(OpenAI.APIError);
        const e = err as InstanceType<typeof OpenAI.APIError>;
        return [e.status, e.code, e.message];
      }
      throw new Error("no error");
    };
    const tools = [{ type: "function", name: "f", parameters: {} }];
    for (const [field, body] of [
      ["tool_choice", { tools, tool_choice: "required" }],
      ["tool_choice", { tools, tool_choice: { type: "function", name: "f" } }],
      ["logprobs", { top_logprobs: 3 }],
      ["background", { background: true }],
      ["conversation", { conversation: "conv_1" }],
      ["text.format", { text: { format: { type: "xml" } } }],
      ["max_output_tokens", { max_output_tokens: 0 }],
      ["input", { input: [] }],
      ["role", { input: [{ role: "robot", content: "Hi" }] }],
    ] as const) {
      const [status, code, message] = await refusal(body);
      expect([status, code], field).toEqual([400, "invalid_body"]);
      expect(message, field).toContain(field);
    }
    // Tools the model may leave unused are accepted, and none is called.
    expect(
      (await client.responses.create({ model: "debatt-compare", input: "Which?", tools, tool_choice: "auto", participants: THREE } as Params)).status,
    ).toBe("completed");
    expect(await refusal({ model: "gpt-4o" })).toEqual([404, "model_not_found", expect.stringContaining("debatt-vote")]);
    expect(await refusal({ input: [{ role: "assistant", content: "Hi" }] })).toEqual([
      400,
      "invalid_body",
      expect.stringContaining("(it is an assistant message)"),
    ]);
  });

  it("keeps a slow run alive, and ends a run that fails with response.failed (streamed), its status (whole), or a failed response (whole, begun)", async () => {
    const slow = withOverrides((req) => (req.phase === "compare" ? { text: `${req.participant!.display} answers slowly.`, latencyMs: 500 } : undefined));
    const alive = await serve({ script: slow, settings: { sseKeepAliveMs: 150 } });
    const streamed = await (await alive.post({ model: "debatt-compare", input: "Which?", stream: true, participants: THREE })).text();
    expect(streamed).toContain(": keep-alive\n\n");
    const raw = await (await alive.post({ model: "debatt-compare", input: "Which?", participants: THREE })).text();
    expect(raw).toMatch(/^ +\{/);
    expect((JSON.parse(raw) as { output_text: string }).output_text).toContain("answers slowly");

    const failing = await serve({ script: withOverrides((req) => (req.phase === "compare" ? { error: new Error("HTTP 503 from provider") } : undefined)) });
    const events: Event[] = [];
    for await (const e of await failing.client.responses.create({
      model: "debatt-compare",
      input: "Which?",
      stream: true,
      participants: THREE,
    } as StreamParams))
      events.push(e);
    const failed = events.at(-1) as OpenAI.Responses.ResponseFailedEvent;
    expect(failed.type).toBe("response.failed");
    expect(failed.response.status).toBe("failed");
    expect(failed.response.error).toMatchObject({ code: "server_error", debatt_code: "all_models_failed", message: expect.any(String) });
    const whole = await failing.post({ model: "debatt-compare", input: "Which?", participants: THREE });
    expect(whole.status).toBe(502);
    expect(((await whole.json()) as { error: { code: string } }).error.code).toBe("all_models_failed");
    // A whole response that has begun with keep-alive spaces is 200: it says that it failed.
    const late = await serve({
      script: withOverrides((req) => (req.phase === "compare" ? { error: new Error("HTTP 503 from provider"), latencyMs: 400 } : undefined)),
      settings: { sseKeepAliveMs: 100 },
    });
    const begun = await late.post({ model: "debatt-compare", input: "Which?", participants: THREE });
    expect(begun.status).toBe(200);
    const text = await begun.text();
    expect(text).toMatch(/^ +\{/);
    expect(JSON.parse(text)).toMatchObject({ object: "response", status: "failed", error: { code: "server_error", debatt_code: "all_models_failed" } });
  });
});
