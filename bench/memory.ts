/**
 * Benchmark: the memory of the serving process, as `npm start` runs it (compiled JavaScript, the
 * start script's own command line), beside the same server run through tsx (as before the build
 * step), in one run. For each: the resident memory of the server's process tree 5 s after it
 * listens (still holding what starting took), idle (60 s after: V8's memory reducer gives back
 * what an idle process does not use, 10–35 s in on the development machine; the second from which
 * the reading held is printed beside it) and at its peak while 50 /vote questions run
 * at once on the simulated provider (its default pacing). Read from /proc (Linux): VmRSS, and
 * VmHWM for the peak.
 *
 * Targets: idle ≤ 120 MB; peak with 50 /vote at once ≤ 350 MB.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { build, cpuMs, startCommand, startFlags, startServer } from "./server-process.js";

const QUESTIONS = Number(process.env.BENCH_VOTES ?? 50);
/** Seconds after the server listens at which its idle memory is read. */
const IDLE_S = 60;

/** A /proc/<pid>/status field in MB (VmRSS: now, VmHWM: the peak). */
function statusMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : 0;
}

/** A process and every process under it (tsx runs the server in a child of its own). */
function tree(pid: number): number[] {
  const children = readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/stat`, "utf8").split(") ")[1].split(" ")[1] === String(pid);
      } catch {
        return false;
      }
    })
    .map(Number);
  return [pid, ...children.flatMap(tree)];
}

/** One /vote question over the chat stream, read to its end. */
async function vote(url: string, i: number): Promise<void> {
  const res = await fetch(`${url}/api/v1/chat/stream`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ message: `/vote Which programming language suits service number ${i} best?` }),
  });
  const text = await res.text();
  if (!text.includes("event: done")) throw new Error(`a /vote did not finish: ${text.slice(-300)}`);
}

async function measure(label: string, command: string[]): Promise<void> {
  const { child, url, stop } = await startServer(command);
  try {
    const rss = (pids: number[]) => pids.reduce((mb, pid) => mb + statusMb(pid, "VmRSS"), 0);
    await new Promise((r) => setTimeout(r, 5_000));
    const started = rss(tree(child.pid!));
    // Idle: read each second until IDLE_S; the reading at IDLE_S is the figure, and the second
    // from which it held is printed beside it (when V8's memory reducer gave back what starting took).
    let idle = started;
    let since = 5;
    for (let s = 6; s <= IDLE_S; s++) {
      await new Promise((r) => setTimeout(r, 1_000));
      const now = rss(tree(child.pid!));
      if (Math.abs(now - idle) >= 1) since = s;
      idle = now;
    }
    const pids = tree(child.pid!);
    const cpu0 = pids.reduce((ms, pid) => ms + cpuMs(pid), 0);
    await Promise.all(Array.from({ length: QUESTIONS }, (_, i) => vote(url, i)));
    const cpu = pids.reduce((ms, pid) => ms + cpuMs(pid), 0) - cpu0;
    const peak = pids.reduce((mb, pid) => mb + statusMb(pid, "VmHWM"), 0);
    console.log(`${label} (${pids.length} process${pids.length > 1 ? "es" : ""}):`);
    console.log(
      `  ${started.toFixed(0)} MB 5 s after it listens, idle (${IDLE_S} s) ${idle.toFixed(0)} MB (target ≤ 120; held since ${since} s), peak with ${QUESTIONS} /vote at once ${peak.toFixed(0)} MB (target ≤ 350), CPU ${(cpu / QUESTIONS).toFixed(0)} ms per question`,
    );
  } finally {
    stop("SIGKILL");
  }
}

async function main() {
  build();
  const startScript = startCommand();
  console.log(`debatt memory benchmark — the server idle, and ${QUESTIONS} /vote questions at once on the simulated provider`);
  await measure(`npm start (${startScript.join(" ")})`, startScript);
  await measure("the same with a 4 MB young generation (node --max-semi-space-size=4 --max-old-space-size=2000 dist/routes/server.js)", [
    "node",
    "--max-semi-space-size=4",
    ...startFlags(),
    "dist/routes/server.js",
  ]);
  await measure("through tsx (tsx routes/server.ts)", [join("node_modules", ".bin", "tsx"), "routes/server.ts"]);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
