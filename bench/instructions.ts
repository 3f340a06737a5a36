/**
 * Benchmark: the instructions a debate costs against its fair floor, counted under valgrind.
 *
 * CPU time on a shared machine moves by a quarter between runs of the same code; the mean number
 * of instructions over many runs moves far less. bench/instructions-child.ts runs bench:overhead's
 * debate, and in another process its fair floor (the same 34 calls through a LangChain token
 * callback in a bare LangGraph loop, same checkpointer), under `valgrind --tool=callgrind` started
 * with counting off: the start-up and the first WARM runs (V8 compiling the hot code) are not
 * counted. Counting is then switched on (`callgrind_control`) for RUNS runs, and callgrind dumps
 * each run's count as it ends, every thread of the process included (garbage collection,
 * compilation: a collection falls in one run and is paid for by all, so the mean is the figure).
 * Prints, for each, the mean, the median and the range in millions, and the debate's mean ÷ the
 * floor's: the instruction-count view of `bench:overhead`'s (c) at 16 tokens per chunk (target
 * ≤ 1.2). Without valgrind (Debian: `apt-get install valgrind`) it says so and stops; switching
 * counting on needs ptrace (callgrind_control uses vgdb). BENCH_WARM and BENCH_RUNS set the run
 * counts (10 and 20).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { median } from "./stats.js";

/** A run count from the environment: a whole number, at least `min`. */
function runCount(name: string, fallback: number, min: number): number {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number, at least ${min} (got ${process.env[name]})`);
  return n;
}

const WARM = runCount("BENCH_WARM", 10, 0);
const RUNS = runCount("BENCH_RUNS", 20, 1);
/** Longest wait for the child's next line: a run under valgrind takes seconds; a stuck child never answers. */
const LINE_TIMEOUT_MS = 10 * 60_000;

/**
 * Has callgrind in process `pid` do `option` (`--instr=on`, `--dump`). callgrind_control reaches
 * it through vgdb, which needs ptrace when the process waits in a system call, as the child does
 * while it waits for its next line; it reports a failure in its output, not in its exit status.
 */
function control(option: string, pid: number): void {
  const run = spawnSync("callgrind_control", [option, String(pid)], { encoding: "utf8", timeout: 120_000 });
  const said = `${run.stdout ?? ""}${run.stderr ?? ""}`;
  if (run.status !== 0 || !/\bOK\./.test(said))
    throw new Error(`callgrind_control ${option} ${pid} failed${run.error ? ` (${run.error.message}; it needs ptrace)` : ""}: ${said.trim().slice(-400)}`);
}

/** Instructions of each counted run of `mode`, in millions. */
async function count(mode: "debate" | "floor"): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), "debatt-callgrind-"));
  const args = ["--tool=callgrind", "--instr-atstart=no", `--callgrind-out-file=${join(dir, "cg.%p")}`];
  const child = spawn("valgrind", [...args, process.execPath, "--import", "tsx", "bench/instructions-child.ts", mode, String(WARM), String(RUNS)], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  child.stdin.on("error", () => {});
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  // A child that stops answering is killed, which ends the loop below with a failure.
  const watchdog = setTimeout(() => child.kill("SIGKILL"), LINE_TIMEOUT_MS);
  const counts: number[] = [];
  try {
    for await (const line of createInterface({ input: child.stdout })) {
      watchdog.refresh(); // the child answered: its time starts again
      // callgrind_control finds the process by pid: valgrind runs the program in its own process.
      if (line === "ready") {
        control("--instr=on", child.pid!);
      } else if (line === "done") {
        control("--dump", child.pid!); // the run's count, from the last dump (or the start of counting) to now
        const file = join(dir, `cg.${child.pid}.${counts.length + 1}`);
        const totals = /^totals:\s*(\d+)/m.exec(readFileSync(file, "utf8"))?.[1];
        if (!totals) throw new Error(`callgrind's dump ${file} has no totals`);
        counts.push(Number(totals) / 1e6);
      } else continue;
      child.stdin.write("next\n");
    }
    const status = await exited;
    if (status !== 0 || counts.length !== RUNS)
      throw new Error(`valgrind ${mode}: exit ${status ?? child.signalCode}, ${counts.length} of ${RUNS} runs counted: ${stderr.slice(-600)}`);
  } finally {
    clearTimeout(watchdog);
    // valgrind writes its last dump as it exits: wait for that before removing the folder.
    if (child.exitCode === null && child.signalCode === null) {
      child.kill();
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  }
  return counts;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const summary = (xs: number[]) =>
  `mean ${mean(xs).toFixed(0)} M instructions (median ${median(xs).toFixed(0)} M, ${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)} M)`;

if (spawnSync("valgrind", ["--version"]).status !== 0 || spawnSync("callgrind_control", ["--version"]).status !== 0) {
  console.log("debatt instructions benchmark — skipped: valgrind or its callgrind_control is not installed (Debian: apt-get install valgrind)");
} else {
  const debate = await count("debate");
  const floor = await count("floor");
  console.log(`debatt instructions benchmark — under valgrind, ${RUNS} runs counted one by one after ${WARM} not counted; 16 tokens per stream chunk`);
  console.log(`debate (8 participants, simulated provider, MemorySaver, every event serialised): ${summary(debate)}`);
  console.log(`fair floor (the same 34 calls through a LangChain token callback in a bare loop): ${summary(floor)}`);
  console.log(`  debate ÷ fair floor: ${(mean(debate) / mean(floor)).toFixed(2)} (the instruction-count view of bench:overhead's (c); target ≤ 1.2)`);
}
