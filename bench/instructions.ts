/**
 * Benchmark: the instructions a debate costs against its fair floor, counted under valgrind.
 *
 * CPU time on a shared machine moves by a quarter between runs of the same code; the number of
 * instructions a process executes hardly moves. Each of bench/instructions-child.ts's modes (the
 * debate of bench:overhead, and its fair floor: the same 34 calls through a LangChain token
 * callback in a bare LangGraph loop, same checkpointer) runs under `valgrind --tool=callgrind`
 * twice, with LOW and HIGH runs; (count at HIGH − count at LOW) ÷ (HIGH − LOW) is what one run
 * costs, every thread of the process included (garbage collection, compilation). Prints both and
 * the debate ÷ the floor, the instruction-count view of `bench:overhead`'s (c) at 16 tokens per
 * chunk (target ≤ 1.2). LOW is 10 so that the runs counted come after V8 has compiled the hot code
 * (with LOW = 2 they still paid for it, the debate, with several times the floor's code, the more).
 * The counts still move by up to a third from process to process, for reasons not yet found (see
 * docs/benchmarks.md). It takes about 13 minutes; without valgrind (Debian: `apt-get install
 * valgrind`) it says so and stops. BENCH_LOW and BENCH_HIGH set the run counts (10 and 30).
 */
import { spawnSync } from "node:child_process";

const LOW = Number(process.env.BENCH_LOW ?? 10);
const HIGH = Number(process.env.BENCH_HIGH ?? 30);

/** Instructions the child executes with `runs` runs of `mode` (callgrind's "Collected"). */
function instructions(mode: "debate" | "floor", runs: number): number {
  const run = spawnSync(
    "valgrind",
    ["--tool=callgrind", "--callgrind-out-file=/dev/null", process.execPath, "--import", "tsx", "bench/instructions-child.ts", mode, String(runs)],
    { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  const collected = /Collected\s*:\s*([\d,]+)/.exec(run.stderr ?? "")?.[1];
  if (run.status !== 0 || !collected) throw new Error(`valgrind ${mode} ×${runs} failed (exit ${run.status}): ${(run.stderr ?? "").slice(-600)}`);
  return Number(collected.replaceAll(",", ""));
}

/** Instructions of one run of `mode`, in millions. */
function perRun(mode: "debate" | "floor"): number {
  return (instructions(mode, HIGH) - instructions(mode, LOW)) / (HIGH - LOW) / 1e6;
}

if (spawnSync("valgrind", ["--version"]).status !== 0) {
  console.log("debatt instructions benchmark — skipped: valgrind is not installed (Debian: apt-get install valgrind)");
} else {
  const debate = perRun("debate");
  const floor = perRun("floor");
  console.log(`debatt instructions benchmark — under valgrind, (${HIGH} runs − ${LOW} runs) ÷ ${HIGH - LOW}, 16 tokens per stream chunk`);
  console.log(`debate (8 participants, simulated provider, MemorySaver, every event serialised): ${debate.toFixed(0)} M instructions`);
  console.log(`fair floor (the same 34 calls through a LangChain token callback in a bare loop): ${floor.toFixed(0)} M instructions`);
  console.log(`  debate ÷ fair floor: ${(debate / floor).toFixed(2)} (the instruction-count view of bench:overhead's (c); target ≤ 1.2)`);
}
