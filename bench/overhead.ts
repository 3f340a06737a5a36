/**
 * Benchmark: what debatt adds on top of LangGraph.js, measured side by side in one run.
 *
 * A full 8-participant debate on the simulated provider (fixed latency L per model call, about
 * 400 streamed word-tokens per answer, a checkpointer on, every event serialised as the SSE bridge
 * would) is compared with a bare LangGraph loop of the same number of steps that only sleeps L
 * (same checkpointer). Prints:
 *   (a) wall time ÷ critical-path lower bound, for both (target: debate within 0.02 of the loop)
 *   (b) debate CPU ms ÷ bare-loop CPU ms (target ≤ 1.2)
 */
import { randomUUID } from "node:crypto";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { simulatedModels } from "../service/formats.js";
import { Annotation, END, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import type { BaseMessage } from "@langchain/core/messages";
import { streamMessage } from "../nodes/shared/model-call.js";
import type { ModelFactory, ModelRequest } from "../ports/models.js";
import { buildAppGraph } from "../service/formats.js";
import { nodeDepsOf, type AppDeps } from "../service/app-deps.js";
import { streamClientEvents } from "../service/stream.js";
import { InMemoryPromptStore } from "../prompts/store.js";
import { loadSettings } from "../state/config.js";

const L = 50;
const PARTICIPANTS = 8;
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
/** Runs of each graph before the measured ones: a server runs its code warm (compiled by V8's optimising tier). */
const WARM_UP = 3;
/** Steps of one debate: resolve_intent, planner, 24 turns, the parallel vote, convergence, synthesis. */
const DEBATE_STEPS = 2 + 3 * PARTICIPANTS + 3;
/** Model calls on the critical path: 24 sequential turns, convergence, synthesis, plus one L for the parallel vote. */
const DEBATE_LOWER_BOUND_MS = (3 * PARTICIPANTS + 2 + 1) * L;

interface Sample {
  wallMs: number;
  cpuMs: number;
  events: number;
  firstDeltaMs: number;
}

function measure<T>(fn: () => Promise<T>): Promise<{ wallMs: number; cpuMs: number; value: T }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  return fn().then((value) => {
    const cpu = process.cpuUsage(cpu0);
    return { wallMs: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, value };
  });
}

/** A model call as the debate made it: the request and the messages. */
interface RecordedCall {
  request: ModelRequest;
  messages: BaseMessage[];
}

