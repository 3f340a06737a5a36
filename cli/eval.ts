import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { escapeControls } from "../service/app-deps.js";
import { depsFromEnv } from "../service/deps.js";
import { ARMS, compareWithMajority, evaluate, fileOutcomeStore, type Arm, type ArmResult, type Comparison } from "../service/eval.js";
import { chartOf } from "./eval-chart.js";
import { createRunService } from "../service/run-service.js";
import { ConfigError } from "../state/errors.js";
import { DEFAULT_DIFFICULTY, generateTask, TASK_IDS, type TaskId } from "../state/eval-tasks.js";
import { participantsFor } from "../state/participants.js";

/** A comma list of known names, or a message naming the unknown ones. */
function listOf<T extends string>(raw: string | undefined, known: readonly T[], fallback: readonly T[], what: string): T[] {
  if (!raw) return [...fallback];
  const asked = raw.split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = asked.filter((a) => !known.includes(a as T));
  if (unknown.length) throw new ConfigError(`unknown ${what}: ${unknown.join(", ")} (known: ${known.join(", ")})`);
  return asked as T[];
}

/** A whole number option, or a message naming it. */
function wholeNumber(raw: string | undefined, fallback: number, name: string, min = 1): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`--${name} must be a whole number of at least ${min}, got "${raw}"`);
  return n;
}

/** The report as a Markdown table, one row per arm and task. */
function markdownOf(results: ArmResult[]): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  const rows = results.map((r) => `| ${r.arm} | ${r.task} | ${r.n} | ${r.correct} | ${pct(r.accuracy)} | ${pct(r.ci_low)}–${pct(r.ci_high)} | ${Math.round(r.tokens_per_question)} | ${r.cost_per_question_usd.toFixed(5)} | ${Math.round(r.wall_ms_per_question)} |`);
  return ["| arm | task | n | correct | accuracy | 95 % interval | tokens/question | USD/question | ms/question |", "|---|---|---|---|---|---|---|---|---|", ...rows].join("\n");
}

/** Which arms beat the plain majority, and which did not, by their intervals. */
function verdictOf(comparisons: Comparison[]): string {
  const of = (v: Comparison["versus_majority"]) => comparisons.filter((c) => c.versus_majority === v).map((c) => `${c.arm} (${c.task})`);
  const [better, worse, unclear] = [of("better"), of("worse"), of("unclear")];
  if (comparisons.length === 0) return "No plain majority to compare with (add the majority arm).";
  return [
    `Beat the plain majority (intervals apart): ${better.join(", ") || "none"}.`,
    `Worse than it: ${worse.join(", ") || "none"}.`,
    `Not distinguishable from it at this n: ${unclear.join(", ") || "none"}.`,
  ].join("\n");
}

/**
 * `npm run -s eval -- [--tasks arithmetic,dates,letters] [--n 50] [--arms single,…,debatt]
 * [--participants call_grok,…] [--seed 1] [--concurrency 4] [--out report.json]`: runs every arm on
 * the same generated questions with known answers and prints, per arm and task, the accuracy
 * with its 95 % interval, tokens, cost and time per question, and which arms beat the plain
 * majority; `--out` also writes the JSON report, a Markdown table and an SVG chart beside it.
 */
async function main(): Promise<number> {
  const log = (line: string) => process.stderr.write(`[debatt] ${escapeControls(line)}\n`);
  try {
    const { values } = parseArgs({
      options: { tasks: { type: "string" }, n: { type: "string" }, arms: { type: "string" }, participants: { type: "string" }, seed: { type: "string" }, concurrency: { type: "string" }, out: { type: "string" } },
    });
    const deps = depsFromEnv(process.env, { log });
    const tasks = listOf<TaskId>(values.tasks, TASK_IDS, TASK_IDS, "task");
    const arms = listOf<Arm>(values.arms, ARMS, ARMS, "arm");
    const n = wholeNumber(values.n, 50, "n");
    const seed = wholeNumber(values.seed, 1, "seed", 0);
    const concurrency = wholeNumber(values.concurrency, 4, "concurrency");
    const participants = participantsFor("vote", deps.settings.roster, values.participants?.split(",").map((s) => s.trim()), deps.settings.allowedModels);
    const questions = tasks.flatMap((t) => generateTask(t, n, seed, DEFAULT_DIFFICULTY));
    // The evaluation is this process's own work: a server's per-user run limits do not apply to it.
    const service = createRunService({ ...deps, settings: { ...deps.settings, runsPerMinute: Number.MAX_SAFE_INTEGER, maxConcurrentRuns: Number.MAX_SAFE_INTEGER } });
    const started = Date.now();
    // Kept per question and arm in the data directory: an interrupted evaluation, run again, goes on where it stopped.
    const kept = fileOutcomeStore(join(deps.settings.dataDir, "eval", `seed-${seed}.jsonl`));
    const results = await evaluate({ service, models: deps.models, settings: deps.settings, participants, kept }, questions, arms, concurrency, (done) => {
      const left = ((Date.now() - started) / done) * (questions.length - done);
      process.stderr.write(`\r${done}/${questions.length} questions · about ${Math.round(left / 1000)} s left   `);
    });
    process.stderr.write("\n");
    const comparisons = compareWithMajority(results);
    const report = { tasks, seed, n, participants: participants.map((p) => p.key), simulated: deps.models.simulated, arms: results, comparisons };
    const text = `${markdownOf(results)}\n\n${verdictOf(comparisons)}\n`;
    process.stdout.write(text);
    if (values.out) {
      const base = values.out.replace(/\.json$/, "");
      mkdirSync(dirname(values.out), { recursive: true });
      writeFileSync(values.out, `${JSON.stringify(report, null, 2)}\n`);
      writeFileSync(`${base}.md`, text);
      writeFileSync(`${base}.svg`, chartOf(results));
    }
    return 0;
  } catch (err) {
    if (err instanceof ConfigError || (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS") || (err as { code?: string }).code === "invalid_participants") {
      process.stderr.write(`${(err as Error).message}\n`);
      return 2;
    }
    throw err;
  }
}

process.exitCode = await main();
