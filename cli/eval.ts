import { accessSync, constants, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { openAppHistory } from "../service/formats.js";
import { escapeControls } from "../service/app-deps.js";
import { depsFromEnv } from "../service/deps.js";
import { ARMS, evaluate, fileOutcomeStore, type Arm } from "../service/eval.js";
import { EVAL_FORMATS } from "../service/formats.js";
import { createRunService } from "../service/run-service.js";
import { ConfigError, DebattError } from "../state/errors.js";
import { compareWithMajority, type EvalReport } from "../state/evaluation/report.js";
import { generateTask, TASK_IDS, type TaskId, type TaskQuestion } from "../state/evaluation/tasks.js";
import { FORMATS } from "../state/formats.js";
import { LANGS, translate, type Lang, type Translate } from "../state/messages/index.js";
import { LOCAL_OWNER } from "../state/ownership.js";
import { RESPONSE_TOKENS } from "../state/run-config.js";
import { resolveDeliberators, type Participant } from "../state/participants.js";
import { chartOf } from "./eval-chart.js";
import { reportText } from "./eval-report.js";
import { argsError, envLang, langInArgs } from "./lang.js";

/** A mistake in the command line, worded for the reader; the command prints it and exits with 2. */
class UsageError extends Error {}

/** A comma list of known names, or a message naming the unknown ones. */
function listOf<T extends string>(t: Translate, raw: string | undefined, known: readonly T[], key: "eval.unknownTask" | "eval.unknownArm"): T[] {
  if (!raw) return [...known];
  const asked = raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = asked.filter((a) => !known.includes(a as T));
  if (unknown.length) throw new UsageError(t(key, { names: unknown.join(", "), known: known.join(", ") }));
  return asked as T[];
}

/** A whole number option, or a message naming it (and its range, when it has a most). */
function wholeNumber(t: Translate, raw: string | undefined, fallback: number, name: string, min = 1, max?: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (max !== undefined && !(Number.isInteger(n) && n >= min && n <= max)) throw new UsageError(t("eval.wholeNumberRange", { name, min, max, value: raw }));
  if (!Number.isInteger(n) || n < min) throw new UsageError(t("eval.wholeNumber", { name, min, value: raw }));
  return n;
}

/**
 * The participants: the asked ones, else the first of the roster that every chosen format takes
 * (an odd number, so that two answers cannot tie a plain majority). Each format arm must take
 * them all, since every arm answers with the same models.
 */
function participantsOf(
  t: Translate,
  asked: string | undefined,
  arms: readonly Arm[],
  settings: { roster: Participant[]; allowedModels: Parameters<typeof resolveDeliberators>[3] },
): Participant[] {
  const formats = EVAL_FORMATS.filter((a) => arms.includes(a));
  const most = Math.min(settings.roster.length, ...formats.map((f) => FORMATS[f].participants.max));
  const keys = asked?.split(",").map((s) => s.trim()) ?? settings.roster.slice(0, most % 2 === 1 ? most : most - 1).map((p) => p.key);
  // Any number of the roster's models (or models ALLOWED_MODELS admits); each format arm checks its own count below.
  const participants = resolveDeliberators(settings.roster, keys, { command: "npm run eval", min: 1, max: Number.MAX_SAFE_INTEGER }, settings.allowedModels);
  const refused = formats.filter((arm) => participants.length < FORMATS[arm].participants.min || participants.length > FORMATS[arm].participants.max);
  if (refused.length > 0) {
    const takes = refused
      .map((arm) => t("eval.takes", { command: FORMATS[arm].command, min: FORMATS[arm].participants.min, max: FORMATS[arm].participants.max }))
      .join(", ");
    throw new UsageError(t("eval.participantCount", { takes, count: participants.length, arms: refused.join(", ") }));
  }
  return participants;
}

/** The tasks' questions taken in turn (one of each task, then the next), so that a budget that stops the evaluation leaves every task about as many. */
function interleaved(tasks: TaskId[], n: number, seed: number, difficulty: { terms: number; maxNumber: number }): TaskQuestion[] {
  const each = tasks.map((task) => generateTask(task, n, seed, difficulty));
  return Array.from({ length: n }, (_, i) => each.map((qs) => qs[i])).flat();
}

/** The report's three files for `--out FILE.json` (FILE.json, FILE.md, FILE.svg), each checked now to be writable. */
function outputFiles(t: Translate, out: string): string[] {
  const base = out.replace(/\.json$/i, "");
  const files = [`${base}.json`, `${base}.md`, `${base}.svg`];
  for (const file of files) {
    try {
      mkdirSync(dirname(file), { recursive: true });
      accessSync(existsSync(file) ? file : dirname(file), constants.W_OK);
    } catch (err) {
      throw new UsageError(t("eval.cannotWrite", { path: file, reason: (err as Error).message }));
    }
  }
  return files;
}

/** Time as the reader reads it: seconds under two minutes, else minutes. */
function timeOf(t: Translate, ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 120 ? t("eval.seconds", { n: s }) : t("eval.minutes", { n: Math.round(s / 60) });
}

/**
 * `npm run -s eval -- [options]` (see `eval.usage`): runs every arm on the same generated
 * questions with known answers and prints, per arm and task, the accuracy with its 95 % interval,
 * tokens, cost and time per question, how the debates' answers moved, and which arms beat the
 * plain majority. The report is kept in the history for the arena page, and with `--out` also
 * written as JSON, Markdown and an SVG chart.
 */
async function main(): Promise<number> {
  const log = (line: string) => process.stderr.write(`[debatt] ${escapeControls(line)}\n`);
  let lang: Lang = langInArgs(process.argv) ?? envLang();
  let t: Translate = (key, values) => translate(lang, key, values);
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        tasks: { type: "string" },
        n: { type: "string" },
        arms: { type: "string" },
        participants: { type: "string" },
        seed: { type: "string" },
        concurrency: { type: "string" },
        "max-cost-usd": { type: "string" },
        terms: { type: "string" },
        "max-number": { type: "string" },
        "max-tokens": { type: "string" },
        user: { type: "string" },
        lang: { type: "string" },
        out: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (err) {
    process.stderr.write(`${argsError(t, err as Error)}\n${t("eval.usage")}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${t("eval.usage")}\n`);
    return 0;
  }
  if (values.lang !== undefined && !(LANGS as readonly string[]).includes(values.lang)) {
    process.stderr.write(`${t("cli.badLang", { value: values.lang })}\n`);
    return 2;
  }
  lang = (values.lang as Lang | undefined) ?? lang;
  t = (key, v) => translate(lang, key, v);
  let history;
  try {
    const deps = depsFromEnv(process.env, { log });
    const tasks = listOf<TaskId>(t, values.tasks, TASK_IDS, "eval.unknownTask");
    const arms = listOf<Arm>(t, values.arms, ARMS, "eval.unknownArm");
    const n = wholeNumber(t, values.n, 50, "n");
    const seed = wholeNumber(t, values.seed, 1, "seed", 0);
    const concurrency = wholeNumber(t, values.concurrency, 4, "concurrency");
    const difficulty = { terms: wholeNumber(t, values.terms, 6, "terms", 2), maxNumber: wholeNumber(t, values["max-number"], 99, "max-number", 2) };
    // Unset, each format answers with its own budget (`answerTokens`).
    const maxTokens =
      values["max-tokens"] === undefined
        ? undefined
        : wholeNumber(t, values["max-tokens"], RESPONSE_TOKENS.default, "max-tokens", RESPONSE_TOKENS.min, RESPONSE_TOKENS.max);
    const rawBudget = values["max-cost-usd"];
    const budgetUsd = rawBudget === undefined ? undefined : Number(rawBudget);
    if (budgetUsd !== undefined && !(Number.isFinite(budgetUsd) && budgetUsd > 0)) throw new UsageError(t("eval.budgetValue", { value: rawBudget ?? "" }));
    const participants = participantsOf(t, values.participants, arms, deps.settings);
    history = await openAppHistory(deps.settings);
    const user = values.user ?? LOCAL_OWNER;
    if (values.user !== undefined && !(await history.users.list()).some((u) => u.id === values.user))
      throw new UsageError(t("eval.unknownUser", { id: values.user }));

    // The report's files are checked before anything is asked, not after an hour of questions.
    const out = values.out === undefined ? undefined : outputFiles(t, values.out);
    const questions = interleaved(tasks, n, seed, difficulty);
    process.stderr.write(`${t("eval.start", { questions: n, tasks: tasks.join(", "), participants: participants.map((p) => p.display).join(", ") })}\n`);
    // The accuracy as it was set (a string: "0.7" is a setting, not a number to write as "0,7").
    if (deps.models.simulated)
      process.stderr.write(
        `${deps.settings.simulatedAccuracy === undefined ? t("eval.simulatedPlain") : t("eval.simulated", { accuracy: String(deps.settings.simulatedAccuracy) })}\n`,
      );
    // The evaluation is this process's own work: a server's per-user run limits do not apply to it.
    const service = createRunService({
      ...deps,
      settings: { ...deps.settings, runsPerMinute: Number.MAX_SAFE_INTEGER, maxConcurrentRuns: Number.MAX_SAFE_INTEGER },
    });
    const started = Date.now();
    // Kept per question and arm in the data directory: an interrupted evaluation, run again, goes on where it stopped.
    const keptIn = join(deps.settings.dataDir, "eval", `seed-${seed}.jsonl`);
    const kept = fileOutcomeStore(keptIn);
    // Ctrl-C: what was answered is already kept; say where, and how to go on.
    process.on("SIGINT", () => {
      process.stderr.write(`\n${t("eval.stopped", { file: keptIn })}\n`);
      process.exit(130);
    });
    const progress = (done: number, total: number, spentUsd: number) => {
      const filled = Math.round((20 * done) / total);
      const bar = `[${"█".repeat(filled)}${"░".repeat(20 - filled)}] `;
      const share = done === 0 ? 0 : (total - done) / done;
      const line =
        done === 0
          ? `${bar}0/${total}`
          : bar + t("eval.progress", { done, total, time: timeOf(t, (Date.now() - started) * share), usdSpent: spentUsd, usdLeft: spentUsd * share });
      process.stderr.write(process.stderr.isTTY ? `\r${line}\x1b[K` : `${line}\n`);
    };
    progress(0, questions.length, 0);
    const run = await evaluate({ service, models: deps.models, settings: deps.settings, participants, kept, maxTokens }, questions, arms, {
      concurrency,
      budgetUsd,
      onQuestion: ({ done, total, spentUsd }) => progress(done, total, spentUsd),
    });
    if (process.stderr.isTTY) process.stderr.write("\n");
    if (run.reused > 0) process.stderr.write(`${t("eval.resumed", { n: run.reused })}\n`);
    const report: EvalReport = {
      tasks,
      seed,
      n,
      participants: participants.map((p) => p.key),
      participant_names: participants.map((p) => p.display),
      simulated: deps.models.simulated,
      max_tokens: maxTokens,
      ...(deps.models.simulated && deps.settings.simulatedAccuracy !== undefined ? { simulated_accuracy: deps.settings.simulatedAccuracy } : {}),
      arms: run.results,
      comparisons: compareWithMajority(run.results),
      answered: run.answered,
      spent_usd: run.spent_usd,
      ...(budgetUsd !== undefined ? { budget_usd: budgetUsd } : {}),
      ...(run.stopped ? { stopped: run.stopped } : {}),
      created_at: new Date().toISOString(),
    };
    const text = reportText(t, lang, report);
    process.stdout.write(text);
    await history.addEvaluation(user, report, new Date(report.created_at));
    process.stderr.write(`${t("eval.kept")}\n`);
    if (out) {
      writeFileSync(out[0], `${JSON.stringify(report, null, 2)}\n`);
      writeFileSync(out[1], text);
      writeFileSync(out[2], chartOf(report.arms, t));
      process.stderr.write(`${t("eval.written", { files: out.join(", ") })}\n`);
    }
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n`);
      return 2;
    }
    if (err instanceof ConfigError || (err instanceof DebattError && err.code === "invalid_participants")) {
      process.stderr.write(`${t("cli.configError", { message: err.message })}\n`);
      return 2;
    }
    throw err;
  } finally {
    await history?.close();
  }
}

main().then(
  // Exit once stdout is flushed (the clients of a Redis or a database would otherwise keep the process).
  (code) => process.stdout.write("", () => process.exit(code)),
  (err) => {
    process.stderr.write(`${(err as Error).stack ?? err}\n`);
    process.exit(1);
  },
);
