/**
 * The floors of the /vote benchmark, run as a child process: the model calls one /vote question
 * made (recorded by the scripted endpoint, passed in as JSON on stdin) made again in a bare script,
 * in the same waves (the answers at once, then the ballots at once, then the rest). Each line after
 * the input asks it for a number of questions; it answers each with its CPU milliseconds (every
 * thread, since its start) when it began them and when it had answered them, so the benchmark can
 * measure it in turns with the server.
 *
 * `mode` (argv[2]):
 *   - "bare": each call through `ChatOpenAI.stream()`, every chunk read; nothing else.
 *   - "openai": each call through the official `openai` client's stream, every chunk read.
 *   - "fetch": each call through `fetch`, its body parsed with `eventsource-parser` and each
 *     chunk's JSON read: the rawest way a script reads the stream.
 *   - "bare-als": the same inside one `AsyncLocalStorage.run`, as LangGraph runs its nodes: from then
 *     on Node 20 runs the store's hooks for every promise of the process.
 *   - "graph": the same calls as the tasks of a bare LangGraph graph (one `Send` per call, a step
 *     that joins each wave), streamed as the product streams them (`streamMessage`), checkpointed
 *     in SQLite as the server's runs are: what LangGraph itself adds before any of debatt's code.
 *   - "wave": the same calls in a bare LangGraph graph with one node per wave that makes the wave's
 *     calls at once itself (one step and one checkpoint per wave, none per call): the design that
 *     would save LangGraph's per-task cost, at the price of a resumed run paying again for every
 *     answer of a wave cut short.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createInterface } from "node:readline";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Annotation, END, Send, START, StateGraph } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { coerceMessageLikeToMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { createParser } from "eventsource-parser";
import OpenAI from "openai";
import { streamMessage } from "../nodes/shared/model-call.js";
import type { RecordedRequest } from "./scripted-endpoint.js";

// The first line of stdin is the input; each line after it a number of questions to ask.
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const input = JSON.parse((await lines.next()).value as string) as {
  baseUrl: string;
  waves: RecordedRequest[][];
};
const mode = (["graph", "wave", "bare-als", "openai", "fetch"] as const).find((m) => m === process.argv[2]) ?? "bare";

const clients = new Map<string, ChatOpenAI>();
const client = (model: string) => {
  let c = clients.get(model);
  if (!c) clients.set(model, (c = new ChatOpenAI({ model, apiKey: "sk-bench", configuration: { baseURL: input.baseUrl }, maxRetries: 0, streamUsage: true })));
  return c;
};
const messagesOf = (r: RecordedRequest) =>
  r.messages.map((m) => [m.role === "assistant" ? "ai" : m.role === "user" ? "human" : m.role, String(m.content)] as [string, string]);

/** One recorded call streamed as the product streams it (`streamMessage`); its text. */
async function call(r: RecordedRequest): Promise<string> {
  const answer = await streamMessage(client(r.model), messagesOf(r).map(coerceMessageLikeToMessage), new AbortController().signal, () => {});
  return String(answer.content);
}

/** One question's calls, bare: each wave's calls at once, every chunk read. */
async function bare(): Promise<void> {
  for (const wave of input.waves) {
    await Promise.all(
      wave.map(async (r) => {
        for await (const _ of await client(r.model).stream(messagesOf(r))) {
          /* every chunk is read, as the product reads them */
        }
      }),
    );
  }
}

const openai = new OpenAI({ apiKey: "sk-bench", baseURL: input.baseUrl, maxRetries: 0 });
const wireMessages = (r: RecordedRequest) => r.messages.map((m) => ({ role: m.role, content: String(m.content) })) as OpenAI.ChatCompletionMessageParam[];

/** One question's calls through the `openai` client's stream, each wave's calls at once. */
async function viaOpenAI(): Promise<void> {
  for (const wave of input.waves) {
    await Promise.all(
      wave.map(async (r) => {
        const stream = await openai.chat.completions.create({
          model: r.model,
          messages: wireMessages(r),
          stream: true,
          stream_options: { include_usage: true },
        });
        let text = "";
        for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
        return text;
      }),
    );
  }
}

