/**
 * Benchmark: what persistence adds to a debate, measured side by side in one run (issue 7).
 *
 * The same 8-participant debate on the simulated provider (latency L per model call, about 400
 * streamed word-tokens per answer, 16 per chunk) runs in turn
 *   (a) without persistence: no checkpointer, events only counted;
 *   (b) with the event log only: every event appended to the run's log (the resumable stream);
 *   (c) as the service runs it by default: (b), LangGraph's SQLite checkpointer on a file (every
 *       step saved) and the history (the question, each stage's rows as it lands, the answer) in
 *       its SQLite file;
 *   (d) as (c) on PostgreSQL (DATABASE_URL), when Debian's postgresql is installed: a throwaway
 *       server on loopback holds the checkpoints and the history.
 * Prints each variant's wall-time ratio to (a) (target ≤ 1.02 for the service), the databases'
 * share (c ÷ b), CPU, and the rows and bytes written per debate.
 */
import { simulatedModels } from "../service/formats.js";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { openCheckpoints, type Checkpoints } from "../providers/checkpointer.js";
import type { WriteBehindSaver } from "../providers/write-behind-saver.js";
import { buildAppGraph } from "../service/formats.js";
import { nodeDepsOf, type AppDeps } from "../service/app-deps.js";
import { streamClientEvents } from "../service/stream.js";
import { openAppHistory } from "../service/formats.js";
import { RunRecorder } from "../history/recorder.js";
import type { HistoryStore } from "../history/store.js";
import { InMemoryPromptStore } from "../prompts/store.js";
import { MemoryEventLog } from "../providers/event-log.js";
import { loadSettings } from "../state/config.js";
import { LOCAL_OWNER } from "../state/ownership.js";
import { PostgresServer, postgresBinDir } from "./postgres-server.js";
import { SerializedEvent } from "../ports/event-log.js";
import { median } from "./stats.js";

const L = Number(process.env.BENCH_LATENCY_MS ?? 50);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const TABLES = ["conversations", "messages", "deliberation_stages"];

interface Sample {
  wallMs: number;
  cpuMs: number;
  events: number;
}

/** One way of running the debate, and how to count what it wrote. */
interface Variant {
  name: string;
  saver?: BaseCheckpointSaver;
  log?: MemoryEventLog;
  history?: HistoryStore;
  samples: Sample[];
  /** Rows (checkpoint, pending-write, history) and bytes written so far. */
  written?: () => Promise<Record<string, number>>;
}

async function debate(v: Variant, run: number): Promise<Sample> {
  const graph = graphFor(
    {
      models: simulatedModels({ latencyMs: L, chunkDelayMs: 0, chunkTokens: 16, answerWords: 400 }),
      prompts: new InMemoryPromptStore(),
      settings: loadSettings({}),
      log: () => {},
    },
    { checkpointer: v.saver },
  );
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let id = 0;
  const runId = `${v.name.slice(0, 1)}-${run}`;
  const message = "/debatt Bör AI regleras?";
  const recorder = v.history && RunRecorder.start(v.history, { conversationId: runId, messageId: runId, message, owner: LOCAL_OWNER }, console.error);
  const options = { threadId: runId, configurable: { seed: 1, run_id: runId }, onState: recorder && recorder.observe.bind(recorder) };
  for await (const e of streamClientEvents(graph, { message }, options)) {
    id++;
    if (e.event === "done") await recorder?.finish(false);
    // Kept as the run hub keeps it: serialized once.
    if (v.log) void v.log.append(runId, SerializedEvent.of(id, e.event, e.data));
  }
  const cpu = process.cpuUsage(cpu0);
  return { wallMs: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, events: id };
}

