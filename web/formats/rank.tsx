import type { ClientEvent } from "../../state/events.js";
import { FORMATS } from "../../state/formats.js";
import { labelName, named } from "../../state/messages/index.js";
import type { RankAggregate, RankFinal, RankingResponse } from "../../state/rank.js";
import { AnswerNotes } from "../answer-notes.js";
import { AnswerText, colorOf, CostFooter, markdown } from "../arena.js";
import { useT } from "../i18n.js";
import type { FormatView, StoredRun } from "./format-view.js";
import { panelView, type PanelViewProps } from "./panel-view.js";
import { RankMatrix } from "./rank-matrix.js";
import { RANK_PANEL, type RankState } from "./rank-state.js";
import { answered, ending, ev, firstAnswers, namesOf, type Answer, type Failure, type Panel, type Who } from "./replay.js";

/** A /rank result as the history stores it (`history/formats/rank.ts`). */
export interface StoredRank extends Panel {
  chairman?: Who;
  stage1: Answer[];
  stage1Failed?: Failure[];
  labelToModel?: Record<string, string>;
  rankings: RankingResponse[];
  aggregate?: RankAggregate;
  final?: RankFinal;
}

/** A chairman nobody knows the name of (a run stored without it that fell back to the top answer). */
const UNNAMED = { model: "", display: "", modelKey: "chairman" };

/** The events of a stored /rank run; undefined for one without an answer. */
function replayRank({ id, result, question, title }: StoredRun): ClientEvent[] | undefined {
  const r = result as StoredRank;
  if (!answered(r.stage1, r.stage1Failed)) return undefined;
  const names = namesOf(r, [...r.stage1, ...(r.stage1Failed ?? [])]);
  // A run stored without its panel's chairman: the final answer's author, when the chairman wrote it; else none named.
  const chairman = r.chairman ?? (r.final && !r.final.fallback ? { model: r.final.model, display: r.final.display, modelKey: r.final.modelKey } : UNNAMED);
  const events = [
    ev("rank-start", { messageId: id, mode: "rank", question, participants: names.participants, chairman, simulated: r.simulated ?? false }),
    ...firstAnswers("stage1-complete", "rank", names, r.stage1, r.stage1Failed),
  ];
  if (r.labelToModel) events.push(ev("rank-rankings-start", { labels: Object.keys(r.labelToModel) }));
  events.push(...r.rankings.map((data) => ev("rank-ranking", { data })));
  if (r.aggregate) events.push(ev("rank-aggregate", { data: r.aggregate }));
  if (r.final) events.push(ev("rank-final", { data: r.final }));
  return ending(events, Boolean(r.final), title);
}

/**
 * /rank: the answers side by side (each with its label and mean place once the council's ranking
 * is in), each model's ranking (by label, with the authors once known), the council's ranking as a
 * table, who ranked whom, then the chairman's answer as markdown. Each ranker's evaluation is folded under its order.
 */
