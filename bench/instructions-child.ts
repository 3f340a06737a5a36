/**
 * What bench/instructions.ts counts under valgrind: `count` (argv[4]) runs of bench:overhead's
 * debate or of its fair floor (argv[2]: "debate" | "floor"), at 16 tokens per stream chunk, after
 * the debate's calls are recorded and the graph has run `warm` (argv[3]) times. Both modes do the
 * same before their runs. It hands over to the parent over stdio, which has callgrind count and dump
 * the counts: it prints `ready` and waits for a line; then, after each run, prints `done` and waits
 * for a line (while the parent takes the run's count).
 */
import { createInterface } from "node:readline";
import { debateGraph, debateOnce, fairGraph, fairOnce, type RecordedCall } from "./overhead-graphs.js";

/** Latency of each simulated call, ms: time asleep costs no instructions, only the wait. */
const LATENCY_MS = 5;
const CHUNK_TOKENS = 16;

const mode = process.argv[2] === "floor" ? "floor" : "debate";
const warm = Number(process.argv[3] ?? 10);
const count = Number(process.argv[4] ?? 20);
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const recorded: RecordedCall[] = [];
await debateOnce(debateGraph(CHUNK_TOKENS, recorded, LATENCY_MS));
const debate = debateGraph(CHUNK_TOKENS, undefined, LATENCY_MS);
const floor = fairGraph(CHUNK_TOKENS, recorded, "langchain", LATENCY_MS);
const once = () => (mode === "floor" ? fairOnce(floor) : debateOnce(debate));
for (let i = 0; i < warm; i++) await once();
console.log("ready");
await lines.next();
for (let i = 0; i < count; i++) {
  await once();
  console.log("done");
  await lines.next();
}
process.exit(0);
