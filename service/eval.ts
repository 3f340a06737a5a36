import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { streamMessage, textOf } from "../nodes/shared/model-call.js";
import type { ModelFactory } from "../ports/models.js";
import type { Settings } from "../state/config.js";
import { parseTaskAnswer, wilsonInterval, type TaskId, type TaskQuestion } from "../state/evaluation/tasks.js";
import type { ClientEvent, ClientPayload } from "../state/events.js";
import type { Participant } from "../state/participants.js";
import { addUsage, NO_USAGE, usageOfAnswer, type Usage } from "../state/usage.js";
import { FORMATS, type FormatId } from "../state/formats.js";
import { followRun } from "./follow-run.js";
import { EVAL_FORMATS, FORMAT_DEFINITIONS, type FormatDefinition } from "./formats.js";
import { MARKDOWN_STYLES } from "./narration.js";
import { createNarrator } from "./narrator.js";
import type { RunService } from "./run-service.js";
import { translate } from "../state/messages/index.js";
import { hashText } from "../state/random.js";
import type { ArmResult, RoundFigures } from "../state/evaluation/report.js";

/** The arms that are no format: each participant alone, one sampled k times, a plain majority. */
const BASELINE_ARMS = ["single", "self-consistency", "majority"] as const;
/** The arms an evaluation compares: the baselines, then each format whose definition has an eval arm. */
export const ARMS: readonly Arm[] = [...BASELINE_ARMS, ...EVAL_FORMATS];
export type Arm = (typeof BASELINE_ARMS)[number] | FormatId;

/** How many samples self-consistency draws from one model. */
export const SELF_CONSISTENCY_SAMPLES = 5;

/** What one arm made of one question (kept per question and arm, so an interrupted evaluation goes on). */
export interface Outcome {
  answer: string | undefined;
  usage: Usage;
  wallMs: number;
  /** Why the arm has no answer of its own (a failed call or run), when so; an outcome with an error is asked again when the evaluation is run again. */
  error?: string;
  /** /debatt and /deep: each round's answers (first round first), in participant order; null where none could be read. */
  rounds?: { round: number; answers: (string | null)[] }[];
}

/** What an evaluation runs on: the run service (for the formats), the models, the participants. */
export interface EvalDeps {
  service: RunService;
  models: ModelFactory;
  settings: Settings;
  participants: Participant[];
  /** Outcomes already had, by question and arm: an evaluation run again asks nothing it has. */
  kept?: OutcomeStore;
}

/** Where outcomes are kept between runs of an evaluation. */
export interface OutcomeStore {
  get(key: string): { label: string; outcome: Outcome }[] | undefined;
  put(key: string, outcomes: { label: string; outcome: Outcome }[]): void;
}

/** Outcomes kept in a JSON-lines file (one line per question and arm), read once when opened. */
export function fileOutcomeStore(path: string): OutcomeStore {
  const kept = new Map<string, { label: string; outcome: Outcome }[]>();
  if (existsSync(path)) {
    for (const line of readFileSync(path, "utf8").split("\n")) {
      if (!line.trim()) continue;
      try {
        const { key, outcomes } = JSON.parse(line) as { key: string; outcomes: { label: string; outcome: Outcome }[] };
        kept.set(key, outcomes);
      } catch {
        // A line cut short when the process was stopped: that question is asked again.
      }
    }
  }
  mkdirSync(dirname(path), { recursive: true });
  return {
    get: (key) => kept.get(key),
    put: (key, outcomes) => {
      kept.set(key, outcomes);
      appendFileSync(path, `${JSON.stringify({ key, outcomes })}\n`);
    },
  };
}

/** The most frequent answer (ties: the first given), undefined when none could be read. */
export function plurality(answers: (string | undefined)[]): string | undefined {
  const counts = new Map<string, number>();
  for (const a of answers) if (a !== undefined) counts.set(a, (counts.get(a) ?? 0) + 1);
  let best: string | undefined;
  for (const [a, n] of counts) if (best === undefined || n > counts.get(best)!) best = a;
  return best;
}

