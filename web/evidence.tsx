import { useContext, useEffect, useState } from "preact/hooks";
import { verdictOf, type ArmResult, type Comparison, type EvalReport } from "../state/evaluation/report.js";
import { decimal, percentWithDecimal, type Lang, type Translate } from "../state/messages/index.js";
import { dateLocale } from "./history.js";
import { inWords, readApi } from "./api-error.js";
import { LangContext, useT } from "./i18n.js";
import { ScrollTable } from "./scroll-table.js";

/** The user's latest evaluation as `GET /api/v1/evaluations/latest` answers it. */
interface StoredEvaluation {
  id: string;
  createdAt: string;
  report: EvalReport;
}

/** Loads the user's latest evaluation: undefined while loading, null when there is none. */
function useLatestEvaluation(): { evaluation: StoredEvaluation | null | undefined; error: unknown } {
  const [evaluation, setEvaluation] = useState<StoredEvaluation | null | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    fetch("/api/v1/evaluations/latest")
      .then((res) => readApi<{ evaluation: StoredEvaluation | null }>(res))
      .then((body) => setEvaluation(body?.evaluation ?? null), setError);
  }, []);
  return { evaluation, error };
}

/** What one question cost an arm: dollars when any cost is known, else tokens. */
function perQuestion(t: Translate, r: ArmResult, byCost: boolean): string {
  return byCost ? t("usage.cost", { usd: r.cost_per_question_usd }) : t("usage.tokens", { n: Math.round(r.tokens_per_question) });
}

/** How an arm did against the plain majority, in words ("—" for the majority itself). */
function versusOf(t: Translate, comparisons: Comparison[], r: ArmResult): string {
  const c = comparisons.find((x) => x.arm === r.arm && x.task === r.task);
  return c ? t(`evidence.${c.versus_majority}`) : "—";
}

/** `#evidence`: the user's latest `npm run eval` report: every arm's accuracy with its interval, cost, and how it compares with the plain majority. */
export function EvidencePage() {
  const t = useT();
  const lang = useContext(LangContext);
  const { evaluation, error } = useLatestEvaluation();
  const report = evaluation?.report;
  const pct = (x: number) => percentWithDecimal(lang, x);
  const byCost = report?.arms.some((r) => r.cost_per_question_usd > 0) ?? false;
  return (
    <main class="history-page evidence">
      <h1>{t("evidence.title")}</h1>
      {error !== null && (
        <p class="error" role="alert">
          {inWords(t, error)}
        </p>
      )}
      {evaluation === null && (
        <p class="note">
          {t("evidence.none", { command: "{command}" })
            .split(/(\{command\})/)
            .map((part) => (part === "{command}" ? <code>npm run -s eval</code> : part))}
        </p>
      )}
      {report && evaluation && (
        <>
          <p class="note">
            {t("evidence.when", {
              when: new Date(evaluation.createdAt).toLocaleString(dateLocale(lang)),
              n: report.n,
              participants: (report.participant_names ?? report.participants).join(", "),
            })}
          </p>
          {report.simulated && <p class="note">{t("evidence.simulated")}</p>}
          {report.stopped === "budget" && <p class="note">{t("evidence.budgetStop", { answered: report.answered, total: report.n * report.tasks.length })}</p>}
          <ul class="evidence-verdict">
            {verdictOf(t, report.comparisons).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <ScrollTable
            label={t("evidence.title")}
            class="evidence-table"
            columns={["evidence.arm", "evidence.task", "evidence.accuracy", "evidence.interval", "evidence.cost", "evidence.versus"]}
          >
            {report.arms.map((r) => (
              <tr key={`${r.arm}|${r.task}`} class={r.arm === "majority" ? "majority" : undefined}>
                <th scope="row">{r.arm}</th>
                <td>{r.task}</td>
                <td>
                  {pct(r.accuracy)}{" "}
                  <span class="note">
                    ({r.correct}/{r.n})
                  </span>
                  {r.failed > 0 && <span class="note"> · {t("evidence.failed", { n: r.failed })}</span>}
                </td>
                <td>
                  {pct(r.ci_low)}–{pct(r.ci_high)}
                </td>
                <td>{perQuestion(t, r, byCost)}</td>
                <td>{versusOf(t, report.comparisons, r)}</td>
              </tr>
            ))}
          </ScrollTable>
          <p class="note">{t("evidence.spent", { usdSpent: report.spent_usd })}</p>
          <Rounds arms={report.arms.filter((r) => r.rounds)} lang={lang} />
        </>
      )}
    </main>
  );
}

/** /debatt's and /deep's answers round by round, and when the participants came to agree. */
function Rounds({ arms, lang }: { arms: ArmResult[]; lang: Lang }) {
  const t = useT();
  if (arms.length === 0) return null;
  return (
    <section class="evidence-rounds">
      <h3>{t("evidence.roundsTitle")}</h3>
      {arms.map((r) => (
        <div key={`${r.arm}|${r.task}`}>
          <h4>
            {r.arm} · {r.task}
          </h4>
          <ul>
            {r.rounds!.map((f) => (
              <li key={f.round}>{t("evidence.round", { round: f.round, right: f.right, answers: f.answers, rw: f.right_to_wrong, wr: f.wrong_to_right })}</li>
            ))}
          </ul>
          <p class="note">
            {r.rounds_to_convergence == null
              ? t("evidence.neverConverged")
              : t("evidence.convergence", { round: decimal(lang, r.rounds_to_convergence), converged: r.converged ?? 0, n: r.n })}
          </p>
        </div>
      ))}
    </section>
  );
}

/**
 * On a new chat: a line with the user's latest evaluation (the arms that are not a single model,
 * best first, all tasks together) and a link to it; nothing when there is none.
 */
export function LatestEvaluationNote() {
  const t = useT();
  const lang = useContext(LangContext);
  const { evaluation } = useLatestEvaluation();
  if (!evaluation) return null;
  const totals = new Map<string, { correct: number; n: number }>();
  for (const r of evaluation.report.arms) {
    if (r.arm.startsWith("single:")) continue;
    const arm = r.arm.split(":")[0];
    const sum = totals.get(arm) ?? { correct: 0, n: 0 };
    totals.set(arm, { correct: sum.correct + r.correct, n: sum.n + r.n });
  }
  const summary = [...totals]
    .map(([arm, s]) => ({ arm, accuracy: s.n ? s.correct / s.n : 0 }))
    .sort((a, b) => b.accuracy - a.accuracy)
    .map((a) => `${a.arm} ${percentWithDecimal(lang, a.accuracy)}`)
    .join(", ");
  return (
    <p class="note latest-evaluation">
      {t(evaluation.report.simulated ? "evidence.latestSimulated" : "evidence.latest", { summary })} · <a href="#evidence">{t("evidence.details")}</a>
    </p>
  );
}
