/**
 * Benchmark: how many live debates one server process sustains at realistic pacing. The simulated
 * participants answer after 1 s and then stream 40 word-tokens a second, one per chunk as real
 * providers stream, each round to its word limit (300/500/500): a debate lasts five to six minutes,
 * so every debate started in a run is live until the run ends. Nothing is compressed.
 *
 * For each level N: a fresh server (bench/server-child.ts) gets N /debatt debates over HTTP,
 * arriving at BENCH_SCALE_ARRIVALS a second, every one streamed to its own SSE client; then the
 * debates run on together for BENCH_SCALE_WINDOW_MS. It prints the server's p99 event-loop delay
 * (target ≤ 50 ms), the first SSE event's p95 (target ≤ 100 ms), the memory per live debate
 * (target ≤ 2 MB) and the CPU used, and names what gave out first. The answer is the largest level
 * that met every target.
 *
 * Env: BENCH_SCALE_LEVELS (default 250,500,750,1000,1500), BENCH_SCALE_ARRIVALS (default 25 a second),
 * BENCH_SCALE_WINDOW_MS (default 30000), BENCH_SCALE_HEAP_MB (another cap on the server's heap, as
 * `--max-old-space-size`; by default the start script's). The server runs with the start script's
 * Node options.
 */
import { fork } from "node:child_process";
import { once } from "node:events";
import http from "node:http";
import { ServerProcess, startFlags } from "./server-process.js";
import { percentile } from "./stats.js";

const LEVELS = (process.env.BENCH_SCALE_LEVELS ?? "250,500,750,1000,1500").split(",").map(Number);
const ARRIVALS = Number(process.env.BENCH_SCALE_ARRIVALS ?? 25);
const WINDOW_MS = Number(process.env.BENCH_SCALE_WINDOW_MS ?? 30_000);
const TARGET = { loopP99Ms: 50, firstEventP95Ms: 100, mbPerDebate: 2 };
/** Realistic pacing: the first token after 1 s, then 40 a second, one per chunk. */
const PACING = { SIMULATED_LATENCY_MS: "1000", SIMULATED_CHUNK_DELAY_MS: "25", SIMULATED_CHUNK_TOKENS: "1", SIMULATED_ROUND_WORDS: "300,500,500" };

/** One debate's stream as its client sees it: when its first event came, how many came, whether it ended. */
interface Live {
  firstEventMs: number;
  events: number;
  ended: boolean;
  failed: boolean;
  req: http.ClientRequest;
}

