import type { Translate } from "../messages/index.js";

/**
 * The report of `npm run eval`: per arm and task, the accuracy with its interval, the cost, and
 * for /debatt and /deep how the answers moved from round to round. Other tools (and the page) read
 * it as JSON.
 */

/** One arm's figures on one task, as the JSON report has them. */
export interface ArmResult {
  arm: string;
  task: string;
  n: number;
  correct: number;
  accuracy: number;
  ci_low: number;
  ci_high: number;
  tokens_per_question: number;
  cost_per_question_usd: number;
  wall_ms_per_question: number;
  /** Questions on which a call or a run of the arm failed (counted as not right; asked again when the evaluation is run again). */
  failed: number;
  /** The first few distinct errors, when some failed. */
  errors?: string[];
  /**
   * /debatt and /deep: per round, how many participants' answers could be read and were right, and
   * how many went right→wrong and wrong→right since the round before (/deep's round 0 is the first
   * answers, before the debate).
   */
  rounds?: RoundFigures[];
  /** /debatt and /deep: the mean round by which every participant gave the same answer, over the questions where they did (null: never). */
  rounds_to_convergence?: number | null;
  /** /debatt and /deep: on how many questions every participant came to give the same answer. */
  converged?: number;
}

/** One round's answers, added up over the questions of an arm and task. */
export interface RoundFigures {
  round: number;
  answers: number;
  right: number;
  right_to_wrong: number;
  wrong_to_right: number;
}

/** How an arm compares with the plain majority on a task, by their 95 % intervals. */
export interface Comparison {
  arm: string;
  task: string;
  /** `better`/`worse`: the intervals do not overlap; `unclear`: they do, so the run cannot tell. */
  versus_majority: "better" | "worse" | "unclear";
}

/** Each arm against the plain majority of the same task (arms on a task without a majority row are left out). */
export function compareWithMajority(results: ArmResult[]): Comparison[] {
  return results.flatMap((r) => {
    const majority = results.find((m) => m.arm === "majority" && m.task === r.task);
    if (!majority || r === majority) return [];
    const versus = r.ci_low > majority.ci_high ? "better" : r.ci_high < majority.ci_low ? "worse" : "unclear";
    return [{ arm: r.arm, task: r.task, versus_majority: versus }];
  });
}

/** Which arms beat the plain majority, which were worse, and which the run cannot tell apart from it. */
export function verdictOf(t: Translate, comparisons: Comparison[]): string[] {
  if (comparisons.length === 0) return [t("eval.noMajority")];
  const of = (v: Comparison["versus_majority"]) =>
    comparisons
      .filter((c) => c.versus_majority === v)
      .map((c) => `${c.arm} (${c.task})`)
      .join(", ") || t("eval.none");
  return [t("eval.better", { arms: of("better") }), t("eval.worse", { arms: of("worse") }), t("eval.unclear", { arms: of("unclear") })];
}

/** The JSON report an evaluation writes (and keeps for the page). */
export interface EvalReport {
  tasks: string[];
  seed: number;
  n: number;
  /** The participants' keys, and their names as people know them. */
  participants: string[];
  participant_names?: string[];
  simulated: boolean;
  /** SIMULATED_ACCURACY, when the models were simulated with it. */
  simulated_accuracy?: number;
  /** The token budget of each answer (`--max-tokens`); absent in reports written before it could be set (they used 800). */
  max_tokens?: number;
  arms: ArmResult[];
  comparisons: Comparison[];
  /** The questions every arm answered, all tasks together (fewer than `n` per task when the budget stopped it). */
  answered: number;
  spent_usd: number;
  budget_usd?: number;
  stopped?: "budget";
  created_at: string;
}