/** One model's answer to a question (the `sample`-th, when it is asked more than once). */
async function askOne(deps: EvalDeps, p: Participant, q: TaskQuestion, sample = 0): Promise<Outcome> {
  const started = performance.now();
  const prompt = sample === 0 ? q.question : `${q.question}\n(Attempt ${sample + 1}.)`;
  const model = deps.models.create({ phase: "answer", participant: p, topic: prompt, maxTokens: 800 });
  try {
    const message = await streamMessage(model, [new HumanMessage(prompt)], AbortSignal.timeout(deps.settings.responseTimeoutMs), () => {});
    const usage = usageOfAnswer(p.model, message, deps.settings.prices) ?? { ...NO_USAGE, calls: 1, unpriced_calls: 1 };
    return { answer: parseTaskAnswer(q.task, textOf(message.content)), usage, wallMs: performance.now() - started };
  } catch (err) {
    return { answer: undefined, usage: { ...NO_USAGE, calls: 1, unpriced_calls: 1 }, wallMs: performance.now() - started, error: (err as Error).message };
  }
}

/** Several outcomes as one: their majority answer, their usage added up, the longest wall time (they run at once), the first error if any call failed. */
function combine(outcomes: Outcome[]): Outcome {
  const error = outcomes.find((o) => o.error)?.error;
  return {
    answer: plurality(outcomes.map((o) => o.answer)),
    usage: outcomes.reduce((u, o) => addUsage(u, o.usage), NO_USAGE),
    wallMs: Math.max(...outcomes.map((o) => o.wallMs)),
    ...(error ? { error } : {}),
  };
}

/** A format's run on a question: its result text (the narrated result), read for the answer, its usage, and for /debatt and /deep each round's answers. */
async function askFormat(deps: EvalDeps, format: FormatId, q: TaskQuestion): Promise<Outcome> {
  const { command } = FORMATS[format];
  const started = performance.now();
  let runId: string;
  try {
    // Seeded by the question, so the same evaluation run again shuffles labels and orders the same way.
    ({ runId } = deps.service.start({
      message: `${command} ${q.question}`,
      participants: deps.participants.map((p) => p.key),
      configurable: { seed: hashText(q.question) % 2 ** 31 },
    }));
  } catch (err) {
    // A run that could not start (a limit, a shutdown) is a question this arm did not answer.
    return { answer: undefined, usage: NO_USAGE, wallMs: performance.now() - started, error: (err as Error).message };
  }
  let result = "";
  let usage: ClientPayload<"usage"> | undefined;
  let error: string | undefined;
  const said = new RoundTexts((FORMAT_DEFINITIONS[format] as FormatDefinition).evalArm?.rounds === true);
  const narrator = createNarrator(
    (text, part) => void (part === "result" && (result += text)),
    MARKDOWN_STYLES,
    (key, values) => translate("en", key, values),
  );
  await followRun(
    deps.service,
    runId,
    new AbortController().signal,
    (e) => {
      if (e.event === "usage") usage = e.data;
      said.hear(e);
      if (e.event === "error") error = `${e.data.code}: ${e.data.message}`;
      narrator(e);
    },
    "the evaluation stopped",
  );
  const rounds = said.answers(
    q.task,
    deps.participants.map((p) => p.key),
  );
  // The result states the answer; when it does not, the last round's most given answer stands for it.
  const answer = parseTaskAnswer(q.task, result) ?? plurality(rounds.at(-1)?.answers.map((a) => a ?? undefined) ?? []);
  return {
    answer,
    usage: usage?.total ?? NO_USAGE,
    wallMs: performance.now() - started,
    ...(rounds.length > 0 ? { rounds } : {}),
    ...(error ? { error } : {}),
  };
}

/** What each participant said in each round of a /debatt or /deep run, as its events tell. */
class RoundTexts {
  private readonly texts = new Map<number, Map<string, string>>();

  /** `debate`: the run is a /debatt or /deep one (other formats have no rounds to follow). */
  constructor(private readonly debate: boolean) {}

  private set(round: number, key: string, text: string): void {
    const round_ = this.texts.get(round) ?? new Map<string, string>();
    round_.set(key, text);
    this.texts.set(round, round_);
  }

  /** Takes in one event (any other than a round's text is passed over). */
  hear(e: ClientEvent): void {
    if (!this.debate) return;
    if (e.event === "debate-participant-delta")
      this.set(e.data.round, e.data.model_key, (this.texts.get(e.data.round)?.get(e.data.model_key) ?? "") + e.data.delta);
    // /deep: the first answers are round 0; each debate round's positions are its answers.
    if (e.event === "stage1-complete") for (const a of e.data.data) this.set(0, a.modelKey, a.response);
    if (e.event === "deep-round-complete") for (const t of e.data.arguments) if (t.argument) this.set(e.data.round, t.modelKey, t.argument.revised_position);
  }

