import { useContext, useEffect, useState } from "preact/hooks";
import { VOTING_FORMATS } from "../state/leaderboard/ballots.js";
import { modelNames, type LeaderboardModel, type LeaderboardReport } from "../state/leaderboard/leaderboard.js";
import { biasWords, leaderboardSummary } from "../state/messages/index.js";
import { inWords, readApi } from "./api-error.js";
import { LangContext, useCount, useT } from "./i18n.js";
import { ScrollTable } from "./scroll-table.js";

/** Loads the leaderboard for the filters: undefined while loading. */
function useLeaderboard(format: string, since: string): { report: LeaderboardReport | undefined; error: unknown } {
  const [report, setReport] = useState<LeaderboardReport | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const query = new URLSearchParams({ ...(format ? { format } : {}), ...(since ? { since } : {}) });
    let current = true;
    setError(null);
    fetch(`/api/v1/leaderboard?${query}`)
      .then((res) => readApi<LeaderboardReport>(res))
      .then(
        (body) => current && setReport(body),
        (err: unknown) => current && setError(err),
      );
    return () => {
      current = false;
    };
  }, [format, since]);
  return { report, error };
}

/**
 * The ratings as a chart: one row per model, its interval as a bar and its rating as a dot, on one
 * axis from the lowest interval to the highest. Drawn in HTML, so the names stay readable on a
 * phone; the table below gives the same figures to a screen reader. Each model is named as the
 * runs showed it (`names`), its model id in the row's title.
 */
function RatingChart({ models, names }: { models: LeaderboardModel[]; names: Map<string, string> }) {
  const t = useT();
  const lo = Math.min(...models.map((m) => m.low));
  const hi = Math.max(...models.map((m) => m.high));
  const at = (v: number) => `${(100 * (v - lo)) / Math.max(1, hi - lo)}%`;
  return (
    <figure class="leaderboard-chart">
      <div class="chart-rows" aria-hidden="true">
        {models.map((m) => (
          <div class="chart-row" key={m.model} title={`${m.model}: ${Math.round(m.score)} (${Math.round(m.low)}–${Math.round(m.high)})`}>
            <span class="chart-label">{names.get(m.model) ?? m.model}</span>
            <span class="chart-track">
              <span class="chart-interval" style={{ left: at(m.low), right: `calc(100% - ${at(m.high)})` }} />
              <span class="chart-score" style={{ left: at(m.score) }} />
            </span>
          </div>
        ))}
        <div class="chart-row">
          <span class="chart-label" />
          <span class="chart-axis">
            <span>{Math.round(lo)}</span>
            <span>{Math.round(hi)}</span>
          </span>
        </div>
      </div>
      <figcaption>{t("leaderboard.chart")}</figcaption>
    </figure>
  );
}

/** `#leaderboard`: which of the user's models win the votes in their history, and what else decides the votes. */
export function LeaderboardPage() {
  const t = useT();
  const lang = useContext(LangContext);
  const count = useCount();
  const [format, setFormat] = useState("");
  const [since, setSince] = useState("");
  const { report, error } = useLeaderboard(format, since);
  const names = modelNames(report?.models ?? []);
  return (
    <main class="history-page leaderboard">
      <h1>{t("leaderboard.title")}</h1>
      <form class="leaderboard-filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          {t("leaderboard.format")}{" "}
          <select value={format} onChange={(e) => setFormat((e.target as HTMLSelectElement).value)}>
            <option value="">{t("leaderboard.allFormats")}</option>
            {VOTING_FORMATS.map((f) => (
              <option key={f} value={f}>
                /{f}
              </option>
            ))}
          </select>
        </label>{" "}
        <label>
          {t("leaderboard.sinceLabel")} <input type="date" value={since} onChange={(e) => setSince((e.target as HTMLInputElement).value)} />
        </label>
      </form>
      {error !== null && (
        <p class="error" role="alert">
          {inWords(t, error)}
        </p>
      )}
      {!report && error === null && (
        <p class="note loading" role="status" aria-busy="true">
          {t("leaderboard.loading")}
        </p>
      )}
      {report && (
        <>
          <p class="note leaderboard-summary">{leaderboardSummary(t, report, lang)}</p>
          {report.ballots === 0 && <p class="note">{t("leaderboard.none")}</p>}
          {report.simulated_ballots > 0 && <p class="note">{t("leaderboard.simulated", { n: count(report.simulated_ballots) })}</p>}
          {report.models.length > 0 && (
            <>
              <RatingChart models={report.models} names={names} />
              <ScrollTable
                label={t("leaderboard.title")}
                class="leaderboard-table"
                columns={["leaderboard.rank", "leaderboard.model", "leaderboard.rating", "leaderboard.interval", "leaderboard.won"]}
              >
                {report.models.map((m, i) => (
                  <tr key={m.model}>
                    <td>{i + 1}</td>
                    <th scope="row" title={m.model}>
                      {names.get(m.model) ?? m.model}
                    </th>
                    <td>{Math.round(m.score)}</td>
                    <td>
                      {Math.round(m.low)}–{Math.round(m.high)}
                    </td>
                    <td>{t("leaderboard.wonOf", { wins: count(m.wins), appearances: count(m.appearances) })}</td>
                  </tr>
                ))}
              </ScrollTable>
              <h3>{t("leaderboard.biasesTitle")}</h3>
              <ul class="leaderboard-biases">
                {report.biases.map((f) => (
                  <li key={f.id} class={f.significant ? "significant" : undefined}>
                    {biasWords(t, lang, f)}
                  </li>
                ))}
              </ul>
              <p class="note">{t("leaderboard.method")}</p>
            </>
          )}
        </>
      )}
    </main>
  );
}
