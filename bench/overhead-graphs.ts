/**
 * What bench/overhead.ts and bench/instructions.ts run: the debate on the simulated provider, the
 * app's graph built once as the server builds it, and the fair floor (the debate's own model calls
 * in a bare LangGraph loop), each run once by `debateOnce` and `fairOnce`.
 */
import { randomUUID } from "node:crypto";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { Annotation, END, MemorySaver, START, StateGraph, task } from "@langchain/langgraph";
import type { BaseMessage } from "@langchain/core/messages";
import { streamMessage } from "../nodes/shared/model-call.js";
import type { ModelFactory, ModelRequest } from "../ports/models.js";
import { buildAppGraph, simulatedModels } from "../service/formats.js";
import { nodeDepsOf, type AppDeps } from "../service/app-deps.js";
import { streamClientEvents } from "../service/stream.js";
import { InMemoryPromptStore } from "../prompts/store.js";
import { loadSettings } from "../state/config.js";

/** Each simulated model call's latency, ms. */
export const L = 50;

export interface Sample {
  wallMs: number;
  cpuMs: number;
  events: number;
  firstDeltaMs: number;
}

export function measure<T>(fn: () => Promise<T>): Promise<{ wallMs: number; cpuMs: number; value: T }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  return fn().then((value) => {
    const cpu = process.cpuUsage(cpu0);
    return { wallMs: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, value };
  });
}

/** A model call as the debate made it: the request and the messages. */
export interface RecordedCall {
  request: ModelRequest;
  messages: BaseMessage[];
}

/** A model factory that records every call its models are invoked with (for the fair floor). */
export function recording(models: ModelFactory, calls: RecordedCall[]): ModelFactory {
  return {
    simulated: models.simulated,
    create(request) {
      const model = models.create(request);
      return new Proxy(model, {
        get(target, prop) {
          const value = Reflect.get(target, prop, target) as unknown;
          if (prop === "invoke") return (messages: BaseMessage[], options?: object) => (calls.push({ request, messages }), target.invoke(messages, options));
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
    },
  };
}

/** The app's graph on the simulated provider, built once as the server builds it (`record`: every call is recorded). */
export function debateGraph(chunkTokens: number, record?: RecordedCall[], latencyMs = L) {
  const settings = loadSettings({});
  const simulated = simulatedModels({ latencyMs, chunkDelayMs: 0, chunkTokens, answerWords: 400 });
  return graphFor(
    {
      models: record ? recording(simulated, record) : simulated,
      prompts: new InMemoryPromptStore(),
      settings,
      log: () => {},
    },
    { checkpointer: new MemorySaver() },
  );
}
export type DebateGraph = ReturnType<typeof debateGraph>;

export async function debateOnce(graph: DebateGraph): Promise<Sample> {
  let first = 0;
  let started = 0;
  const r = await measure(async () => {
    started = performance.now();
    let id = 0;
    let bytes = 0;
    let completed = false;
    for await (const e of streamClientEvents(graph, { message: "/debatt Bör AI regleras?" }, { configurable: { seed: 1 }, threadId: randomUUID() })) {
      // Serialised exactly as the SSE bridge frames an event.
      bytes += `id: ${++id}\nevent: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`.length;
      if (!first && e.event === "debate-participant-delta") first = performance.now() - started;
      if (e.event === "debate-synthesis-complete") completed = true;
      if (e.event === "error") throw new Error(`the debate failed: ${JSON.stringify(e.data)}`);
    }
    if (!completed || bytes === 0) throw new Error("the debate did not complete");
    return id;
  });
  return { wallMs: r.wallMs, cpuMs: r.cpuMs, events: r.value, firstDeltaMs: first };
}

/** Receives a call's tokens as a LangChain app streams them: a callback that prefers streaming. */
export class Tokens extends BaseCallbackHandler {
  name = "tokens";
  readonly lc_prefer_streaming = true;
  override handleLLMNewToken(): void {}
}

/**
 * The fair floor: a bare LangGraph loop making the debate's own model calls (`calls`, recorded from
 * one debate), same checkpointer. `shape`: a step per call, the vote's calls at once in one step,
 * as a plain LangGraph app makes them (the floor of the target); or the debate's own shape
 * ("rounds": a round's turns one after the other as tasks of one step, the vote's calls at once as
 * tasks of one step). `way`: each call streamed through `@langchain/core` with a token callback, as
 * a LangChain app streams (the floor of the target), or debatt's own way (`streamMessage`: the
 * text straight to `onText`), which costs less per token.
 */
export function fairGraph(chunkTokens: number, calls: RecordedCall[], way: "langchain" | "debatt", latencyMs = L, shape: "steps" | "rounds" = "steps") {
  const models = simulatedModels({ latencyMs, chunkDelayMs: 0, chunkTokens, answerWords: 400 });
  const steps: RecordedCall[][] = [];
  const together = (a: RecordedCall, b: RecordedCall | undefined) =>
    b !== undefined &&
    a.request.phase === b.request.phase &&
    (a.request.phase === "vote" || (shape === "rounds" && a.request.phase === "turn" && a.request.round === b.request.round));
  for (const call of calls) {
    if (together(call, steps.at(-1)?.[0])) steps.at(-1)!.push(call);
    else steps.push([call]);
  }
  const callOnce = (c: RecordedCall) =>
    way === "debatt"
      ? streamMessage(models.create(c.request), c.messages, new AbortController().signal, () => {})
      : models.create(c.request).invoke(c.messages, { callbacks: [new Tokens()] });
  const State = Annotation.Root({ n: Annotation<number>({ reducer: (_a, b) => b, default: () => 0 }) });
  const graph = new StateGraph(State)
    .addNode("step", async (s: typeof State.State) => {
      const step = steps[s.n] ?? [];
      if (shape === "steps" || step.length === 1) await Promise.all(step.map(callOnce));
      else {
        const call = task("call", async (i: number) => void (await callOnce(step[i])));
        if (step[0]?.request.phase === "vote") await Promise.all(step.map((_, i) => call(i)));
        else for (let i = 0; i < step.length; i++) await call(i);
      }
      return { n: s.n + 1 };
    })
    .addEdge(START, "step")
    .addConditionalEdges("step", (s: typeof State.State) => (s.n < steps.length ? "step" : END), ["step", END])
    .compile({ checkpointer: new MemorySaver() });
  return { graph, steps: steps.length };
}

export async function fairOnce({ graph, steps }: ReturnType<typeof fairGraph>): Promise<Sample> {
  const r = await measure(async () => {
    for await (const _ of await graph.stream({ n: 0 }, { streamMode: "custom", recursionLimit: steps + 5, configurable: { thread_id: randomUUID() } })) {
      /* nothing is emitted */
    }
  });
  return { wallMs: r.wallMs, cpuMs: r.cpuMs, events: 0, firstDeltaMs: 0 };
}

/** The graph the service builds from these deps. */
export function graphFor(deps: AppDeps, options: Omit<Parameters<typeof buildAppGraph>[1], "settings"> = {}) {
  return buildAppGraph(nodeDepsOf(deps), { ...options, settings: deps.settings });
}