/** A model factory that records every call its models are invoked with (for the fair floor). */
function recording(models: ModelFactory, calls: RecordedCall[]): ModelFactory {
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
function debateGraph(chunkTokens: number, record?: RecordedCall[]) {
  const settings = loadSettings({});
  const simulated = simulatedModels({ latencyMs: L, chunkDelayMs: 0, chunkTokens, answerWords: 400 });
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
type DebateGraph = ReturnType<typeof debateGraph>;

async function debateOnce(graph: DebateGraph): Promise<Sample> {
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

async function bareOnce(): Promise<Sample> {
  const State = Annotation.Root({ n: Annotation<number>({ reducer: (_a, b) => b, default: () => 0 }) });
  const graph = new StateGraph(State)
    .addNode("step", async (s: typeof State.State) => {
      await new Promise((r) => setTimeout(r, L));
      return { n: s.n + 1 };
    })
    .addEdge(START, "step")
    .addConditionalEdges("step", (s: typeof State.State) => (s.n < DEBATE_STEPS ? "step" : END), ["step", END])
    .compile({ checkpointer: new MemorySaver() });
  const r = await measure(async () => {
    for await (const _ of await graph.stream({ n: 0 }, { streamMode: "custom", recursionLimit: DEBATE_STEPS + 5, configurable: { thread_id: "bare" } })) {
      /* nothing is emitted */
    }
  });
  return { wallMs: r.wallMs, cpuMs: r.cpuMs, events: 0, firstDeltaMs: 0 };
}

/** Receives a call's tokens as a LangChain app streams them: a callback that prefers streaming. */
class Tokens extends BaseCallbackHandler {
  name = "tokens";
  readonly lc_prefer_streaming = true;
  override handleLLMNewToken(): void {}
}

/**
 * The fair floor: a bare LangGraph loop of the debate's steps making the debate's own model calls
 * (`calls`, recorded from one debate); the vote's calls at once in one step; same checkpointer.
 * `way`: each call streamed through `@langchain/core` with a token callback, as a LangChain app
 * streams (the floor of the target), or debatt's own way (`streamMessage`: the text straight to
 * `onText`), which costs less per token.
 */
function fairGraph(chunkTokens: number, calls: RecordedCall[], way: "langchain" | "debatt") {
  const models = simulatedModels({ latencyMs: L, chunkDelayMs: 0, chunkTokens, answerWords: 400 });
  const steps: RecordedCall[][] = [];
  for (const call of calls) {
    // The vote's calls share one step, as the debate's parallel vote does.
    if (call.request.phase === "vote" && steps.at(-1)?.[0].request.phase === "vote") steps.at(-1)!.push(call);
    else steps.push([call]);
  }
  const State = Annotation.Root({ n: Annotation<number>({ reducer: (_a, b) => b, default: () => 0 }) });
  const graph = new StateGraph(State)
    .addNode("step", async (s: typeof State.State) => {
      await Promise.all(
        (steps[s.n] ?? []).map((c) =>
          way === "debatt"
            ? streamMessage(models.create(c.request), c.messages, new AbortController().signal, () => {})
            : models.create(c.request).invoke(c.messages, { callbacks: [new Tokens()] }),
        ),
      );
      return { n: s.n + 1 };
    })
    .addEdge(START, "step")
    .addConditionalEdges("step", (s: typeof State.State) => (s.n < steps.length ? "step" : END), ["step", END])
    .compile({ checkpointer: new MemorySaver() });
  return { graph, steps: steps.length };
}

async function fairOnce({ graph, steps }: ReturnType<typeof fairGraph>): Promise<Sample> {
  const r = await measure(async () => {
    for await (const _ of await graph.stream({ n: 0 }, { streamMode: "custom", recursionLimit: steps + 5, configurable: { thread_id: randomUUID() } })) {
      /* nothing is emitted */
    }
  });
  return { wallMs: r.wallMs, cpuMs: r.cpuMs, events: 0, firstDeltaMs: 0 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const chunkSizes = (process.env.BENCH_CHUNKS ?? "16,4,1").split(",").map(Number);
  await bareOnce();
  // Warm-up, and each chunk size's model calls recorded for its fair floors.
  const recorded: Record<number, RecordedCall[]> = Object.fromEntries(chunkSizes.map((c) => [c, []]));
  for (const c of chunkSizes) await debateOnce(debateGraph(c, recorded[c]));
  const graphs = Object.fromEntries(
    chunkSizes.map((c) => [c, { debate: debateGraph(c), langchain: fairGraph(c, recorded[c], "langchain"), debatt: fairGraph(c, recorded[c], "debatt") }]),
  );
  for (let i = 0; i < WARM_UP; i++) for (const c of chunkSizes) for (const g of Object.values(graphs[c])) await ("graph" in g ? fairOnce(g) : debateOnce(g));
  const bare: Sample[] = [];
  const samples = Object.fromEntries(chunkSizes.map((c) => [c, { debate: [] as Sample[], langchain: [] as Sample[], debatt: [] as Sample[] }]));
  for (let i = 0; i < RUNS; i++) {
    bare.push(await bareOnce());
    for (const c of chunkSizes) {
      samples[c].debate.push(await debateOnce(graphs[c].debate));
      samples[c].langchain.push(await fairOnce(graphs[c].langchain));
      samples[c].debatt.push(await fairOnce(graphs[c].debatt));
    }
  }
  const bareWall = median(bare.map((s) => s.wallMs));
  const bareCpu = median(bare.map((s) => s.cpuMs));
  const bareRatio = bareWall / (DEBATE_STEPS * L);
  console.log(`debatt overhead benchmark — L = ${L} ms, ${PARTICIPANTS} participants, ${DEBATE_STEPS} steps, medians of ${RUNS} runs`);
  console.log(`bare loop: wall ${bareWall.toFixed(0)} ms, lower bound ${DEBATE_STEPS * L} ms, ratio ${bareRatio.toFixed(3)}, CPU ${bareCpu.toFixed(0)} ms`);
  for (const c of chunkSizes) {
    const s = samples[c].debate;
    const wall = median(s.map((x) => x.wallMs));
    const cpu = median(s.map((x) => x.cpuMs));
    const ratio = wall / DEBATE_LOWER_BOUND_MS;
    console.log(
      `debate, ${c} token(s) per stream chunk: wall ${wall.toFixed(0)} ms, lower bound ${DEBATE_LOWER_BOUND_MS} ms, ` +
        `${median(s.map((x) => x.events))} events, first delta after ${median(s.map((x) => x.firstDeltaMs)).toFixed(0)} ms, CPU ${cpu.toFixed(0)} ms`,
    );
    console.log(
      `  (a) wall ÷ lower bound: debate ${ratio.toFixed(3)} vs bare ${bareRatio.toFixed(3)} → difference ${(ratio - bareRatio).toFixed(3)} (target ≤ 0.02)`,
    );
    console.log(`  (b) CPU debate ÷ bare: ${(cpu / bareCpu).toFixed(2)} (target ≤ 1.2)`);
    const fairWall = median(samples[c].langchain.map((x) => x.wallMs));
    const fairCpu = median(samples[c].langchain.map((x) => x.cpuMs));
    const ownCpu = median(samples[c].debatt.map((x) => x.cpuMs));
    console.log(
      `  fair floor (the same ${recorded[c].length} model calls in a bare loop, streamed through a LangChain token callback): wall ${fairWall.toFixed(0)} ms, CPU ${fairCpu.toFixed(0)} ms`,
    );
    console.log(
      `  (c) CPU debate ÷ fair floor: ${(cpu / fairCpu).toFixed(2)} (target ≤ 1.2); wall ratio difference ${((wall - fairWall) / DEBATE_LOWER_BOUND_MS).toFixed(3)} (target ≤ 0.01)`,
    );
    // Each debate and the floor run after it share the machine's state of the moment (a busy
    // neighbour, a CPU's clock): the ratio of each such pair is steadier than that of the medians.
    const pairs = samples[c].debate.map((d, i) => d.cpuMs / samples[c].langchain[i].cpuMs).sort((a, b) => a - b);
    console.log(
      `      the same, run by run (each debate ÷ the floor run after it): median ${median(pairs).toFixed(2)}, from ${pairs[0].toFixed(2)} to ${pairs.at(-1)!.toFixed(2)}`,
    );
    console.log(
      `  the same calls streamed debatt's way (the text straight to onText): CPU ${ownCpu.toFixed(0)} ms; debate ÷ it ${(cpu / ownCpu).toFixed(2)} (what debatt adds over its own calls)`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

/** The graph the service builds from these deps. */
function graphFor(deps: AppDeps, options: Omit<Parameters<typeof buildAppGraph>[1], "settings"> = {}) {
  return buildAppGraph(nodeDepsOf(deps), { ...options, settings: deps.settings });
}
