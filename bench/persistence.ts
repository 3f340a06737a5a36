/**
 * Benchmark: what persistence adds to a debate, measured side by side in one run (issue 7).
 *
 * The same 8-participant debate on the simulated provider (latency L per model call, about 400
 * streamed word-tokens per answer, 16 per chunk) runs alternately
 *   (a) without persistence: no checkpointer, events only counted;
 *   (b) as the service runs it: LangGraph's SQLite checkpointer on a file (every step saved),
 *       every event appended to the run's event log (the resumable stream), and the run recorded
 *       in the history database (question, each stage's rows as it lands, the answer).
 * Prints the wall-time ratio b ÷ a (target ≤ 1.02), CPU per debate, and the rows and bytes written.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import Database from "better-sqlite3";
import { openCheckpoints } from "../graph/checkpointer.js";
import { buildGraph } from "../graph/build.js";
import { streamClientEvents } from "../graph/run.js";
import { InMemoryPromptStore } from "../prompts/store.js";
import { SimulatedModelFactory } from "../providers/simulated.js";
import { MemoryEventLog } from "../routes/event-log.js";
import { openHistory } from "../history/open.js";
import { RunRecorder } from "../history/recorder.js";
import type { HistoryStore } from "../history/store.js";
import { DEFAULTS, loadSettings } from "../state/config.js";

const L = Number(process.env.BENCH_LATENCY_MS ?? 50);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

interface Sample {
  wallMs: number;
  cpuMs: number;
  events: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

interface Persistence {
  saver: SqliteSaver;
  log: MemoryEventLog;
  history: HistoryStore;
}

async function debate(persist: Persistence | undefined, run: number): Promise<Sample> {
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
  const message = "/debatt Bör AI regleras?";
  const recorder = persist && RunRecorder.start(persist.history, { conversationId: runId, messageId: runId, message }, console.error);
  const options = { threadId: runId, configurable: { seed: 1, run_id: runId }, onState: recorder && recorder.observe.bind(recorder) };
  for await (const e of streamClientEvents(graph, { message }, options)) {
    id++;
    if (e.event === "done") await recorder?.finish(false);
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
  const history = await openHistory({ dataDir: dir });
  const historyDb = new Database(join(dir, "history.sqlite"));
  const historyRows = () =>
    ["conversations", "messages", "deliberation_stages"].reduce((n, t) => n + (historyDb.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n, 0);
  const historyBytes = () => {
    historyDb.pragma("wal_checkpoint(TRUNCATE)"); // so the file holds every row
    return statSync(join(dir, "history.sqlite")).size;
  };
  const bare: Sample[] = [];
  const persisted: Sample[] = [];
  try {
    await debate(undefined, -1); // warm-up: module and JIT costs are not the debate's
    await debate({ saver, log, history }, -2);
    const rowsBefore = (saver.db.prepare("SELECT COUNT(*) AS n FROM checkpoints").get() as { n: number }).n;
    const writesBefore = (saver.db.prepare("SELECT COUNT(*) AS n FROM writes").get() as { n: number }).n;
    const bytesBefore = statSync(file).size;
    const historyRowsBefore = historyRows();
    const historyBytesBefore = historyBytes();
    for (let i = 0; i < RUNS; i++) {
      // Alternate, so drift in the machine's load falls on both sides alike.
      bare.push(await debate(undefined, i));
      persisted.push(await debate({ saver, log, history }, i));
    }
    const rows = (saver.db.prepare("SELECT COUNT(*) AS n FROM checkpoints").get() as { n: number }).n - rowsBefore;
    const writes = (saver.db.prepare("SELECT COUNT(*) AS n FROM writes").get() as { n: number }).n - writesBefore;
    const bytes = statSync(file).size - bytesBefore;
    const recorded = historyRows() - historyRowsBefore;
    const recordedBytes = historyBytes() - historyBytesBefore;
    const a = median(bare.map((s) => s.wallMs));
    const b = median(persisted.map((s) => s.wallMs));
    console.log(`Persistence per debate (8 participants, L = ${L} ms, 400 words per answer, ${RUNS} runs each, medians)`);
    console.log(`  without persistence: wall ${a.toFixed(0)} ms, CPU ${median(bare.map((s) => s.cpuMs)).toFixed(0)} ms`);
    console.log(`  SQLite checkpoints + event log + history: wall ${b.toFixed(0)} ms, CPU ${median(persisted.map((s) => s.cpuMs)).toFixed(0)} ms`);
    console.log(`  wall ratio ${(b / a).toFixed(3)} (target ≤ 1.02)${b / a <= 1.02 ? "" : "  ✗ misses the target"}`);
    console.log(`  written per debate: ${(rows / RUNS).toFixed(0)} checkpoint rows, ${(writes / RUNS).toFixed(0)} pending-write rows, ${(bytes / RUNS / 1024).toFixed(0)} KiB of SQLite file, ${persisted[0].events} events logged`);
    console.log(`  history per debate: ${(recorded / RUNS).toFixed(0)} rows (1 conversation, 2 messages, the rest deliberation_stages), ${(recordedBytes / RUNS / 1024).toFixed(0)} KiB of SQLite file`);
  } finally {
    await checkpoints.close();
    historyDb.close();
    await history.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