  /** The answers of each round, in order, read as the task writes answers. */
  answers(task: TaskId, keys: string[]): { round: number; answers: (string | null)[] }[] {
    return [...this.texts.keys()]
      .sort((a, b) => a - b)
      .map((round) => ({ round, answers: keys.map((k) => parseTaskAnswer(task, this.texts.get(round)?.get(k) ?? "") ?? null) }));
  }
}

/** What one arm answers to one question. `label` names the arm in the report (single arms by participant). */
async function runArm(deps: EvalDeps, arm: Arm, q: TaskQuestion): Promise<{ label: string; outcome: Outcome }[]> {
  const [first] = deps.participants;
  switch (arm) {
    case "single":
      return Promise.all(deps.participants.map(async (p) => ({ label: `single:${p.key}`, outcome: await askOne(deps, p, q) })));
    case "self-consistency":
      return [
        {
          label: `self-consistency:${first.key}`,
          outcome: combine(await Promise.all(Array.from({ length: SELF_CONSISTENCY_SAMPLES }, (_, i) => askOne(deps, first, q, i)))),
        },
      ];
    case "majority":
      return [{ label: "majority", outcome: combine(await Promise.all(deps.participants.map((p) => askOne(deps, p, q)))) }];
    default:
      return [{ label: arm, outcome: await askFormat(deps, arm, q) }];
  }
}

/** An arm's figures on a task while they are added up. */
interface Tally {
  arm: string;
  task: string;
  n: number;
  correct: number;
  tokens: number;
  cost: number;
  wallMs: number;
  failed: number;
  errors: Set<string>;
  rounds: Map<number, RoundFigures>;
  /** Questions where every participant came to give the same answer, and the sum of the rounds by which they did. */
  converged: number;
  convergedBy: number;
}

/**
 * Adds one question's rounds to a tally: per round the answers read and right, the flips since the
 * round before (a participant whose answer could not be read in either round is no flip), and the
 * round from which every participant gave the same answer to the end, if there is one.
 */
export function tallyRounds(
  t: Pick<Tally, "rounds" | "converged" | "convergedBy">,
  rounds: { round: number; answers: (string | null)[] }[],
  right: string,
): void {
  rounds.forEach(({ round, answers }, i) => {
    const f = t.rounds.get(round) ?? { round, answers: 0, right: 0, right_to_wrong: 0, wrong_to_right: 0 };
    const before = rounds[i - 1]?.answers;
    answers.forEach((a, k) => {
      if (a === null) return;
      f.answers++;
      if (a === right) f.right++;
      const b = before?.[k];
      if (b === null || b === undefined) return;
      if (b === right && a !== right) f.right_to_wrong++;
      if (b !== right && a === right) f.wrong_to_right++;
    });
    t.rounds.set(round, f);
  });
  const agreed = (answers: (string | null)[]) => answers.length > 0 && answers.every((a) => a !== null && a === answers[0]);
  const last = rounds.at(-1);
  if (!last || !agreed(last.answers)) return;
  let from = rounds.length - 1;
  while (from > 0 && agreed(rounds[from - 1].answers) && rounds[from - 1].answers[0] === last.answers[0]) from--;
  t.converged++;
  t.convergedBy += rounds[from].round;
}

/** How far an evaluation has come, after each question. */
export interface EvalProgress {
  done: number;
  total: number;
  /** What the questions done so far cost (those kept from an earlier run included). */
  spentUsd: number;
}

/** How an evaluation runs. */
export interface EvalOptions {
  /** At most this many questions at once (each runs its arms one after another). */
  concurrency: number;
  /**
   * The most the whole evaluation may cost, in USD. The first question runs alone, so that what a
   * question costs is known; after it no question starts once what was spent, with the questions
   * under way at the cost per question so far, would pass the budget. A question under way
   * finishes, so every arm has answered the same questions: the budget can be passed by what the
   * questions under way cost more than the average (and by the first question, if it alone costs more).
   */
  budgetUsd?: number;
  onQuestion?: (progress: EvalProgress) => void;
}

/** An evaluation's figures, and how far it went. */
export interface EvalRun {
  results: ArmResult[];
  /** The questions every arm answered (fewer than asked when the budget stopped it). */
  answered: number;
  spent_usd: number;
  /** Why it stopped before the last question, if it did. */
  stopped?: "budget";
  /** Outcomes taken from an earlier run's store, not asked again. */
  reused: number;
}

