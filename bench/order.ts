/**
 * Benchmark: time to the verdict of a sequential and a simultaneous /debatt, side by side in one
 * run, at the same pacing.
 *
 * Eight simulated participants answer with a provider's shape, compressed ten times in time: the
 * first token after 100 ms (1 s), then one word-token every 2.5 ms (40 tokens per second), with
 * the debate's own answer lengths. Prints the time from `debate-init` to
 * `debate-synthesis-complete` for each order (medians of BENCH_RUNS runs) and their ratio
 * (target: simultaneous ≤ 0.3 of sequential).
 */
import { simulatedModels } from "../service/formats.js";
import { MemorySaver } from "@langchain/langgraph";
import { buildAppGraph } from "../service/formats.js";
import { nodeDepsOf } from "../service/app-deps.js";
import { streamClientEvents } from "../service/stream.js";
import { InMemoryPromptStore } from "../prompts/store.js";
import { loadSettings } from "../state/config.js";
import type { DebateOrder } from "../state/formats.js";
import { median } from "./stats.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PACING = { latencyMs: 100, chunkDelayMs: 2.5, chunkTokens: 1 };

/** Milliseconds from `debate-init` to `debate-synthesis-complete` of one 8-participant debate. */
async function toVerdict(order: DebateOrder): Promise<number> {
  const settings = loadSettings({});
  const deps = { models: simulatedModels(PACING), prompts: new InMemoryPromptStore(), settings, log: () => {} };
  const graph = buildAppGraph(nodeDepsOf(deps), { checkpointer: new MemorySaver(), settings });
  let init = 0;
  for await (const e of streamClientEvents(graph, { message: "/debatt Bör AI regleras?" }, { configurable: { seed: 1, order } })) {
    if (e.event === "debate-init") init = performance.now();
    if (e.event === "error") throw new Error(`the debate failed: ${JSON.stringify(e.data)}`);
    if (e.event === "debate-synthesis-complete") return performance.now() - init;
  }
  throw new Error("the debate did not complete");
}

async function main() {
  const times: Record<DebateOrder, number[]> = { sequential: [], simultaneous: [] };
  for (let i = 0; i < RUNS; i++) for (const order of ["sequential", "simultaneous"] as const) times[order].push(await toVerdict(order));
  const [seq, sim] = [median(times.sequential), median(times.simultaneous)];
  console.log(
    `debatt time to the verdict — 8 participants, first token after ${PACING.latencyMs} ms, a token every ${PACING.chunkDelayMs} ms (1 s and 40 tokens/s, compressed ×10), medians of ${RUNS} runs`,
  );
  console.log(`sequential:   debate-init → synthesis ${(seq / 1000).toFixed(2)} s`);
  console.log(`simultaneous: debate-init → synthesis ${(sim / 1000).toFixed(2)} s`);
  console.log(`  simultaneous ÷ sequential: ${(sim / seq).toFixed(2)} (target ≤ 0.3)`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
