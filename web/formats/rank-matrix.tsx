import { labelName } from "../../state/messages/index.js";
import { useT } from "../i18n.js";
import type { RankState } from "./rank-state.js";

/**
 * Who ranked whom, once the council's ranking has named the answers' authors: a row per model
 * that ranked, a column per answer (its author and label), and in each cell the place that model
 * gave that answer (1 = best). A model's own answer is marked; a ranking that did not count keeps
 * its row, marked so, since what it said may still interest the reader.
 */
export function RankMatrix({ s }: { s: RankState }) {
  const t = useT();
  if (!s.aggregate) return null;
  const authors = new Map(s.aggregate.ranking.map((p) => [p.label, p]));
  const byModel = (model: string) => s.participants.find((p) => p.model === model);
  const columns = Object.entries(s.aggregate.labelToModel)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([label, model]) => ({
      label,
      key: authors.get(label)?.modelKey ?? byModel(model)?.key,
      display: authors.get(label)?.display ?? byModel(model)?.display ?? model,
    }));
  const rankers = s.participants.filter((p) => s.rankings[p.key]);
  if (rankers.length === 0 || columns.length === 0) return null;
  return (
    <section class="round" aria-label={t("rank.matrix")}>
      <h3>{t("rank.matrix")}</h3>
      {/* As the rankings' table: on a phone the cells are stacked blocks, each named by its column (the answer). */}
      <table class="stances rank-matrix" role="table">
        <thead role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader">
              {t("rank.col.ranker")}
            </th>
            {columns.map((c) => (
              <th scope="col" role="columnheader" data-participant={c.key}>
                {c.display} <span class="note">{labelName(t, c.label)}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {rankers.map((p) => {
            const r = s.rankings[p.key];
            return (
              <tr role="row" data-participant={p.key} class={r.valid ? undefined : "not-counted"}>
                <th scope="row" role="rowheader">
                  {p.display}
                  {!r.valid && <span class="note"> {t("rank.notCounted")}</span>}
                </th>
                {columns.map((c) => {
                  const place = r.parsedRanking.indexOf(c.label) + 1;
                  const own = c.key === p.key;
                  return (
                    <td role="cell" data-label={`${c.display} (${labelName(t, c.label)})`} data-place={place || undefined} class={own ? "own" : undefined}>
                      {place > 0 ? place : "–"}
                      {own && <span class="note"> {t("rank.own")}</span>}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