/** Rows of the SQLite checkpointer's tables and the size of its file (every queued write done). */
async function sqliteCheckpointCount(checkpoints: Checkpoints, file: string) {
  await (checkpoints.saver as WriteBehindSaver).flushed();
  const db = new Database(file);
  db.pragma("wal_checkpoint(TRUNCATE)"); // so the file holds every row
  const count = (t: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n;
  const counts = { "checkpoint rows": count("checkpoints"), "pending-write rows": count("writes"), "checkpoint KiB": statSync(file).size / 1024 };
  db.close();
  return counts;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "debatt-bench-persist-"));
  const eventLog = () => new MemoryEventLog({ ttlMs: loadSettings({}).eventLogTtlMs, maxBytes: 256 * 1024 * 1024 });
  const closers: (() => Promise<void> | void)[] = [() => rmSync(dir, { recursive: true, force: true })];
  try {
    // (c): checkpoints and history in one data directory, as `npm start` opens them.
    const dirC = join(dir, "c");
    const ckC = await openCheckpoints({ ...loadSettings({}), dataDir: dirC });
    const historyC = await openAppHistory({ dataDir: dirC });
    const rawC = new Database(join(dirC, "history.sqlite"));
    closers.push(
      () => ckC.close(),
      () => historyC.close(),
      () => void rawC.close(),
    );
    const variants: Variant[] = [
      { name: "without persistence", samples: [] },
      { name: "event log only (resumable streams)", log: eventLog(), samples: [] },
      {
        name: "SQLite checkpoints + event log + history (the default)",
        saver: ckC.saver,
        log: eventLog(),
        history: historyC,
        samples: [],
        written: async () => {
          rawC.pragma("wal_checkpoint(TRUNCATE)"); // so the file holds every row
          const rows = TABLES.reduce((n, t) => n + (rawC.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n, 0);
          return {
            ...(await sqliteCheckpointCount(ckC, join(dirC, "checkpoints.sqlite"))),
            "history rows": rows,
            "history KiB": statSync(join(dirC, "history.sqlite")).size / 1024,
          };
        },
      },
    ];
    const pgBin = postgresBinDir();
    if (pgBin) {
      const server = await PostgresServer.start(pgBin);
      closers.push(() => server.stop());
      const settings = { ...loadSettings({}), databaseUrl: server.url };
      const ckD = await openCheckpoints(settings);
      const historyD = await openAppHistory(settings);
      const raw = new pg.Client({ connectionString: server.url });
      await raw.connect();
      closers.push(
        () => ckD.close(),
        () => historyD.close(),
        () => raw.end(),
      );
      const count = async (t: string) => Number((await raw.query(`SELECT COUNT(*) AS n FROM ${t}`)).rows[0].n);
      variants.push({
        name: "PostgreSQL checkpoints + event log + history (DATABASE_URL)",
        saver: ckD.saver,
        log: eventLog(),
        history: historyD,
        samples: [],
        written: async () => ({
          "checkpoint rows": await count("checkpoints"),
          "checkpoint blob rows": await count("checkpoint_blobs"),
          "pending-write rows": await count("checkpoint_writes"),
          "history rows": (await count(TABLES[0])) + (await count(TABLES[1])) + (await count(TABLES[2])),
          "database KiB": Number((await raw.query("SELECT pg_database_size(current_database()) AS n")).rows[0].n) / 1024,
        }),
      });
    } else {
      console.log("(PostgreSQL variant skipped: postgresql is not installed)");
    }

    // Warm-up: module and JIT costs are not the debate's.
    for (const v of variants) await debate(v, -1);
    const counts = async () => {
      const out = [];
      for (const v of variants) out.push(await v.written?.());
      return out;
    };
    const before = await counts();
    for (let i = 0; i < RUNS; i++) {
      // Round-robin, so drift in the machine's load falls on every variant alike.
      for (const v of variants) v.samples.push(await debate(v, i));
    }
    const after = await counts();

    const bare = median(variants[0].samples.map((s) => s.wallMs));
    console.log(
      `Persistence per debate (8 participants, L = ${L} ms, 400 words per answer, ${RUNS} runs each, medians; ${variants[0].samples[0].events} events)`,
    );
    variants.forEach((v, i) => {
      const wall = median(v.samples.map((s) => s.wallMs));
      const ratio = wall / bare;
      const target = i === 0 ? "" : `  ratio ${ratio.toFixed(3)}${i === 2 ? ` (target ≤ 1.02${ratio <= 1.02 ? ", met" : ", ✗ missed"})` : ""}`;
      console.log(`  ${v.name}: wall ${wall.toFixed(0)} ms, CPU ${median(v.samples.map((s) => s.cpuMs)).toFixed(0)} ms${target}`);
      if (i === 2) console.log(`    the databases alone (÷ event log only): ${(wall / median(variants[1].samples.map((s) => s.wallMs))).toFixed(3)}`);
      if (after[i] && before[i]) {
        const perDebate = Object.entries(after[i]).map(([k, n]) => `${((n - before[i]![k]) / RUNS).toFixed(0)} ${k}`);
        console.log(`    written per debate: ${perDebate.join(", ")}`);
      }
    });
  } finally {
    for (const close of closers.reverse()) await close();
  }
}

void main();

/** The graph the service builds from these deps. */
function graphFor(deps: AppDeps, options: Omit<Parameters<typeof buildAppGraph>[1], "settings"> = {}) {
  return buildAppGraph(nodeDepsOf(deps), { ...options, settings: deps.settings });
}
