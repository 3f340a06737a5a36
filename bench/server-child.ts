/**
 * A debatt server for the concurrency benchmark, run as a child process: the product's app on the
 * simulated provider, measuring itself (event-loop delay, CPU, peak RSS) and reporting over IPC.
 * Environment as for `npm start` (SIMULATED_LATENCY_MS, REDIS_URL, …); with BENCH_CPU_PROF=dir it
 * also writes a CPU profile of the measured window (from "start" to "stop") into that folder.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { depsFromEnv } from "../service/deps.js";
import { createApp } from "../routes/app.js";

const deps = depsFromEnv(process.env, { log: () => {} });
const { app } = createApp(deps);
const server = app.listen(0, "127.0.0.1", () => {
  process.send!({ type: "listening", port: (server.address() as AddressInfo).port });
});

const loop = monitorEventLoopDelay({ resolution: 10 });
let cpu0 = process.cpuUsage();
let peakRss = 0;
let baseRss = 0;
let baseHeap = 0;
/** The CPU profiler of BENCH_CPU_PROF's window. */
const profiler = process.env.BENCH_CPU_PROF ? new Session() : undefined;
profiler?.connect();

setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 50).unref();

process.on("message", async (msg: { type: string }) => {
  if (msg.type === "start") {
    if (profiler) {
      await profiler.post("Profiler.enable");
      await profiler.post("Profiler.start");
    }
    loop.reset();
    loop.enable();
    cpu0 = process.cpuUsage();
    (globalThis as { gc?: () => void }).gc?.();
    baseRss = peakRss = process.memoryUsage.rss();
    baseHeap = process.memoryUsage().heapUsed;
    process.send!({ type: "started" });
  } else if (msg.type === "stop") {
    loop.disable();
    if (profiler) {
      const { profile } = await profiler.post("Profiler.stop");
      writeFileSync(join(process.env.BENCH_CPU_PROF!, `server-${process.pid}.cpuprofile`), JSON.stringify(profile));
    }
    // With --expose-gc: what is still held, not garbage not yet collected.
    (globalThis as { gc?: () => void }).gc?.();
    const cpu = process.cpuUsage(cpu0);
    process.send!({
      type: "report",
      cpuMs: (cpu.user + cpu.system) / 1000,
      loopP99Ms: loop.percentile(99) / 1e6,
      baseRss,
      peakRss,
      rss: process.memoryUsage.rss(),
      heapUsed: process.memoryUsage().heapUsed,
      heapTotal: process.memoryUsage().heapTotal,
      external: process.memoryUsage().external,
      baseHeap,
    });
  } else if (msg.type === "exit") {
    server.close();
    server.closeAllConnections();
    void deps.prompts.close().then(() => process.exit(0));
  }
});
