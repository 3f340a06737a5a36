/**
 * Benchmark: what putting runs on the queue costs per run. The same short runs (a /vote of the
 * simulated models, answering at once) through a run service whose events go to Redis, started in
 * the process that was asked (the queue of one process, as without a shared queue), and through
 * BullMQ on the same Redis with the limits counted there (as every instance with REDIS_URL runs
 * them). Prints, for each, the median and p95 time from asking to the first event and to `done`,
 * one run at a time and BENCH_BATCH at once, then the queue's overhead per run in ms and as a ratio
 * (target: under 20 ms a run one at a time).
 *
 * Env: BENCH_RUNS (default 40), BENCH_BATCH (default 20).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BullRunQueue } from "../providers/bull-run-queue.js";
import { RedisEventLog } from "../providers/redis-event-log.js";
import { RedisRunSlots } from "../providers/redis-run-slots.js";
import { depsFromEnv } from "../service/deps.js";
import { createRunService, type RunService } from "../service/run-service.js";
import { RedisServer, redisServerBinary } from "./redis-server.js";
import { percentile } from "./stats.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const BATCH = Number(process.env.BENCH_BATCH ?? 20);

/** One run: ms from asking to its first event, and to `done`. */
async function timedRun(service: RunService, i: number): Promise<{ first: number; done: number }> {
  const t0 = performance.now();
  const { runId } = await service.start({ message: `/vote Fråga ${i}?`, quotaKey: `bench-${i}` });
  let first = 0;
  for await (const e of service.events(runId, 0, new AbortController().signal)) {
    if (!first) first = performance.now() - t0;
    if (e.event === "done") break;
  }
  return { first, done: performance.now() - t0 };
}

type Measured = { one: { first: number[]; done: number[] }; batch: number };

/** Side by side: the services' runs one at a time, taking turns (so neither gets a quieter machine), then a batch each. */
async function measure(services: Record<string, RunService>): Promise<Record<string, Measured>> {
  const results: Record<string, Measured> = {};
  for (const name of Object.keys(services)) results[name] = { one: { first: [], done: [] }, batch: 0 };
  // Warm-up: the graph, the connections, the scripts.
  for (const service of Object.values(services)) for (let i = 0; i < 5; i++) await timedRun(service, -i - 1);
  for (let i = 0; i < RUNS; i++) {
    for (const [name, service] of Object.entries(services)) {
      const r = await timedRun(service, i);
      results[name].one.first.push(r.first);
      results[name].one.done.push(r.done);
    }
  }
  for (const [name, service] of Object.entries(services)) {
    const t0 = performance.now();
    await Promise.all(Array.from({ length: BATCH }, (_, i) => timedRun(service, 1000 + i)));
    results[name].batch = performance.now() - t0;
  }
  return results;
}

const binary = redisServerBinary();
if (!binary) {
  console.log("bench:queue SKIPPED: redis-server is not installed");
  process.exit(0);
}
const redis = await RedisServer.start(binary);
const dataDir = mkdtempSync(join(tmpdir(), "debatt-bench-queue-"));
const log = () => {};
try {
  const env = { DEBATT_DATA_DIR: dataDir, SIMULATED_LATENCY_MS: "0", SIMULATED_CHUNK_DELAY_MS: "0", RUNS_PER_MINUTE: "100000", MAX_CONCURRENT_RUNS: "1000" };
  const made = (["in process", "BullMQ"] as const).map((setup) => {
    const base = depsFromEnv(env, { log });
    const events = new RedisEventLog(redis.url, { ttlMs: 60_000, log });
    const queued = setup === "BullMQ";
    const runQueue = queued ? new BullRunQueue(redis.url, { lockMs: 10_000, concurrency: 200, log }) : undefined;
    const runSlots = queued ? new RedisRunSlots(redis.url, 100_000, 1_000) : undefined;
    return { setup, events, runSlots, service: createRunService({ ...base, events, runQueue, runSlots }) };
  });
  const results = await measure(Object.fromEntries(made.map((m) => [m.setup, m.service])));
  for (const m of made) {
    await m.service.shutdown(10_000);
    await m.events.close();
    m.runSlots?.close();
  }
  const row = (name: string, r: Measured) =>
    `${name.padEnd(11)} first event p50 ${percentile(r.one.first, 50).toFixed(1)} ms, p95 ${percentile(r.one.first, 95).toFixed(1)} ms · done p50 ${percentile(r.one.done, 50).toFixed(1)} ms, p95 ${percentile(r.one.done, 95).toFixed(1)} ms · ${BATCH} at once ${r.batch.toFixed(0)} ms`;
  console.log(`bench:queue, ${RUNS} /vote runs one at a time, then ${BATCH} at once (simulated models, no latency; events in Redis)`);
  for (const [name, r] of Object.entries(results)) console.log(row(name, r));
  const [local, bull] = [results["in process"], results.BullMQ];
  const overhead = percentile(bull.one.done, 50) - percentile(local.one.done, 50);
  console.log(
    `queue overhead per run: ${overhead.toFixed(1)} ms to done (${(percentile(bull.one.done, 50) / percentile(local.one.done, 50)).toFixed(2)}×), ` +
      `${(percentile(bull.one.first, 50) - percentile(local.one.first, 50)).toFixed(1)} ms to the first event; ` +
      `${BATCH} at once ${(bull.batch / local.batch).toFixed(2)}× (target: under 20 ms a run)`,
  );
} finally {
  await redis.kill();
  rmSync(dataDir, { recursive: true, force: true });
}