/** One question's calls through `fetch` and `eventsource-parser`, each wave's calls at once. */
async function viaFetch(): Promise<void> {
  for (const wave of input.waves) {
    await Promise.all(
      wave.map(async (r) => {
        const res = await fetch(`${input.baseUrl}/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: "Bearer sk-bench" },
          body: JSON.stringify({ model: r.model, messages: wireMessages(r), stream: true, stream_options: { include_usage: true } }),
        });
        let text = "";
        const parser = createParser({
          onEvent: (e) => {
            if (e.data !== "[DONE]") text += (JSON.parse(e.data) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content ?? "";
          },
        });
        const decoder = new TextDecoder();
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
        return text;
      }),
    );
  }
}

/** The same waves as a LangGraph graph: a `Send` per call, a joining step after each wave. */
function waveGraph() {
  const State = Annotation.Root({
    wave: Annotation<number>({ reducer: (_a, b) => b, default: () => 0 }),
    texts: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const sends = (wave: number) => (wave < input.waves.length ? input.waves[wave].map((_, i) => new Send("call", { wave, i })) : END);
  const saver = SqliteSaver.fromConnString(join(mkdtempSync(join(tmpdir(), "debatt-bench-floor-")), "checkpoints.sqlite"));
  return new StateGraph(State)
    .addNode("plan", () => ({}))
    .addNode("call", async (task: { wave: number; i: number }) => ({ texts: [await call(input.waves[task.wave][task.i])] }))
    .addNode("join", (s: typeof State.State) => ({ wave: s.wave + 1 }))
    .addEdge(START, "plan")
    .addConditionalEdges("plan", (s: typeof State.State) => sends(s.wave))
    .addEdge("call", "join")
    .addConditionalEdges("join", (s: typeof State.State) => sends(s.wave))
    .compile({ checkpointer: saver });
}

/** The same waves with one node per wave, whose calls run at once inside it: no task or checkpoint per call. */
function waveNodeGraph() {
  const State = Annotation.Root({
    wave: Annotation<number>({ reducer: (_a, b) => b, default: () => 0 }),
    texts: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const saver = SqliteSaver.fromConnString(join(mkdtempSync(join(tmpdir(), "debatt-bench-floor-")), "checkpoints.sqlite"));
  const next = (s: typeof State.State) => (s.wave < input.waves.length ? "calls" : END);
  return new StateGraph(State)
    .addNode("calls", async (s: typeof State.State) => ({ texts: await Promise.all(input.waves[s.wave].map(call)), wave: s.wave + 1 }))
    .addEdge(START, "calls")
    .addConditionalEdges("calls", next)
    .compile({ checkpointer: saver });
}

const graph = mode === "graph" ? waveGraph() : mode === "wave" ? waveNodeGraph() : undefined;
const store = new AsyncLocalStorage<object>();
let thread = 0;
async function question(): Promise<void> {
  if (mode === "bare-als") return store.run({}, bare);
  if (mode === "openai") return viaOpenAI();
  if (mode === "fetch") return viaFetch();
  if (!graph) return bare();
  for await (const _ of await graph.stream({}, { streamMode: "custom", configurable: { thread_id: `q${thread++}` } })) {
    /* nothing is emitted */
  }
}

/** CPU milliseconds of the process since its start, every thread. */
const cpuMs = () => {
  const cpu = process.cpuUsage();
  return (cpu.user + cpu.system) / 1000;
};

// Asked for n questions, asks them and answers with its CPU ms when it began and when it had done.
for await (const line of { [Symbol.asyncIterator]: () => lines }) {
  const startMs = cpuMs();
  for (let i = 0; i < Number(line); i++) await question();
  process.stdout.write(`${JSON.stringify({ startMs, endMs: cpuMs() })}\n`);
}
