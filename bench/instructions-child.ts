/**
 * What bench/instructions.ts counts under valgrind: `count` (argv[3]) runs of the debate or of its
 * fair floor (argv[2]: "debate" | "floor"), at 16 tokens per stream chunk, after the debate's calls
 * are recorded and each graph has run twice. Both modes do the same before their runs, so the
 * difference between two counts is the runs' own instructions.
 */
import { debateGraph, debateOnce, fairGraph, fairOnce, type RecordedCall } from "./overhead-graphs.js";

/** Latency of each simulated call, ms: time asleep costs no instructions, only the wait. */
const LATENCY_MS = 5;
const CHUNK_TOKENS = 16;

const mode = process.argv[2] === "floor" ? "floor" : "debate";
const count = Number(process.argv[3] ?? 1);
const recorded: RecordedCall[] = [];
await debateOnce(debateGraph(CHUNK_TOKENS, recorded, LATENCY_MS));
const debate = debateGraph(CHUNK_TOKENS, undefined, LATENCY_MS);
const floor = fairGraph(CHUNK_TOKENS, recorded, "langchain", LATENCY_MS);
const once = () => (mode === "floor" ? fairOnce(floor) : debateOnce(debate));
for (let i = 0; i < 2 + count; i++) await once();
