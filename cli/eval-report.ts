import { verdictOf, type ArmResult, type EvalReport } from "../state/evaluation/report.js";
import { RESPONSE_TOKENS } from "../state/run-config.js";
import { decimal, percentWithDecimal, type Lang, type Translate } from "../state/messages/index.js";

/** The figures as a Markdown table, one row per arm and task. */
function tableOf(t: Translate, lang: Lang, results: ArmResult[]): string {
  const pct = (x: number) => percentWithDecimal(lang, x);
  const rows = results.map(
    (r) =>
      `| ${r.arm} | ${r.task} | ${r.n} | ${r.correct} | ${pct(r.accuracy)} | ${pct(r.ci_low)}–${pct(r.ci_high)} | ${Math.round(r.tokens_per_question)} | ${decimal(lang, r.cost_per_question_usd, 5)} | ${Math.round(r.wall_ms_per_question)} | ${r.failed} |`,
  );
  return [t("eval.head"), "|---|---|---|---|---|---|---|---|---|---|", ...rows].join("\n");
}

/** /debatt's and /deep's rounds: a table of the answers per round, and when they converged. */
function roundsOf(t: Translate, lang: Lang, results: ArmResult[]): string | undefined {
  const debated = results.filter((r) => r.rounds);
  if (debated.length === 0) return undefined;
  const rows = debated.flatMap((r) =>
    r.rounds!.map((f) => `| ${r.arm} | ${r.task} | ${f.round} | ${f.answers} | ${f.right} | ${f.right_to_wrong} | ${f.wrong_to_right} |`),
  );
  const converged = debated.map((r) =>
    r.rounds_to_convergence == null
      ? t("eval.neverConverged", { arm: r.arm, task: r.task })
      : t("eval.convergence", { arm: r.arm, task: r.task, round: decimal(lang, r.rounds_to_convergence), converged: r.converged ?? 0, n: r.n }),
  );
  const zero = debated.some((r) => r.rounds![0]?.round === 0) ? [t("eval.roundZero")] : [];
  return [t("eval.roundsTitle"), "", t("eval.roundsHead"), "|---|---|---|---|---|---|---|", ...rows, "", ...converged, ...zero].join("\n");
}

/**
 * The report for people, in Markdown: the table, which arms beat the plain majority, how the
 * debates' answers moved, what failed, and whether the budget stopped it.
 */
export function reportText(t: Translate, lang: Lang, report: EvalReport): string {
  const failed = report.arms
    .filter((r) => r.failed > 0)
    .map((r) => t("eval.failed", { arm: r.arm, task: r.task, failed: r.failed, n: r.n, errors: (r.errors ?? []).join("; ") }));
  const simulated =
    report.simulated_accuracy !== undefined
      ? t("eval.simulated", { accuracy: String(report.simulated_accuracy) })
      : report.simulated
        ? t("eval.simulatedPlain")
        : undefined;
  // The answer budget is said when it is not the run configuration's default (a tight one explains cut answers).
  const budget = report.max_tokens !== undefined && report.max_tokens !== RESPONSE_TOKENS.default ? t("eval.maxTokens", { n: report.max_tokens }) : undefined;
  const parts = [
    simulated,
    budget,
    tableOf(t, lang, report.arms),
    verdictOf(t, report.comparisons).join("\n"),
    roundsOf(t, lang, report.arms),
    failed.length > 0 ? failed.join("\n") : undefined,
    report.stopped === "budget"
      ? t("eval.budgetStop", { usdBudget: report.budget_usd ?? 0, answered: report.answered, total: report.n * report.tasks.length })
      : undefined,
    t("eval.spent", { usdSpent: report.spent_usd }),
  ];
  return `${parts.filter((p) => p !== undefined).join("\n\n")}\n`;
}
