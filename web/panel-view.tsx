import { colorOf, markdown } from "./arena.js";
import type { CouncilState, DeepState, PanelState } from "./panel-state.js";

const REASONS: Record<string, string> = {
  converged: "stopp: samstämmighet ≥ 0,8 och nya poäng ≤ 0,15",
  all_no_change: "stopp: ingen debattör ändrade sig",
  max_rounds: "stopp: sista rundan",
  no_arguments: "stopp: inga giltiga argument",
  continue: "nästa runda",
};

/** /deep or /council, whichever the run is. */
export function PanelView({ s }: { s: PanelState }) {
  return s.kind === "deep" ? <DeepView s={s} /> : <CouncilView s={s} />;
}

/**
 * /deep: the first answers, then each round as a table of the debaters' stances,
 * revisions, confidence and key points with the moderator's numbers and the computed decision,
 * then the synthesis as markdown.
 */
function DeepView({ s }: { s: DeepState }) {
  const pct = (v: number) => `${Math.round(v * 100)} %`;
  return (
    <section class="arena panel deep" aria-label={`Djupdebatt: ${s.question}`}>
      <header class="arena-head">
        <h2>
          <span class="mode">Djupdebatt</span> {s.title ?? s.question}
        </h2>
        <p class="note">
          {s.minRounds}–{s.maxRounds} rundor{s.arguing ? ` · runda ${s.arguing}` : ""}
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
                {label && <span class="badge">Debattör {label}</span>}
              </header>
              <details open={s.rounds.length === 0}>
                <summary>{a?.status === "error" ? "Fel" : "Första svaret"}</summary>
                <p class="answer">{a?.status === "error" ? `Fel: ${a.error}` : a?.text || "…"}</p>
              </details>
            </article>
          );
        })}
      </div>
      {s.rounds.map((r) => (
        <section class="round" aria-label={`Runda ${r.round}`}>
          <h3>Runda {r.round}</h3>
          <table class="stances">
            <thead>
              <tr>
                <th scope="col">Debattör</th>
                <th scope="col">Hållning</th>
                <th scope="col">Ändring</th>
                <th scope="col">Säkerhet</th>
                <th scope="col">Huvudpoänger</th>
              </tr>
            </thead>
            <tbody>
              {r.arguments.map((t) => (
                <tr>
                  <th scope="row">
                    {t.label} <span class="note">{t.display}</span>
                  </th>
                  {t.argument ? (
                    <>
                      <td>{t.argument.stance}</td>
                      <td>{t.argument.revision}</td>
                      <td>{pct(t.argument.confidence)}</td>
                      <td>{t.argument.key_points.join(" · ")}</td>
                    </>
                  ) : (
                    <td colSpan={4} class="note">Inget giltigt argument: {t.error}</td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
          <p class={`moderator${r.stop ? " stopped" : ""}`} role="status">
            Moderator:{" "}
            {r.assessment ? `samstämmighet ${pct(r.assessment.agreement_score)} · nya poäng ${pct(r.assessment.new_points_ratio)}` : `ingen bedömning (${r.moderatorError ?? "fel"})`}
            {" → "}
            <strong>{REASONS[r.reason] ?? r.reason}</strong>
          </p>
        </section>
      ))}
      {s.synthesis && (
        <section class="synthesis" aria-label="Syntes">
          <h3>Syntes{s.synthesisFallback && <span class="note"> (modellen svarade inte: debattens konsensus)</span>}</h3>
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
function CouncilView({ s }: { s: CouncilState }) {
  const rounds = s.debate ? [1, 2] : [1];
  return (
    <section class="arena panel council" aria-label={`Råd: ${s.claim}`}>
      <header class="arena-head">
        <h2>
          <span class="mode">Råd</span> {s.title ?? s.claim}
        </h2>
        {s.debate && <p class="note">--debate{s.branch ? ` · runda 2: ${s.branch === "agreed" ? "eniga i runda 1" : "oeniga i runda 1"}` : ""}</p>}
      </header>
      <table class="verdicts">
        <thead>
          <tr>
            <th scope="col">Domare</th>
            {rounds.map((r) => (
              <th scope="col">Runda {r}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {s.judges.map((j) => (
            <tr data-participant={j.key}>
              <th scope="row">
                {j.display} <span class="note">{j.perspective}</span>
              </th>
              {rounds.map((r) => {
                const v = s.verdicts[r]?.[j.key];
                if (!v) return <td class="note">{s.round >= r && !s.result ? "…" : "—"}</td>;
                if (!v.verdict) return <td class="note">{v.status === "timeout" ? "tidsgräns" : "fel"}: {v.error}</td>;
                return (
                  <td>
                    <span class={`badge verdict ${VERDICT_CLASS[v.verdict.verdict]}`}>{v.verdict.verdict}</span> <span class="note">{v.verdict.confidence}</span>
                    {v.unjustifiedChange && <span class="badge"> ändrade utan belägg</span>}
                    <div>{v.verdict.key_insight}</div>
                    {v.verdict.findings.length > 0 && (
                      <details>
                        <summary>{v.verdict.findings.length} fynd</summary>
                        <ul>
                          {v.verdict.findings.map((f) => (
                            <li>
                              <strong>{f.severity}</strong>: {f.description}
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
          Konsensus: <span class={`badge verdict ${VERDICT_CLASS[s.result.consensus]}`}>{s.result.consensus}</span> — PASS {s.result.counts.PASS} · WARN {s.result.counts.WARN} · FAIL {s.result.counts.FAIL}
          {s.result.unanimous && <span class="note"> (enhälligt)</span>}
          {s.result.note && <p class="note">{s.result.note}</p>}
        </div>
      )}
      {s.report && (
        <section class="synthesis" aria-label="Rådets rapport">
          <div dangerouslySetInnerHTML={{ __html: markdown.render(s.report) }} />
        </section>
      )}
    </section>
  );
}
