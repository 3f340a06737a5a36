import { servedWithHistory } from "./support/served.js";
import { readdirSync, readFileSync } from "node:fs";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { streamText } from "ai";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { Settings } from "../state/config.js";
import { withOverrides, type Script } from "./support/fake-model.js";

const THREE = ["call_grok", "call_claude", "call_gpt"];
const CLIENTS = new URL("./fixtures/clients/", import.meta.url);
/** A recorded client request: where its shape comes from, what it asks, and its body. */
const fixture = (name: string) => JSON.parse(readFileSync(new URL(name, CLIENTS), "utf8")) as { shape: string; kind: string; body: Record<string, unknown> };
/** The phases of a run's model calls (anything but a client's chore or a JSON result). */
const RUN_PHASES = (phase: string) => !["client_task", "json_result"].includes(phase);

describe("the OpenAI-compatible API, as real clients use it", () => {
  async function serve(options: { script?: Script; settings?: Partial<Settings> } = {}) {
    const { server, models, db } = await servedWithHistory(options);
    const post = (body: unknown) =>
      fetch(`${server.url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "not-needed-on-loopback", maxRetries: 0 });
    return { server, models, db, post, client };
  }

  const tasks = readdirSync(CLIENTS).filter((f) => f.endsWith(".json") && f !== "open-webui-chat-with-parts.json");
  it.each(tasks)("answers %s with one call to the internal model, in the shape asked, and starts no run", async (name) => {
    const { shape, kind, body } = fixture(name);
    const { models, post, db } = await serve();
    const res = await post(body);
    expect(res.status, shape).toBe(200);
    const text = body.stream ? await res.text() : "";
    const content = body.stream
      ? text
          .split("\n\n")
          .flatMap((e) =>
            e.startsWith("data: {") ? [(JSON.parse(e.slice(6)) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content ?? ""] : [],
          )
          .join("")
      : ((await res.json()) as { choices: { message: { content: string } }[] }).choices[0].message.content;
    if (kind === "tool_calls") expect(JSON.parse(content), shape).toEqual({ tool_calls: [] });
    else if (["title", "tags", "follow_ups", "queries"].includes(kind) && !body.stream) {
      const answer = JSON.parse(content) as Record<string, unknown>;
      expect(Object.keys(answer), shape).toEqual([kind]);
      if (kind === "title") expect(answer.title).toBe("🧪 A Scripted Chore");
      else expect(Array.isArray(answer[kind]), shape).toBe(true);
    } else if (kind === "emoji") expect(content).toMatch(/^\p{Extended_Pictographic}$/u);
    else expect(content.trim().length, shape).toBeGreaterThan(0);
    // One call, given the task prompt alone (a tool choice needs none).
    expect(
      models.callsOf("client_task").map((c) => c.messages.length),
      shape,
    ).toEqual(kind === "tool_calls" ? [] : [1]);
    expect(
      models.calls.filter((c) => RUN_PHASES(c.phase)),
      shape,
    ).toEqual([]);
    expect(await db.rows("conversations"), shape).toEqual([]);
  });

  it("takes a question that asks for JSON as a question, and a chore that quotes a long chat as a chore (its prompt capped)", async () => {
    const { post, models } = await serve();
    const asked = await post({
      model: "debatt-compare",
      participants: THREE,
      messages: [{ role: "user", content: 'Design a blog API. Return in JSON format: { "title": "…", "body": "…" }' }],
    });
    expect(asked.status).toBe(200);
    expect(models.callsOf("compare").length).toBe(3);
    const system = await post({
      model: "debatt-compare",
      participants: THREE,
      messages: [
        { role: "system", content: 'Always answer in JSON format: { "text": "…" }' },
        { role: "user", content: "Which?" },
      ],
    });
    expect(system.status).toBe(200);
    expect(models.callsOf("client_task")).toEqual([]);
    // Open WebUI's tags task quoting a chat longer than a question may be.
    const { body } = fixture("open-webui-tags.json");
    const long = (body.messages as { content: string }[])[0].content.replace("<chat_history>\n", `<chat_history>\nUSER: ${"lång text ".repeat(6_000)}\n`);
    const chore = await post({ ...body, messages: [{ role: "user", content: long }] });
    expect(chore.status).toBe(200);
    const given = models.callsOf("client_task")[0].messages;
    expect(given).toHaveLength(1);
    expect(String(given[0].content).length).toBe(16_000);
  });

  it("answers 502 naming response_format when the JSON cannot be written, after the run", async () => {
    const failing = withOverrides((req) => (req.phase === "json_result" ? { error: new Error("the provider is down") } : undefined));
    const { post } = await serve({ script: failing });
    const whole = await post({
      model: "debatt-compare",
      participants: THREE,
      messages: [{ role: "user", content: "Which?" }],
      response_format: { type: "json_object" },
    });
    expect(whole.status).toBe(502);
    expect(((await whole.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: "model_error",
      message: expect.stringContaining("response_format"),
    });
    const streamed = await (
      await post({
        model: "debatt-compare",
        stream: true,
        participants: THREE,
        messages: [{ role: "user", content: "Which?" }],
        response_format: { type: "json_object" },
      })
    ).text();
    expect(streamed).toMatch(/data: \{"error":\{"message":"the answer could not be written as JSON[^\n]*\n\ndata: \[DONE\]\n\n$/);
  });

  it("limits chores apart from runs: a user's chores never use up their runs", async () => {
    const { post } = await serve({ settings: { runsPerMinute: 1 } });
    const { body } = fixture("open-webui-title.json");
    expect((await post(body)).status).toBe(200);
    const second = await post(body);
    expect(second.status).toBe(429);
    expect(((await second.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    // The user's one run a minute is still there.
    expect((await post({ model: "debatt-compare", messages: [{ role: "user", content: "Which?" }], participants: THREE })).status).toBe(200);
  });

  it("deliberates on the question a person typed in Open WebUI with a file attached (recorded): the file is material every participant reads", async () => {
    const { shape, body } = JSON.parse(readFileSync(new URL("wrapped/open-webui-0.12.4-file.json", CLIENTS), "utf8")) as ReturnType<typeof fixture>;
    const { post, models, db } = await serve();
    const res = await post({ ...body, participants: THREE });
    expect(res.status, shape).toBe(200);
    const reasoning = (await res.text())
      .split("\n\n")
      .filter((e) => e.startsWith("data: {"))
      .map((e) => (JSON.parse(e.slice(6)) as { choices: { delta: { reasoning_content?: string } }[] }).choices[0]?.delta?.reasoning_content ?? "")
      .join("");
    // The run is shown with the question as typed (its start event's), the material left to the models.
    expect(reasoning.split("\n")[0]).toBe("**Vote: What is the secret code word in the document?**");
    expect(reasoning).not.toContain("PELICAN-42");
    expect(reasoning).not.toMatch(/### Task|<context>|attached_files/);
    // Every participant read the question and the file, named; none read Open WebUI's template.
    const answers = models.callsOf("answer");
    expect(answers).toHaveLength(3);
    for (const call of answers) {
      const given = JSON.stringify(call.messages.map((m) => m.content));
      expect(given).toContain("What is the secret code word in the document?");
      expect(given).toContain("[1] testdoc.txt");
      expect(given).toContain("The secret code word is PELICAN-42.");
      expect(given).not.toMatch(/### Task|<source|attached_files/);
    }
    // The history has the person's question, titled from it (not from the template).
    const titled = JSON.stringify(models.callsOf("title").map((c) => c.messages.map((m) => m.content)));
    expect(titled).toContain("What is the secret code word in the document?");
    expect(titled).not.toMatch(/### Task|<source|testdoc\.txt|PELICAN/);
    const [question] = (await db.rows("messages")).filter((m) => m.role === "user");
    expect(question.content).toBe("/vote What is the secret code word in the document?");
  });

  it("deliberates on the question a LibreChat user asked with two files (their RAG context in the system message): each file is material by its name", async () => {
    const { body } = JSON.parse(readFileSync(new URL("wrapped/librechat-0.8-attached-and-rag.json", CLIENTS), "utf8")) as ReturnType<typeof fixture>;
    const { post, models, db } = await serve();
    const res = await post({ ...body, participants: THREE });
    expect(res.status).toBe(200);
    await res.text();
    for (const call of models.callsOf("answer")) {
      const given = JSON.stringify(call.messages.map((m) => m.content));
      expect(given).toContain("Hur länge tas returer emot, och vad kostar frakten?");
      expect(given).toContain("[1] anteckningar.md");
      expect(given).toContain("[2] returpolicy.pdf");
      expect(given).not.toMatch(/semantic search|<contextItem>|Attached document/);
    }
    expect(JSON.stringify(models.callsOf("title").map((c) => c.messages.map((m) => m.content)))).not.toMatch(/PELIKAN|returpolicy/);
    const [question] = (await db.rows("messages")).filter((m) => m.role === "user");
    expect(question.content).toBe("/vote Hur länge tas returer emot, och vad kostar frakten?");
  });

  it("reads a text file sent as a file part (OpenAI's SDK) as material every participant reads", async () => {
    const { client, models } = await serve();
    const csv = Buffer.from("product,price\nwidget,12\ngadget,30\n").toString("base64");
    const r = await client.chat.completions.create({
      model: "debatt-vote",
      participants: THREE,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Which product costs more?" },
            { type: "file", file: { filename: "prices.csv", file_data: `data:text/csv;base64,${csv}` } },
          ],
        },
      ],
    } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming);
    expect(r.choices[0].message.content?.length).toBeGreaterThan(0);
    const answers = models.callsOf("answer");
    expect(answers).toHaveLength(3);
    for (const call of answers) expect(JSON.stringify(call.messages.map((m) => m.content))).toContain("[1] prices.csv\\nproduct,price\\nwidget,12\\ngadget,30");
    expect((r.choices[0].message as { reasoning_content?: string }).reasoning_content ?? "").not.toContain("Left out");
  });

  it("shows a /debatt with a file attached by the topic as typed, while every debater reads the file (recorded Open WebUI request)", async () => {
    const { body } = JSON.parse(readFileSync(new URL("wrapped/open-webui-0.12.4-file.json", CLIENTS), "utf8")) as ReturnType<typeof fixture>;
    const { post, models } = await serve();
    const text = await (await post({ ...body, model: "debatt", participants: THREE })).text();
    const reasoning = text
      .split("\n\n")
      .filter((e) => e.startsWith("data: {"))
      .map((e) => (JSON.parse(e.slice(6)) as { choices: { delta: { reasoning_content?: string } }[] }).choices[0]?.delta?.reasoning_content ?? "")
      .join("");
    expect(reasoning.split("\n")[0]).toMatch(/What is the secret code word in the document\?\*\*$/);
    expect(reasoning).not.toMatch(/PELICAN|testdoc\.txt/);
    const turns = models.callsOf("turn");
    expect(turns.length).toBeGreaterThan(0);
    for (const call of turns) expect(JSON.stringify(call.messages.map((m) => m.content))).toContain("The secret code word is PELICAN-42.");
  });

  it("tells a client that asked for no usage what the run cost: at the end of the reasoning, of the content, or not", async () => {
    /** The streamed reasoning and content of a /compare asked for as a chat front end asks (no usage), or with `stream_options`. */
    const streamed = async (settings: Partial<Settings>, includeUsage = false) => {
      const { post } = await serve({ settings });
      const res = await post({
        model: "debatt-compare",
        messages: [{ role: "user", content: "Which language first?" }],
        participants: THREE,
        stream: true,
        ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
      });
      const deltas = (await res.text())
        .split("\n\n")
        .filter((e) => e.startsWith("data: {"))
        .map((e) => (JSON.parse(e.slice(6)) as { choices: { delta?: { content?: string; reasoning_content?: string } }[] }).choices[0]?.delta ?? {});
      return { reasoning: deltas.map((d) => d.reasoning_content ?? "").join(""), content: deltas.map((d) => d.content ?? "").join("") };
    };
    const cost = /Cost: 3 model calls/;
    const reasoning = await streamed({});
    expect(reasoning.reasoning.trimEnd().split("\n").at(-1)).toMatch(cost);
    expect(reasoning.content).not.toMatch(cost);
    const content = await streamed({ openaiCostLine: "content" });
    expect(content.content.trimEnd().split("\n").at(-1)).toMatch(/^\*Cost: 3 model calls.*\*$/);
    expect(content.reasoning).not.toMatch(cost);
    for (const quiet of [await streamed({ openaiCostLine: "none" }), await streamed({}, true)]) {
      expect(quiet.reasoning).not.toMatch(cost);
      expect(quiet.content).not.toMatch(cost);
    }
  });

  it("keeps one chat as one conversation: a turn whose last answer is debatt's goes on in that answer's conversation", async () => {
    const { client, db } = await serve();
    const ask = async (model: string, messages: OpenAI.ChatCompletionMessageParam[]) =>
      (await client.chat.completions.create({ model, messages, participants: THREE } as OpenAI.ChatCompletionCreateParamsNonStreaming)).choices[0].message
        .content!;
    const first = await ask("debatt-vote", [{ role: "user", content: "Which language first?" }]);
    // The client sends the whole chat back, as Open WebUI does, with the answer as it showed it.
    const chat: OpenAI.ChatCompletionMessageParam[] = [
      { role: "user", content: "Which language first?" },
      { role: "assistant", content: `${first}\n\n*Cost: 6 model calls*` },
      { role: "user", content: "And for a child?" },
    ];
    await ask("debatt-vote", chat);
    const conversations = await db.rows("conversations");
    expect(conversations).toHaveLength(1);
    expect((await db.rows("messages")).filter((m) => m.role === "user").map((m) => m.content)).toEqual([
      "/vote Which language first?",
      "/vote And for a child?",
    ]);
    // Another chat, and a format that takes no follow-ups, are conversations of their own.
    await ask("debatt-vote", [
      { role: "user", content: "Tea?" },
      { role: "assistant", content: "Something debatt never said." },
      { role: "user", content: "Why?" },
    ]);
    const rank = await ask("debatt-rank", [{ role: "user", content: "Which editor?" }]);
    await ask("debatt-rank", [
      { role: "user", content: "Which editor?" },
      { role: "assistant", content: rank },
      { role: "user", content: "Why?" },
    ]);
    expect(await db.rows("conversations")).toHaveLength(4);
  });

  it("answers a chat whose history holds images, files, a refusal and its own <think> narration, saying what it left out", async () => {
    const { shape, body } = fixture("open-webui-chat-with-parts.json");
    const { post, models } = await serve();
    const res = await post({ ...body, participants: THREE });
    expect(res.status, shape).toBe(200);
    const chunks = (await res.text())
      .split("\n\n")
      .filter((e) => e.startsWith("data: {"))
      .map((e) => JSON.parse(e.slice(6)) as { choices: { delta: { content?: string; reasoning_content?: string } }[] });
    const reasoning = chunks.map((c) => c.choices[0]?.delta?.reasoning_content ?? "").join("");
    // Said in the question's language (Swedish here).
    expect(reasoning).toContain("Utelämnat ur samtalet: image_url, file (modellerna läser bara text).");
    expect(
      chunks
        .map((c) => c.choices[0]?.delta?.content ?? "")
        .join("")
        .trim().length,
    ).toBeGreaterThan(0);
    // What the models were given of the history: the texts, the refusal's words, not the narration.
    const given = JSON.stringify(models.callsOf("answer").map((c) => c.messages.map((m) => m.content)));
    expect(given).toContain("Jag kan inte se bilder.");
    expect(given).toContain("Go passar bäst för webb-API:er.");
    expect(given).not.toMatch(/think>|narration|image_url|data:image/);
  });

  it("takes a question with a pasted document of 40 000 characters", async () => {
    const { client } = await serve();
    const document = "Avtalet reglerar leveranser och ansvar. ".repeat(1_000);
    const done = await client.chat.completions.create({
      model: "debatt-compare",
      messages: [{ role: "user", content: `${document}\n\nVad säger avtalet om ansvar?` }],
      participants: THREE,
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(done.choices[0].message.content!.length).toBeGreaterThan(0);
  });

  it("sends all the progress before the first content, and what follows the answer in the last chunk (the Vercel AI SDK sees one reasoning part)", async () => {
    const { server } = await serve();
    /** The kinds of the stream's parts, and the reasoning told after the text began. */
    const parts = async (includeUsage: boolean) => {
      const provider = createOpenAICompatible({ name: "debatt", baseURL: `${server.url}/v1`, apiKey: "x", includeUsage });
      const result = streamText({
        model: provider("debatt-compare"),
        prompt: "Which language suits web APIs best?",
        providerOptions: { debatt: { participants: THREE } },
      });
      const kinds: string[] = [];
      let after = "";
      for await (const part of result.fullStream) {
        if (["reasoning-start", "text-start", "text-delta", "reasoning-delta"].includes(part.type)) kinds.push(part.type);
        if (part.type === "reasoning-delta" && kinds.includes("text-delta")) after += part.text;
      }
      expect((await result.text).length).toBeGreaterThan(0);
      return { kinds, after };
    };
    // Asking for the usage (the SDK's includeUsage), it reads the cost there: one reasoning part, before the text.
    const { kinds } = await parts(true);
    const firstText = kinds.indexOf("text-delta");
    expect(firstText).toBeGreaterThan(0);
    expect(kinds.slice(firstText).filter((k) => k.startsWith("reasoning"))).toEqual([]);
    expect(kinds.filter((k) => k === "reasoning-start")).toHaveLength(1);
    // Not asking, it is told the cost line after the text, and nothing else.
    expect((await parts(false)).after.trim()).toMatch(/^Cost: \d+ model calls/);
  });

  it("keeps a slow run's stream and a whole answer's response alive while nothing else is sent", async () => {
    const slow = withOverrides((req) => (req.phase === "compare" ? { text: `${req.participant!.display} answers slowly.`, latencyMs: 700 } : undefined));
    const { post, client } = await serve({ script: slow, settings: { sseKeepAliveMs: 150 } });
    const streamed = await (await post({ model: "debatt-compare", stream: true, messages: [{ role: "user", content: "Which?" }], participants: THREE })).text();
    expect(streamed).toContain(": keep-alive\n\n");
    const whole = await post({ model: "debatt-compare", messages: [{ role: "user", content: "Which?" }], participants: THREE });
    const raw = await whole.text();
    expect(raw).toMatch(/^ +\{/);
    expect((JSON.parse(raw) as { choices: { message: { content: string } }[] }).choices[0].message.content).toContain("answers slowly");
    // The official client reads an answer that began with spaces as any other.
    const read = await client.chat.completions.create({
      model: "debatt-compare",
      messages: [{ role: "user", content: "Which?" }],
      participants: THREE,
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(read.choices[0].message.content).toContain("answers slowly");
  });

  it("honours response_format, max_tokens and stop", async () => {
    const { client, models } = await serve();
    const ask = (extra: Record<string, unknown>) =>
      client.chat.completions.create({
        model: "debatt-vote",
        messages: [{ role: "user", content: "Which language suits web APIs best?" }],
        participants: THREE,
        ...extra,
      } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const schema = { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] };
    const json = await ask({ response_format: { type: "json_schema", json_schema: { name: "answer", schema } } });
    expect(JSON.parse(json.choices[0].message.content!)).toEqual({ answer: "A scripted JSON answer." });
    expect(models.callsOf("json_result")).toHaveLength(1);
    const cut = await ask({ max_tokens: 5 });
    expect(cut.choices[0].finish_reason).toBe("length");
    expect(cut.choices[0].message.content!.length).toBeLessThanOrEqual(20);
    // Every scripted answer is "<name> says in round 1: …": the result stops before the sequence.
    const stopped = await ask({ stop: [" says in", "never there"] });
    expect(stopped.choices[0].finish_reason).toBe("stop");
    expect(stopped.choices[0].message.content).toMatch(/^(Grok|Claude|ChatGPT)$/);
  });
});
