import { AnswerText, colorOf, CostFooter, costOf, markdown } from "./arena.js";
import type { ArenaState } from "./arena-state.js";
import type { CouncilState, DeepState, PanelState } from "./panel-state.js";
import { useT } from "./i18n.js";
import { AnswerNotes } from "./answer-notes.js";
import { councilNote, named, percent as pct } from "../state/messages/index.js";

/** /deep or /council, whichever the run is (`ended`: its stream has ended, see DeliberationView). */
export function PanelView({ s, ended, usage }: { s: PanelState; ended: boolean; usage?: ArenaState["usage"] }) {
  return s.kind === "deep" ? <DeepView s={s} ended={ended} usage={usage} /> : <CouncilView s={s} ended={ended} usage={usage} />;
}

/**
 * /deep: the first answers, then each round as a table of the debaters' stances,
 * revisions, confidence and key points with the moderator's numbers and the computed decision,
 * then the synthesis as markdown.
 */
function DeepView({ s, ended, usage }: { s: DeepState; ended: boolean; usage?: ArenaState["usage"] }) {
  const t = useT();
  return (
    <section class="arena panel deep" aria-label={t("deep.label", { question: s.question })}>
      <header class="arena-head">
        <h2>
          <span class="mode">{t("deep.title")}</span> {s.title ?? s.question}
        </h2>
        <p class="note">
          {t("deep.rounds", { min: s.minRounds, max: s.maxRounds })}
          {s.arguing && !s.complete && !ended ? t("deep.arguing", { n: s.arguing }) : ""}
        </p>
      </header>
      <div class="cards side-by-side">
        {s.participants.map((p) => {
          const a = s.answers[p.key];
          const label = Object.entries(s.debaters).find(([, w]) => w.modelKey === p.key)?.[0];
          return (
            <article class={`card${a?.status === "error" ? " failed" : ""}`} style={{ "--accent": colorOf(p.key) }} data-participant={p.key}>
              <header>
                <span class="dot" aria-hidden="true" />
                <h3>{p.display}</h3>
                {label && <span class="badge">{t("deep.debater", { label })}</span>}
              </header>
              <details open={s.rounds.length === 0}>
                <summary>{a?.status === "error" ? t("dv.error") : t("deep.firstAnswer")}</summary>
                {a?.status === "error" || !a?.text ? <p class="answer">{a?.status === "error" ? t("card.error", { error: a.error ?? t("card.unknownError") }) : "…"}</p> : <AnswerText text={a.text} sources={a.sources} />}
              </details>
              <AnswerNotes answer={a} />
              <CostFooter usage={usage} display={p.display} />
            </article>
          );
        })}
      </div>
      {s.rounds.map((r) => (
        <section class="round" aria-label={t("deep.round", { n: r.round })}>
          <h3>{t("deep.round", { n: r.round })}</h3>
          {/* On a narrow screen the rows stack (styles.css): each cell then names its column itself,
              so the explicit roles keep the table a table for assistive technology. */}
          <table class="stances" role="table">
            <thead role="rowgroup">
              <tr role="row">
                <th scope="col" role="columnheader">{t("deep.col.debater")}</th>
                <th scope="col" role="columnheader">{t("deep.col.stance")}</th>
                <th scope="col" role="columnheader">{t("deep.col.revision")}</th>
                <th scope="col" role="columnheader">{t("deep.col.confidence")}</th>
                <th scope="col" role="columnheader">{t("deep.col.points")}</th>
              </tr>
            </thead>
            <tbody role="rowgroup">
              {r.arguments.map((turn) => (
                <tr role="row">
                  <th scope="row" role="rowheader">
                    {turn.label} <span class="note">{turn.display}</span>
                  </th>
                  {turn.argument ? (
                    <>
                      <td role="cell" data-label={t("deep.col.stance")}>{named(t, "stance", turn.argument.stance)}</td>
                      <td role="cell" data-label={t("deep.col.revision")}>{named(t, "revision", turn.argument.revision)}</td>
                      <td role="cell" data-label={t("deep.col.confidence")}>{pct(turn.argument.confidence)}</td>
                      <td role="cell" data-label={t("deep.col.points")}>{turn.argument.key_points.join(" · ")}</td>
                    </>
                  ) : (
                    <td role="cell" colSpan={4} class="note">
                      {t("deep.noArgument", { error: turn.error ?? "" })}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
          <p class={`moderator${r.stop ? " stopped" : ""}`} role="status">
            {t("deep.moderator")}{" "}
            {r.assessment
              ? t("deep.assessment", { agreement: pct(r.assessment.agreement_score), newPoints: pct(r.assessment.new_points_ratio) })
              : t("deep.noAssessment", { error: r.moderatorError ?? t("council.error") })}
            {" → "}
            <strong>{named(t, "deep.reason", r.reason)}</strong>
          </p>
        </section>
      ))}
      {s.synthesis && (
        <section class="synthesis" aria-label={t("deep.synthesis")}>
          <h3>
            {t("deep.synthesis")}
            {s.synthesisFallback && <span class="note">{t("deep.synthesisFallback")}</span>}
          </h3>
          <div dangerouslySetInnerHTML={{ __html: markdown.render(s.synthesis) }} />
        </section>
      )}
    </section>
  );
}

const VERDICT_CLASS = { PASS: "pass", WARN: "warn", FAIL: "fail" } as const;

/**
 * /council: the verdict table (one row per judge and its perspective; round 1, and
 * round 2 with --debate), the consensus with its counts and any note, then the report.
 */
function CouncilView({ s, ended, usage }: { s: CouncilState; ended: boolean; usage?: ArenaState["usage"] }) {
  const t = useT();
  const rounds = s.debate ? [1, 2] : [1];
  return (
    <section class="arena panel council" aria-label={t("council.label", { claim: s.claim })}>
      <header class="arena-head">
        <h2>
          <span class="mode">{t("council.title")}</span> {s.title ?? s.claim}
        </h2>
        {s.debate && (
          <p class="note">
            --debate{s.branch ? t("council.round2", { branch: t(s.branch === "agreed" ? "council.agreed" : "council.disagreed") }) : ""}
          </p>
        )}
      </header>
      {/* Explicit roles: on a phone the cells are stacked blocks, and the roles keep it a table for assistive technology. */}
      <table class="verdicts" role="table">
        <thead role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader">{t("council.judge")}</th>
            {rounds.map((r) => (
              <th scope="col" role="columnheader">{t("deep.round", { n: r })}</th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {s.judges.map((j) => (
            <tr role="row" data-participant={j.key}>
              <th scope="row" role="rowheader">
                {j.display} <span class="note">{named(t, "perspective", j.perspective)}</span>
                {usage && costOf(t, usage, j.display) && <span class="note cost">{t("usage.card", { cost: costOf(t, usage, j.display)! })}</span>}
              </th>
              {rounds.map((r) => {
                const v = s.verdicts[r]?.[j.key];
                const label = t("deep.round", { n: r });
                if (!v) return <td role="cell" class="note" data-label={label}>{s.round >= r && !s.result && !ended ? "…" : "—"}</td>;
                if (!v.verdict)
                  return (
                    <td role="cell" class="note" data-label={label}>
                      {t(v.status === "timeout" ? "council.timeout" : "council.error")}: {v.error}
                    </td>
                  );
                return (
                  <td role="cell" data-label={label}>
                    <span class={`badge verdict ${VERDICT_CLASS[v.verdict.verdict]}`}>{v.verdict.verdict}</span> <span class="note">{named(t, "confidence", v.verdict.confidence)}</span>
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
        <div class="winner" role="status">
          {t("council.consensus")} <span class={`badge verdict ${VERDICT_CLASS[s.result.consensus]}`}>{s.result.consensus}</span> — PASS {s.result.counts.PASS} · WARN {s.result.counts.WARN} · FAIL {s.result.counts.FAIL}
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