/**
 * Runs every arm on every question (at most `concurrency` questions at once) and reports per arm
 * and task: correct answers, accuracy with its 95 % Wilson interval, tokens, cost and wall time
 * per question, and for /debatt and /deep how the answers moved from round to round.
 */
export async function evaluate(deps: EvalDeps, questions: TaskQuestion[], arms: readonly Arm[], options: EvalOptions): Promise<EvalRun> {
  const tallies = new Map<string, Tally>();
  let next = 0;
  let done = 0;
  let inFlight = 0;
  let spent = 0;
  let reused = 0;
  let stopped: EvalRun["stopped"];
  const budget = options.budgetUsd;
  const affordable = () => budget === undefined || spent + (done > 0 ? spent / done : 0) * (inFlight + 1) <= budget;
  // With a budget the first question runs alone: until one has finished, nothing says what a question costs.
  let firstDone: () => void = () => {};
  const first = budget === undefined ? Promise.resolve() : new Promise<void>((resolve) => (firstDone = resolve));
  // An outcome is reused only for the same models (and the same simulated accuracy).
  const who = `${deps.participants.map((p) => `${p.key}=${p.model}`).join(",")}|${deps.models.simulated ? `simulated:${deps.settings.simulatedAccuracy ?? "-"}` : "real"}`;
  const worker = async () => {
    while (next < questions.length) {
      if (next > 0) await first;
      if (next >= questions.length) return;
      if (!affordable()) {
        stopped = "budget";
        return;
      }
      const q = questions[next++];
      inFlight++;
      for (const arm of arms) {
        const key = `${q.question}|${arm}|${who}`;
        const had = deps.kept?.get(key);
        if (had) reused += had.length;
        const outcomes = had ?? (await runArm(deps, arm, q));
        // A failed call or run is not kept: run again, the evaluation asks it again.
        if (!had && outcomes.every((o) => !o.outcome.error)) deps.kept?.put(key, outcomes);
        for (const { label, outcome } of outcomes) {
          const key = `${label}|${q.task}`;
          const t = tallies.get(key) ?? {
            arm: label,
            task: q.task,
            n: 0,
            correct: 0,
            tokens: 0,
            cost: 0,
            wallMs: 0,
            failed: 0,
            errors: new Set<string>(),
            rounds: new Map(),
            converged: 0,
            convergedBy: 0,
          };
          t.n++;
          if (outcome.answer === q.answer) t.correct++;
          if (outcome.error) {
            t.failed++;
            t.errors.add(outcome.error);
          }
          t.tokens += outcome.usage.input_tokens + outcome.usage.output_tokens;
          t.cost += outcome.usage.cost_usd;
          spent += outcome.usage.cost_usd;
          t.wallMs += outcome.wallMs;
          if (outcome.rounds) tallyRounds(t, outcome.rounds, q.answer);
          tallies.set(key, t);
        }
      }
      inFlight--;
      done++;
      firstDone();
      options.onQuestion?.({ done, total: questions.length, spentUsd: spent });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  // In the order the tasks and arms were asked for (questions finish in any order).
  const tasks = [...new Set(questions.map((q) => q.task))];
  const rank = (label: string) => arms.indexOf(label.split(":")[0] as Arm);
  const ordered = [...tallies.values()].sort(
    (a, b) => tasks.indexOf(a.task as TaskId) - tasks.indexOf(b.task as TaskId) || rank(a.arm) - rank(b.arm) || a.arm.localeCompare(b.arm),
  );
  const results = ordered.map((t) => {
    const [ci_low, ci_high] = wilsonInterval(t.correct, t.n);
    return {
      arm: t.arm,
      task: t.task,
      n: t.n,
      correct: t.correct,
      accuracy: t.correct / t.n,
      ci_low,
      ci_high,
      tokens_per_question: t.tokens / t.n,
      cost_per_question_usd: t.cost / t.n,
      wall_ms_per_question: t.wallMs / t.n,
      failed: t.failed,
      ...(t.failed > 0 ? { errors: [...t.errors].slice(0, 3) } : {}),
      ...(t.rounds.size > 0
        ? {
            rounds: [...t.rounds.values()].sort((a, b) => a.round - b.round),
            rounds_to_convergence: t.converged > 0 ? t.convergedBy / t.converged : null,
            converged: t.converged,
          }
        : {}),
    };
  });
  return { results, answered: done, spent_usd: spent, reused, ...(stopped ? { stopped } : {}) };
}
