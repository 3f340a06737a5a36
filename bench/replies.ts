/**
 * Benchmark: how long the readers of votes, verdicts and rankings take on one reply, hostile or not.
 *
 * A model's reply is read on the server's event loop, so no reply may stall it (a 90 KB ballot once
 * held it 25 s). For each reader (the JSON ballot, the letter vote, the ranking, a client chore's
 * JSON) it times an honest 1 KB reply, an ordinary 90 KB one (prose, then the ballot) and hostile
 * 90 KB ones built to make a reader quadratic (unclosed braces, unbalanced quotes, closing braces,
 * fences that never close), and prints the median time per reply. Beside the JSON reader, the
 * reader it replaced (the first balanced object, matched from every `{`) on the same replies, and
 * the ratio of their worst cases (target: the worst reply read in under 50 ms, and ≥ 100× faster
 * than before). BENCH_REPEATS sets the repeats (20; the old reader runs once per reply).
 */
import { performance } from "node:perf_hooks";
import { jsonValueIn } from "../state/client-tasks.js";
import { defaultRoster } from "../state/participants.js";
import { parseVote } from "../state/replies/debate-vote.js";
import { parseLetterVote } from "../state/replies/letter-vote.js";
import { parseRanking } from "../state/replies/ranking.js";
import { median } from "./stats.js";

const REPEATS = Number(process.env.BENCH_REPEATS ?? 20);
const SIZE = 90_000;
const roster = defaultRoster();
const ballot = JSON.stringify({ voted_for: roster[1].display, short_motivation: "Best argued.", three_bullets: ["a", "b", "c"] });
const fill = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);

const replies: Record<string, string> = {
  "honest 1 KB": `${"I weigh each answer. ".repeat(45)}\n${ballot}\nVOTE: Response A`,
  "ordinary 90 KB": `${fill("I weigh each answer with care. ")}\n${ballot}\nVOTE: Response A`,
  "unclosed braces": `${fill('{"a":')}${ballot}`,
  "closing braces": `${ballot}${fill("}")}`,
  "unbalanced quotes": `${fill('{"x": "')}${ballot}`,
  "open fences": `${fill("```json\n{")}${ballot}`,
  "vote lines": fill("VOTE: Response  "),
  "ranking headers": fill("FINAL RANKING:\n1. Response "),
};

const readers: Record<string, (text: string) => unknown> = {
  "JSON ballot": (t) => parseVote(t, roster),
  "letter vote": parseLetterVote,
  ranking: (t) => parseRanking(t, ["Response A", "Response B", "Response C"]),
  "client chore": jsonValueIn,
};

/** The median time of `repeats` reads of `text`, in ms. */
function timed(read: (text: string) => unknown, text: string, repeats = REPEATS): number {
  const runs: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    read(text);
    runs.push(performance.now() - t0);
  }
  return median(runs);
}

/** The JSON reader before: the whole text, a fence, or the first balanced `{…}` that parses, matched from every `{`. */
function firstObjectBefore(text: string): unknown {
  for (let start = text.indexOf("{"); start !== -1; start = text.indexOf("{", start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const ch = text[i];
      if (inString) {
        if (ch === "\\") i++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === "{") depth++;
      else if (ch === "}" && --depth === 0) {
        try {
          return JSON.parse(text.slice(start, i + 1));
        } catch {
          break;
        }
      }
    }
  }
  return null;
}

const ms = (t: number) => (t < 1 ? `${(t * 1000).toFixed(0)} µs` : `${t.toFixed(1)} ms`);
let worst = 0;
for (const [reader, read] of Object.entries(readers)) {
  const times = Object.entries(replies).map(([name, text]) => [name, timed(read, text)] as const);
  worst = Math.max(worst, ...times.map(([, t]) => t));
  console.log(`${reader}: ${times.map(([n, t]) => `${n} ${ms(t)}`).join(", ")}`);
}
const before = Object.entries(replies).map(([name, text]) => [name, timed(firstObjectBefore, text, 1)] as const);
const worstBefore = Math.max(...before.map(([, t]) => t));
console.log(`JSON ballot, the reader before: ${before.map(([n, t]) => `${n} ${ms(t)}`).join(", ")}`);
console.log(
  `the worst reply read: ${ms(worst)} (target < 50 ms); the reader before ÷ now on its worst reply: ${(worstBefore / worst).toFixed(0)}× (target ≥ 100×)`,
);
