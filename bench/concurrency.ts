/**
 * Benchmark: many concurrent debates over HTTP, served by one process, then the same debates by two
 * processes sharing Redis (one per core), then twice as many by the two. The simulated provider answers every call after L = 1000 ms.
 * Prints, for each setup: batch wall ÷ one debate's wall (target ≤ 1.3), p99 event-loop delay
 * (target ≤ 50 ms), peak RSS per concurrent debate, time to the first SSE event (p95, target
 * ≤ 50 ms) and CPU ms per debate; then the capacity the second process adds.
 *
 * The debates arrive evenly spread over the first BENCH_RAMP_MS (default 2000 ms): people do not
 * all press enter in the same millisecond, and a burst of 100 requests from one Node client costs
 * that client tens of milliseconds before its last request is even sent, whatever the server does.
 *
 * Env: BENCH_DEBATES (default 100), BENCH_LATENCY_MS (default 1000), BENCH_RAMP_MS (default 2000).
 */
import http from "node:http";
import { createParser } from "eventsource-parser";
import { RedisServer, redisServerBinary } from "./redis-server.js";
import { ServerProcess } from "./server-process.js";
import { percentile } from "./stats.js";

const DEBATES = Number(process.env.BENCH_DEBATES ?? 100);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 1000);
const RAMP_MS = Number(process.env.BENCH_RAMP_MS ?? 2000);
const TOPIC = "/debatt Bör AI regleras?";

interface DebateResult {
  wallMs: number;
  /** The first SSE event (the route's `metadata` acknowledgement). */
  firstEventMs: number;
  /** The graph's first event, `debate-init`. */
  initMs: number;
}

/** Keep-alive connections, as a browser keeps them; node:http costs the client far less than fetch. */
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

