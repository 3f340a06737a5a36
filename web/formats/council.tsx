import type { CouncilResult, JudgeRound } from "../../state/council.js";
import type { ClientEvent } from "../../state/events.js";
import { FORMATS } from "../../state/formats.js";
import { councilNote, named } from "../../state/messages/index.js";
import { costOf, markdown } from "../arena.js";
import { useContext } from "preact/hooks";
import { LangContext, useT } from "../i18n.js";
import type { FormatView, StoredRun } from "./format-view.js";
import { panelView, type PanelViewProps } from "./panel-view.js";
import { COUNCIL_PANEL, type CouncilState } from "./council-state.js";
import { ending, ev, namesOf, standIn, type Panel } from "./replay.js";

/** A /council result as the history stores it (`history/formats/council.ts`). */
export interface StoredCouncil extends Panel {
  perspectives?: Record<string, string>;
  debate?: boolean;
  round1: JudgeRound[];
  round2: JudgeRound[];
  result?: CouncilResult;
  report?: string;
  reportError?: string;
}

/** The events of a stored /council run; undefined for one without a verdict. */
function replayCouncil({ id, result, question: claim, title }: StoredRun): ClientEvent[] | undefined {
  const r = result as StoredCouncil;
  if (r.round1.length === 0) return undefined;
  const verdicts = [...r.round1, ...r.round2];
  const names = namesOf(r, verdicts);
  const perspectiveOf = (key: string) => r.perspectives?.[key] ?? verdicts.find((v) => v.modelKey === key)?.perspective ?? "";
  const judges = names.participants.map((p) => ({ ...p, perspective: perspectiveOf(p.modelKey) }));
  const events = [
    ev("council-start", { messageId: id, mode: "council", claim, judges, debate: r.debate ?? r.round2.length > 0, simulated: r.simulated ?? false }),
    ev("council-round-start", { round: 1 }),
    ...r.round1.map((v) => ev("council-verdict", v)),
  ];
  if (r.round2.length > 0) {
    events.push(ev("council-round-start", { round: 2, ...(r.result?.branch ? { branch: r.result.branch } : {}) }));
    events.push(...r.round2.map((v) => ev("council-verdict", v)));
  }
  if (r.result) events.push(ev("council-consolidation", { data: r.result }));
  if (r.report) events.push(ev("council-report-complete", { data: { report: r.report, ...standIn(r.reportError) } }));
  return ending(events, Boolean(r.report), title);
}

const VERDICT_CLASS = { PASS: "pass", WARN: "warn", FAIL: "fail" } as const;

/**
 * /council: the verdict table (one row per judge and its perspective; round 1, and
 * round 2 with --debate), the consensus with its counts and any note, then the report.
 */
function CouncilView({ s, ended, usage }: PanelViewProps<CouncilState>) {
  const t = useT();
  const lang = useContext(LangContext);
  const rounds = s.debate ? [1, 2] : [1];
  return (
    <section class="arena panel council" aria-label={t("council.label", { claim: s.claim })}>
      <header class="arena-head">
        <h2>
          <span class="mode">{t("council.title")}</span> {s.title ?? s.claim}
        </h2>
        {s.debate && (
          <p class="note">--debate{s.branch ? t("council.round2", { branch: t(s.branch === "agreed" ? "council.agreed" : "council.disagreed") }) : ""}</p>
        )}
      </header>
      {/* Explicit roles: on a phone the cells are stacked blocks, and the roles keep it a table for assistive technology. */}
      <table class="verdicts" role="table">
        <thead role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader">
              {t("council.judge")}
            </th>
            {rounds.map((r) => (
              <th scope="col" role="columnheader">
                {t("deep.round", { n: r })}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {s.judges.map((j) => (
            <tr role="row" data-participant={j.key}>
              <th scope="row" role="rowheader">
                {j.display} <span class="note">{named(t, "perspective", j.perspective)}</span>
                {usage && costOf(t, usage, j.display, lang) && <span class="note cost">{t("usage.card", { cost: costOf(t, usage, j.display, lang)! })}</span>}
              </th>
              {rounds.map((r) => {
                const v = s.verdicts[r]?.[j.key];
                const label = t("deep.round", { n: r });
                if (!v)
                  return (
                    <td role="cell" class="note" data-label={label}>
                      {s.round >= r && !s.result && !ended ? "…" : "—"}
                    </td>
                  );
                if (!v.verdict)
                  return (
                    <td role="cell" class="note" data-label={label}>
                      {t(v.status === "timeout" ? "council.timeout" : "council.error")}: {v.error}
                    </td>
                  );
                return (
                  <td role="cell" data-label={label}>
                    <span class={`badge verdict ${VERDICT_CLASS[v.verdict.verdict]}`}>{v.verdict.verdict}</span>{" "}
                    <span class="note">{named(t, "confidence", v.verdict.confidence)}</span>
                    {v.unjustifiedChange && <span class="badge">{t("council.unjustified")}</span>}
                    <div>{v.verdict.key_insight}</div>
                    {v.verdict.findings.length > 0 && (
                      <details>
                        <summary>{t("council.findings", { n: v.verdict.findings.length })}</summary>
                        <ul>
                          {v.verdict.findings.map((f) => (
                            <li>
                              <strong>{named(t, "severity", f.severity)}</strong>: {f.description}
                            </li>
                          ))}
                        </ul>
                      </details>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {s.result && (
        <div class="winner" role="status" data-result>
          {t("council.consensus")} <span class={`badge verdict ${VERDICT_CLASS[s.result.consensus]}`}>{s.result.consensus}</span> — PASS {s.result.counts.PASS}{" "}
          · WARN {s.result.counts.WARN} · FAIL {s.result.counts.FAIL}
          {s.result.unanimous && <span class="note">{t("council.unanimous")}</span>}
          {s.result.note && <p class="note">{councilNote(t, s.result)}</p>}
        </div>
      )}
      {s.report && (
        <section class="synthesis" aria-label={t("council.report")}>
          <div dangerouslySetInnerHTML={{ __html: markdown.render(s.report) }} />
        </section>
      )}
    </section>
  );
}

/** /council: judges, each from its perspective, give verdicts on a claim (twice with --debate), consolidated in a report. */
export const COUNCIL_VIEW = {
  label: FORMATS.council.command,
  adminGroup: "council",
  spoken: false,
  hintOptions: "[--debate] ",
  replay: replayCouncil,
  ...panelView(COUNCIL_PANEL, (s) => s.judges, CouncilView),
} satisfies FormatView;