function RankView({ s, ended, usage }: PanelViewProps<RankState>) {
  const t = useT();
  const places = s.aggregate?.ranking ?? [];
  const placeOf = (key: string) => places.find((p) => p.modelKey === key);
  const authorOf = (label: string) => places.find((p) => p.label === label)?.display;
  const labelled = (label: string) => `${labelName(t, label)}${authorOf(label) ? ` (${authorOf(label)})` : ""}`;
  return (
    <section class="arena panel rank" aria-label={t("rank.label", { question: s.question })}>
      <header class="arena-head">
        <h2>
          <span class="mode">{t("rank.title")}</span> {s.title ?? s.question}
        </h2>
        {s.chairman.display && <p class="note">{t("rank.chairedBy", { name: s.chairman.display })}</p>}
      </header>
      <div class="cards side-by-side">
        {s.participants.map((p) => {
          const a = s.answers[p.key];
          const place = placeOf(p.key);
          return (
            <article class={`card${a?.status === "error" ? " failed" : ""}`} style={{ "--accent": colorOf(p.key) }} data-participant={p.key}>
              <header>
                <span class="dot" aria-hidden="true" />
                <h3>{p.display}</h3>
                {place && <span class="badge">{`${labelName(t, place.label)} · ${t("rank.meanPlace", { average: place.averagePosition })}`}</span>}
              </header>
              {a?.status === "error" || !a?.text ? (
                <p class="answer">{a?.status === "error" ? t("card.error", { error: a.error ?? t("card.unknownError") }) : "…"}</p>
              ) : (
                <AnswerText text={a.text} sources={a.sources} />
              )}
              <AnswerNotes answer={a} />
              <CostFooter usage={usage} display={p.display} />
            </article>
          );
        })}
      </div>
      {s.labels.length > 0 && (
        <section class="round" aria-label={t("rank.rankings")}>
          <h3>{t("rank.rankings")}</h3>
          {/* Explicit roles: on a phone the cells are stacked blocks, and the roles keep it a table for assistive technology. */}
          <table class="stances" role="table">
            <thead role="rowgroup">
              <tr role="row">
                <th scope="col" role="columnheader">
                  {t("rank.col.ranker")}
                </th>
                <th scope="col" role="columnheader">
                  {t("rank.col.order")}
                </th>
              </tr>
            </thead>
            <tbody role="rowgroup">
              {s.participants
                .filter((p) => s.rankings[p.key] || s.ranking[p.key] !== undefined || (s.answers[p.key]?.status === "ok" && !ended))
                .map((p) => {
                  const r = s.rankings[p.key];
                  const evaluation = r?.rankingText ?? s.ranking[p.key] ?? "";
                  return (
                    <tr role="row" data-participant={p.key}>
                      <th scope="row" role="rowheader">
                        {p.display}
                      </th>
                      <td role="cell" data-label={t("rank.col.order")}>
                        {!r ? (
                          <p class="note">{t("rank.ranking")}</p>
                        ) : r.valid ? (
                          <ol class="ranking">
                            {r.parsedRanking.map((label) => (
                              <li>{labelled(label)}</li>
                            ))}
                          </ol>
                        ) : (
                          <p class="note">{t("rank.invalid", { problem: r.error ?? named(t, "rank.problem", r.problem ?? "no_ranking") })}</p>
                        )}
                        {evaluation.trim() && <Evaluation text={evaluation} authorOf={authorOf} />}
                      </td>
                    </tr>
                  );
                })}
            </tbody>
          </table>
        </section>
      )}
      {s.aggregate && (
        <section class="round" aria-label={t("rank.councilRanking")}>
          <h3>{t("rank.councilRanking")}</h3>
          {places.length === 0 ? (
            <p class="note">{t("rank.noRanking")}</p>
          ) : (
            <table class="stances" role="table">
              <thead role="rowgroup">
                <tr role="row">
                  <th scope="col" role="columnheader">
                    {t("rank.col.place")}
                  </th>
                  <th scope="col" role="columnheader">
                    {t("rank.col.answer")}
                  </th>
                  <th scope="col" role="columnheader">
                    {t("rank.col.meanPlace")}
                  </th>
                  <th scope="col" role="columnheader">
                    {t("rank.col.counted")}
                  </th>
                </tr>
              </thead>
              <tbody role="rowgroup">
                {places.map((p, i) => (
                  <tr role="row" data-participant={p.modelKey}>
                    <th scope="row" role="rowheader">
                      {i + 1}
                    </th>
                    <td role="cell" data-label={t("rank.col.answer")}>
                      {p.display} <span class="note">{labelName(t, p.label)}</span>
                    </td>
                    <td role="cell" data-label={t("rank.col.meanPlace")}>
                      {t("rank.meanPlace", { average: p.averagePosition })}
                    </td>
                    <td role="cell" data-label={t("rank.col.counted")}>
                      {p.rankings}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <p class="note" role="status">
            {t("rank.counts", { valid: s.aggregate.validRankings, invalid: s.aggregate.invalidRankings })}
          </p>
        </section>
      )}
      <RankMatrix s={s} />
      {s.final && (
        <section class="synthesis" aria-label={t("rank.final")} data-result>
          <h3>
            {t("rank.final")}
            {s.fallback && <span class="note">{t("rank.fallbackNote", { display: s.fallback.display, error: s.fallback.error })}</span>}
          </h3>
          <div dangerouslySetInnerHTML={{ __html: markdown.render(s.final) }} />
        </section>
      )}
    </section>
  );
}

/**
 * A ranker's evaluation, folded under its order: what it wrote of each answer, as llm-council's
 * second stage shows it. Once the council's ranking has named the authors, each label it mentions
 * says whose answer it was ("Response B (Claude)"); the model itself never knew.
 */
function Evaluation({ text, authorOf }: { text: string; authorOf: (label: string) => string | undefined }) {
  const t = useT();
  const told = text.replace(/\bResponse ([A-Z])\b/g, (label) => (authorOf(label) ? `${label} (**${authorOf(label)}**)` : label));
  return (
    <details class="evaluation">
      <summary>{t("rank.evaluation")}</summary>
      <div dangerouslySetInnerHTML={{ __html: markdown.render(told) }} />
    </details>
  );
}

/** /rank: the models answer, each ranks every answer anonymously, and a chairman writes the final answer. */
export const RANK_VIEW = {
  label: FORMATS.rank.command,
  adminGroup: "rank",
  spoken: false,
  hintOptions: null,
  replay: replayRank,
  ...panelView(RANK_PANEL, (s) => s.participants, RankView),
} satisfies FormatView;
