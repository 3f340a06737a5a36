/**
 * Benchmark: what persistence adds to a debate, measured side by side in one run (issue 7).
 *
 * The same 8-participant debate on the simulated provider (latency L per model call, about 400
 * streamed word-tokens per answer, 16 per chunk) runs alternately
 *   (a) without persistence: no checkpointer, events only counted;
 *   (b) as the service runs it: LangGraph's SQLite checkpointer on a file (every step saved) and
 *       every event appended to the run's event log (the resumable stream).
 * Prints the wall-time ratio b ÷ a (target ≤ 1.02), CPU per debate, and the rows and bytes written.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { openCheckpoints } from "../graph/checkpointer.js";
import { buildGraph } from "../graph/build.js";
import { streamClientEvents } from "../graph/run.js";
import { InMemoryPromptStore } from "../prompts/store.js";
import { SimulatedModelFactory } from "../providers/simulated.js";
import { MemoryEventLog } from "../routes/event-log.js";
import { DEFAULTS, loadSettings } from "../state/config.js";

const L = Number(process.env.BENCH_LATENCY_MS ?? 50);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

interface Sample {
  wallMs: number;
  cpuMs: number;
  events: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function debate(persist: { saver: SqliteSaver; log: MemoryEventLog } | undefined, run: number): Promise<Sample> {
  const graph = buildGraph(
    {
      models: new SimulatedModelFactory({ latencyMs: L, chunkDelayMs: 0, chunkTokens: 16, answerWords: 400 }),
      prompts: new InMemoryPromptStore(),
      settings: loadSettings({}),
      log: () => {},
    },
    { checkpointer: persist?.saver },
  );
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let id = 0;
  const runId = `run-${run}`;
  for await (const e of streamClientEvents(graph, { message: "/debatt Bör AI regleras?" }, { threadId: runId, configurable: { seed: 1 } })) {
    id++;
    if (persist) void persist.log.append(runId, { id, ...e });
  }
  const cpu = process.cpuUsage(cpu0);
  return { wallMs: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, events: id };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "debatt-bench-persist-"));
  const file = join(dir, "checkpoints.sqlite");
  // The service's own checkpointer, on a fresh data directory.
  const checkpoints = await openCheckpoints({ ...loadSettings({}), dataDir: dir });
  const saver = checkpoints.saver as SqliteSaver;
  const log = new MemoryEventLog({ ttlMs: DEFAULTS.eventLogTtlMs, maxBytes: DEFAULTS.eventLogMaxBytes });
  const bare: Sample[] = [];
  const persisted: Sample[] = [];
  try {
    await debate(undefined, -1); // warm-up: module and JIT costs are not the debate's
    await debate({ saver, log }, -2);
    const rowsBefore = (saver.db.prepare("SELECT COUNT(*) AS n FROM checkpoints").get() as { n: number }).n;
    const writesBefore = (saver.db.prepare("SELECT COUNT(*) AS n FROM writes").get() as { n: number }).n;
    const bytesBefore = statSync(file).size;
    for (let i = 0; i < RUNS; i++) {
      // Alternate, so drift in the machine's load falls on both sides alike.
      bare.push(await debate(undefined, i));
      persisted.push(await debate({ saver, log }, i));
    }
    const rows = (saver.db.prepare("SELECT COUNT(*) AS n FROM checkpoints").get() as { n: number }).n - rowsBefore;
    const writes = (saver.db.prepare("SELECT COUNT(*) AS n FROM writes").get() as { n: number }).n - writesBefore;
    const bytes = statSync(file).size - bytesBefore;
    const a = median(bare.map((s) => s.wallMs));
    const b = median(persisted.map((s) => s.wallMs));
    console.log(`Persistence per debate (8 participants, L = ${L} ms, 400 words per answer, ${RUNS} runs each, medians)`);
    console.log(`  without persistence: wall ${a.toFixed(0)} ms, CPU ${median(bare.map((s) => s.cpuMs)).toFixed(0)} ms`);
    console.log(`  SQLite checkpoints + event log: wall ${b.toFixed(0)} ms, CPU ${median(persisted.map((s) => s.cpuMs)).toFixed(0)} ms`);
    console.log(`  wall ratio ${(b / a).toFixed(3)} (target ≤ 1.02)${b / a <= 1.02 ? "" : "  ✗ misses the target"}`);
    console.log(`  written per debate: ${(rows / RUNS).toFixed(0)} checkpoint rows, ${(writes / RUNS).toFixed(0)} pending-write rows, ${(bytes / RUNS / 1024).toFixed(0)} KiB of SQLite file, ${persisted[0].events} events logged`);
  } finally {
    await checkpoints.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
