import { wilsonInterval, type TaskId, type TaskQuestion } from "../state/evaluation/tasks.js";
import type { ArmResult, RoundFigures } from "../state/evaluation/report.js";

// The arms and how each answers a question are eval-arms.ts's; `evaluate` asks them over the questions and adds up their figures.
export { ARMS, fileOutcomeStore, plurality, SELF_CONSISTENCY_SAMPLES, type Arm, type EvalDeps, type Outcome, type OutcomeStore } from "./eval-arms.js";
import { RESPONSE_TOKENS } from "../state/run-config.js";
import { runArm, type Arm, type EvalDeps } from "./eval-arms.js";

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
  // An outcome is reused only for the same models (and the same simulated accuracy) and the same answer budget.
  const budgetTag = deps.maxTokens === undefined || deps.maxTokens === RESPONSE_TOKENS.default ? "" : `|max_tokens:${deps.maxTokens}`;
  const who = `${deps.participants.map((p) => `${p.key}=${p.model}`).join(",")}|${deps.models.simulated ? `simulated:${deps.settings.simulatedAccuracy ?? "-"}` : "real"}${budgetTag}`;
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
