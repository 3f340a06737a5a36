import type { ArmResult, Comparison, EvalReport } from "../state/eval-report.js";
import type { Translate } from "../state/messages/index.js";

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

/** The figures as a Markdown table, one row per arm and task. */
function tableOf(t: Translate, results: ArmResult[]): string {
  const rows = results.map(
    (r) =>
      `| ${r.arm} | ${r.task} | ${r.n} | ${r.correct} | ${pct(r.accuracy)} | ${pct(r.ci_low)}–${pct(r.ci_high)} | ${Math.round(r.tokens_per_question)} | ${r.cost_per_question_usd.toFixed(5)} | ${Math.round(r.wall_ms_per_question)} | ${r.failed} |`,
  );
  return [t("eval.head"), "|---|---|---|---|---|---|---|---|---|---|", ...rows].join("\n");
}

/** Which arms beat the plain majority, which were worse, and which the run cannot tell apart from it. */
function verdictOf(t: Translate, comparisons: Comparison[]): string {
  if (comparisons.length === 0) return t("eval.noMajority");
  const of = (v: Comparison["versus_majority"]) => comparisons.filter((c) => c.versus_majority === v).map((c) => `${c.arm} (${c.task})`).join(", ") || t("eval.none");
  return [t("eval.better", { arms: of("better") }), t("eval.worse", { arms: of("worse") }), t("eval.unclear", { arms: of("unclear") })].join("\n");
}

/** /debatt's and /deep's rounds: a table of the answers per round, and when they converged. */
function roundsOf(t: Translate, results: ArmResult[]): string | undefined {
  const debated = results.filter((r) => r.rounds);
  if (debated.length === 0) return undefined;
  const rows = debated.flatMap((r) => r.rounds!.map((f) => `| ${r.arm} | ${r.task} | ${f.round} | ${f.answers} | ${f.right} | ${f.right_to_wrong} | ${f.wrong_to_right} |`));
  const converged = debated.map((r) =>
    r.rounds_to_convergence == null ? t("eval.neverConverged", { arm: r.arm, task: r.task }) : t("eval.convergence", { arm: r.arm, task: r.task, round: r.rounds_to_convergence.toFixed(1), converged: r.converged ?? 0, n: r.n }),
  );
  return [t("eval.roundsTitle"), "", t("eval.roundsHead"), "|---|---|---|---|---|---|---|", ...rows, "", ...converged].join("\n");
}

/**
 * The report for people, in Markdown: the table, which arms beat the plain majority, how the
 * debates' answers moved, what failed, and whether the budget stopped it.
 */
export function reportText(t: Translate, report: EvalReport): string {
  const failed = report.arms.filter((r) => r.failed > 0).map((r) => t("eval.failed", { arm: r.arm, task: r.task, failed: r.failed, n: r.n, errors: (r.errors ?? []).join("; ") }));
  const parts = [
    report.simulated_accuracy !== undefined ? t("eval.simulated", { accuracy: report.simulated_accuracy }) : undefined,
    tableOf(t, report.arms),
    verdictOf(t, report.comparisons),
    roundsOf(t, report.arms),
    failed.length > 0 ? failed.join("\n") : undefined,
    report.stopped === "budget" ? t("eval.budgetStop", { usdBudget: report.budget_usd ?? 0, answered: report.answered, total: report.n * report.tasks.length }) : undefined,
    t("eval.spent", { usdSpent: report.spent_usd }),
  ];
  return `${parts.filter((p) => p !== undefined).join("\n\n")}\n`;
}
