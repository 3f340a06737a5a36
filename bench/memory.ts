/**
 * Benchmark: the memory of the serving process, as `npm start` runs it (compiled JavaScript, the
 * start script's own command line), beside the same server run through tsx (as before the build
 * step), in one run. For each: the resident memory of the server's process tree idle (5 s after it
 * listens) and at its peak while 50 /vote questions run at once on the simulated provider (its
 * default pacing). Read from /proc (Linux): VmRSS, and VmHWM for the peak.
 *
 * Targets: idle ≤ 120 MB; peak with 50 /vote at once ≤ 350 MB.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const QUESTIONS = Number(process.env.BENCH_VOTES ?? 50);

/** A /proc/<pid>/status field in MB (VmRSS: now, VmHWM: the peak). */
function statusMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : 0;
}

/** CPU time a process has used, in ms (utime + stime of /proc/<pid>/stat, in 10 ms ticks). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
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

/** Starts a server with `command` and waits for its listening line. */
async function start(command: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(command[0], command.slice(1), {
    env: { PATH: process.env.PATH, PORT: "0", DEBATT_DATA_DIR: mkdtempSync(join(tmpdir(), "debatt-bench-mem-")), RUNS_PER_MINUTE: "100000", MAX_CONCURRENT_RUNS: "100000" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on("data", (d: Buffer) => {
      log += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`the server exited with ${code}: ${log}`)));
  });
  return { child, url };
}

/** One /vote question over the chat stream, read to its end. */
async function vote(url: string, i: number): Promise<void> {
  const res = await fetch(`${url}/api/v1/chat/stream`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: `/vote Which programming language suits service number ${i} best?` }) });
  const text = await res.text();
  if (!text.includes("event: done")) throw new Error(`a /vote did not finish: ${text.slice(-300)}`);
}

async function measure(label: string, command: string[]): Promise<void> {
  const { child, url } = await start(command);
  try {
    await new Promise((r) => setTimeout(r, 5_000));
    const pids = tree(child.pid!);
    const idle = pids.reduce((mb, pid) => mb + statusMb(pid, "VmRSS"), 0);
    const cpu0 = pids.reduce((ms, pid) => ms + cpuMs(pid), 0);
    await Promise.all(Array.from({ length: QUESTIONS }, (_, i) => vote(url, i)));
    const cpu = pids.reduce((ms, pid) => ms + cpuMs(pid), 0) - cpu0;
    const peak = pids.reduce((mb, pid) => mb + statusMb(pid, "VmHWM"), 0);
    console.log(`${label} (${pids.length} process${pids.length > 1 ? "es" : ""}):`);
    console.log(`  idle ${idle.toFixed(0)} MB (target ≤ 120), peak with ${QUESTIONS} /vote at once ${peak.toFixed(0)} MB (target ≤ 350), CPU ${(cpu / QUESTIONS).toFixed(0)} ms per question`);
  } finally {
    child.kill("SIGKILL");
  }
}

async function main() {
  const built = spawnSync("npm", ["run", "-s", "build"], { stdio: "inherit" });
  if (built.status !== 0) throw new Error("npm run build failed");
  const startScript = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { start: string } }).scripts.start.split(/\s+/);
  console.log(`debatt memory benchmark — the server idle, and ${QUESTIONS} /vote questions at once on the simulated provider`);
  await measure(`npm start (${startScript.join(" ")})`, startScript);
  await measure("the same without a smaller young generation (node dist/routes/server.js)", ["node", "dist/routes/server.js"]);
  await measure("through tsx (tsx routes/server.ts)", [join("node_modules", ".bin", "tsx"), "routes/server.ts"]);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