/** Streams one debate over HTTP; checks it completes with results and gapless ids. */
function debate(url: string): Promise<DebateResult> {
  const t0 = performance.now();
  const body = JSON.stringify({ message: TOPIC });
  let first = 0;
  let init = 0;
  let lastId = 0;
  let results = false;
  let done = false;
  return new Promise((resolve, reject) => {
    const parser = createParser({
      onEvent: (m) => {
        if (!first) first = performance.now() - t0;
        if (Number(m.id) !== ++lastId) reject(new Error(`event id gap at ${m.id}`));
        if (m.event === "debate-init") init = performance.now() - t0;
        if (m.event === "debate-results") results = true;
        if (m.event === "done") done = true;
        if (m.event === "error") reject(new Error(`debate failed: ${m.data}`));
      },
    });
    const req = http.request(`${url}/api/v1/chat/stream`, {
      method: "POST",
      agent,
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
    });
    req.on("response", (res) => {
      res.setEncoding("utf8");
      res.on("data", (text: string) => parser.feed(text));
      res.on("end", () => {
        if (!results || !done) reject(new Error("a debate ended without debate-results and done"));
        resolve({ wallMs: performance.now() - t0, firstEventMs: first, initMs: init });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Warm-up: 10 concurrent debates per server, so that the measured runs do not pay for JIT compilation. */
async function warmUp(servers: ServerProcess[]): Promise<void> {
  await Promise.all(servers.flatMap((s) => Array.from({ length: 10 }, () => debate(s.url))));
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

interface Batch {
  wallMs: number;
  throughputPerMin: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Opens `n` keep-alive connections to a server, as the browsers of its users already have. */
async function warmConnections(url: string, n: number): Promise<void> {
  await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<void>((resolve, reject) => {
          http.get(`${url}/healthz`, { agent }, (res) => res.resume().on("end", resolve)).on("error", reject);
        }),
    ),
  );
}

/** Runs `perServer` debates on each server, arriving over RAMP_MS, and prints the figures. */
async function batch(label: string, servers: ServerProcess[], perServer: number, singleWallMs: number): Promise<Batch> {
  await Promise.all(servers.map((s) => warmConnections(s.url, perServer)));
  await Promise.all(servers.map((s) => s.begin()));
  const clientCpu0 = process.cpuUsage();
  const t0 = performance.now();
  const total = servers.length * perServer;
  const results = await Promise.all(Array.from({ length: total }, (_, i) => sleep((i * RAMP_MS) / total).then(() => debate(servers[i % servers.length].url))));
  const wallMs = performance.now() - t0;
  const reports = await Promise.all(servers.map((s) => s.report()));
  const cpu = reports.reduce((a, r) => a + r.cpuMs, 0);
  const rssPer = reports.reduce((a, r) => a + (r.peakRss - r.baseRss), 0) / total;
  console.log(`${label}: ${total} concurrent debates arriving over ${RAMP_MS} ms, batch wall ${(wallMs / 1000).toFixed(1)} s`);
  console.log(`  batch wall ÷ one debate's wall: ${(wallMs / singleWallMs).toFixed(2)} (target ≤ 1.3)`);
  console.log(`  p99 event-loop delay: ${Math.max(...reports.map((r) => r.loopP99Ms)).toFixed(1)} ms (target ≤ 50)`);
  console.log(`  peak RSS per concurrent debate: ${mb(rssPer)} MB (peak RSS ${reports.map((r) => `${mb(r.peakRss)} MB`).join(" + ")})`);
  const p = (key: "firstEventMs" | "initMs") =>
    `p50 ${percentile(
      results.map((r) => r[key]),
      50,
    ).toFixed(0)} ms, p95 ${percentile(
      results.map((r) => r[key]),
      95,
    ).toFixed(0)} ms`;
  console.log(`  time to first SSE event (metadata): ${p("firstEventMs")} (target p95 ≤ 50); to debate-init: ${p("initMs")}`);
  const clientCpu = process.cpuUsage(clientCpu0);
  console.log(
    `  CPU per debate: ${(cpu / total).toFixed(0)} ms (the benchmark's client used ${((clientCpu.user + clientCpu.system) / 1000 / total).toFixed(0)} ms per debate)`,
  );
  return { wallMs, throughputPerMin: (total / wallMs) * 60_000 };
}

async function main() {
  console.log(`\ndebatt concurrency benchmark — simulated provider, L = ${LATENCY_MS} ms per call, ${DEBATES} debates over HTTP`);
  const one = await ServerProcess.start({ SIMULATED_LATENCY_MS: String(LATENCY_MS), SIMULATED_CHUNK_DELAY_MS: "0" });
  await warmUp([one]);
  const single = await debate(one.url);
  console.log(
    `one debate alone: ${(single.wallMs / 1000).toFixed(1)} s, first event after ${single.firstEventMs.toFixed(0)} ms, debate-init after ${single.initMs.toFixed(0)} ms`,
  );
  const b1 = await batch("one process", [one], DEBATES, single.wallMs);
  await one.stop();

  const binary = redisServerBinary();
  if (!binary) {
    console.log("two processes sharing Redis: SKIPPED — redis-server is not installed");
    return;
  }
  const redis = await RedisServer.start(binary);
  try {
    const two = await Promise.all(
      [0, 1].map(() => ServerProcess.start({ SIMULATED_LATENCY_MS: String(LATENCY_MS), SIMULATED_CHUNK_DELAY_MS: "0", REDIS_URL: redis.url })),
    );
    await warmUp(two);
    await batch("two processes sharing Redis (one per core), the same debates", two, DEBATES / 2, single.wallMs);
    const b2 = await batch("two processes sharing Redis (one per core), twice the debates", two, DEBATES, single.wallMs);
    console.log(
      `capacity gained by the second process: ${(b2.throughputPerMin / b1.throughputPerMin).toFixed(2)}× debates per minute ` +
        `(${b1.throughputPerMin.toFixed(0)} → ${b2.throughputPerMin.toFixed(0)}, with ${DEBATES} debates per process; see its targets above)`,
    );
    await Promise.all(two.map((s) => s.stop()));
  } finally {
    await redis.kill();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