/** Starts one debate and reads its stream (counting events, not parsing them: the client must stay cheap). */
function startDebate(url: string, agent: http.Agent, i: number): Live {
  const body = JSON.stringify({ message: `/debatt Bör AI regleras? (${i})` });
  const t0 = performance.now();
  const req = http.request(`${url}/api/v1/chat/stream`, {
    method: "POST",
    agent,
    headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
  });
  const live: Live = { firstEventMs: 0, events: 0, ended: false, failed: false, req };
  req.on("response", (res) => {
    res.on("data", (chunk: Buffer) => {
      // An SSE event ends with a blank line.
      for (let at = chunk.indexOf("\n\n"); at !== -1; at = chunk.indexOf("\n\n", at + 2)) live.events++;
      if (!live.firstEventMs && live.events > 0) live.firstEventMs = performance.now() - t0;
      if (chunk.includes("event: error")) live.failed = true;
    });
    res.on("end", () => (live.ended = true));
    res.on("error", () => (live.failed = true));
  });
  req.on("error", () => (live.failed = true));
  req.end(body);
  return live;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => bytes / 1024 / 1024;

interface Level {
  n: number;
  met: boolean;
  limit: string;
}

async function level(n: number): Promise<Level> {
  // --expose-gc: the report also says what the debates hold after a full collection.
  const heapCap = process.env.BENCH_SCALE_HEAP_MB ? [`--max-old-space-size=${process.env.BENCH_SCALE_HEAP_MB}`] : [];
  // The start script's Node options (its heap sizes), as `npm start` serves.
  const server = await ServerProcess.start(PACING, [...startFlags(), "--expose-gc", ...heapCap]);
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  try {
    await server.begin();
    const clientCpu0 = process.cpuUsage();
    const t0 = performance.now();
    const debates: Live[] = [];
    for (let i = 0; i < n; i++) {
      const due = (i * 1000) / ARRIVALS - (performance.now() - t0);
      if (due > 0) await sleep(due);
      debates.push(startDebate(server.url, agent, i));
    }
    await sleep(WINDOW_MS);
    const seconds = (performance.now() - t0) / 1000;
    const report = await server.report();
    const clientCpu = process.cpuUsage(clientCpu0);

    const firsts = debates.filter((d) => d.firstEventMs > 0).map((d) => d.firstEventMs);
    const live = debates.filter((d) => !d.ended && !d.failed).length;
    const failed = debates.filter((d) => d.failed).length;
    const events = debates.reduce((a, d) => a + d.events, 0);
    const firstP95 = firsts.length ? percentile(firsts, 95) : Infinity;
    const perDebate = mb(report.rss - report.baseRss) / n;
    const heldPerDebate = mb(report.heapUsed - report.baseHeap) / n;
    const cpuShare = report.cpuMs / 1000 / seconds;
    const clientShare = (clientCpu.user + clientCpu.system) / 1e6 / seconds;

    const misses = [
      report.loopP99Ms > TARGET.loopP99Ms &&
        `the event loop (p99 delay ${report.loopP99Ms.toFixed(0)} ms; the server used ${(cpuShare * 100).toFixed(0)} % of a core)`,
      firstP95 > TARGET.firstEventP95Ms && `time to the first event (p95 ${firstP95.toFixed(0)} ms)`,
      perDebate > TARGET.mbPerDebate && `memory (${perDebate.toFixed(2)} MB per debate)`,
      (live < n || failed > 0) && `debates that did not stay live (${n - live} of ${n}, ${failed} failed)`,
      clientShare > 0.9 && `the benchmark's own client (${(clientShare * 100).toFixed(0)} % of a core)`,
    ].filter((m): m is string => typeof m === "string");

    console.log(`${n} live debates (arriving at ${ARRIVALS}/s, then ${WINDOW_MS / 1000} s together; ${live} live at the end):`);
    console.log(
      `  p99 event-loop delay ${report.loopP99Ms.toFixed(1)} ms (target ≤ ${TARGET.loopP99Ms}); first SSE event p50 ${percentile(firsts, 50)?.toFixed(0)} ms, p95 ${firstP95.toFixed(0)} ms (target ≤ ${TARGET.firstEventP95Ms})`,
    );
    console.log(
      `  memory ${mb(report.rss).toFixed(0)} MB, ${perDebate.toFixed(2)} MB per live debate (target ≤ ${TARGET.mbPerDebate}; the heap holds ${heldPerDebate.toFixed(2)} MB of it after a full collection; heap reserved ${mb(report.heapTotal).toFixed(0)} MB, outside the heap ${mb(report.external).toFixed(0)} MB); server CPU ${(cpuShare * 100).toFixed(0)} % of a core, client ${(clientShare * 100).toFixed(0)} %; ${(events / seconds).toFixed(0)} SSE events a second`,
    );
    console.log(`  ${misses.length ? `✗ limited by ${misses.join("; ")}` : "✓ every target met"}`);
    return { n, met: misses.length === 0, limit: misses.join("; ") };
  } finally {
    agent.destroy();
    server.child.kill("SIGKILL");
  }
}

/** The share of a core that `n` bare LangChain streams at the same pacing use (bench/scale-floor.ts). */
async function floor(n: number): Promise<number> {
  const child = fork(new URL("./scale-floor.ts", import.meta.url).pathname, [String(n), String(ARRIVALS), String(Math.min(WINDOW_MS, 15_000))], {
    execArgv: ["--import", "tsx"],
  });
  const [msg] = (await once(child, "message")) as [{ share: number }];
  return msg.share;
}

async function main() {
  console.log(`\ndebatt scale benchmark — live /debatt debates in one process; first token after 1 s, 40 tokens a second, one chunk each, 300/500/500 words`);
  let sustained = 0;
  let limit = "";
  for (const n of LEVELS) {
    const result = await level(n);
    if (!result.met) {
      limit = result.limit;
      // What the model streams alone cost at that level, before anything debatt does.
      const share = await floor(n);
      console.log(`  the floor at ${n}: ${n} bare LangChain streams at this pacing (no graph, events or HTTP) use ${(share * 100).toFixed(0)} % of a core`);
      break;
    }
    sustained = n;
  }
  console.log(
    `\nlive debates one process sustains: ${sustained ? `${sustained}${limit ? "" : " (every level tried)"}` : `fewer than ${LEVELS[0]}`} (target ≥ 1000)${limit ? `; the next level was limited by ${limit}` : ""}`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
