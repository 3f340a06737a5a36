import type { AnswerNotes } from "../../state/answer.js";
import { notesFields } from "../../state/answer.js";
import type { ClientEvent } from "../../state/events.js";
import { FORMATS } from "../../state/formats.js";
import { seconds } from "../../state/messages/index.js";
import { AnswerNotes as Notes } from "../answer-notes.js";
import { AnswerText, colorOf, costOf, FailedText } from "../arena.js";
import type { ArenaState, CompareState } from "../arena-state.js";
import { useContext } from "preact/hooks";
import { LangContext, useT } from "../i18n.js";
import type { FormatView, StoredRun } from "./format-view.js";
import { ev, stopped, type Panel } from "./replay.js";

/** A /compare result as the history stores it. */
export interface StoredCompare extends Panel {
  answers: ({ key: string; display: string; text: string; status: "ok" | "error"; word_count: number; responseTimeMs: number; error?: string } & AnswerNotes)[];
}

/** The events of a stored /compare run; undefined for one without an answer. */
function replayCompare({ result, question }: StoredRun): ClientEvent[] | undefined {
  const r = result as StoredCompare;
  if (r.answers.length === 0) return undefined;
  const participants = r.answers.map((a) => ({ key: a.key, display: a.display, model: "" }));
  const events = [ev("compare-start", { question, participants, simulated: r.simulated ?? false })];
  for (const a of r.answers) {
    const who = { model: a.display, model_key: a.key };
    events.push(ev("compare-answer-start", who));
    if (a.text) events.push(ev("compare-answer-delta", { ...who, delta: a.text }));
    if (stopped(a)) continue;
    events.push(
      ev("compare-answer-end", {
        ...who,
        word_count: a.word_count,
        latency_ms: a.responseTimeMs,
        status: a.status,
        ...(a.error ? { error: a.error } : {}),
        ...notesFields(a),
      }),
    );
  }
  if (!r.answers.some(stopped))
    events.push(
      ev("compare-complete", { answered: r.answers.filter((a) => a.status === "ok").length, failed: r.answers.filter((a) => a.status === "error").length }),
    );
  return events;
}

/** /compare: every model's answer side by side, streaming in parallel (`ended`: see DeliberationView). */
function CompareView({ c, simulated, ended, usage }: { c: CompareState; simulated?: boolean; ended: boolean; usage?: ArenaState["usage"] }) {
  const t = useT();
  const lang = useContext(LangContext);
  return (
    <section class="arena compare" aria-label={t("compare.label", { question: c.question })}>
      <header class="arena-head">
        <h2>
          <span class="mode">{t("compare.title")}</span> {c.question}
        </h2>
        {simulated && <p class="note simulated">{t("arena.simulated")}</p>}
      </header>
      <div class="cards side-by-side" data-result={ended || undefined}>
        {c.participants.map((p) => {
          const a = c.answers[p.key];
          const failed = a?.status === "error";
          const cost = usage && costOf(t, usage, p.display, lang);
          return (
            <article
              class={`card${a?.status === "speaking" && !ended ? " speaking" : ""}${failed ? " failed" : ""}`}
              style={{ "--accent": colorOf(p.key) }}
              data-participant={p.key}
              aria-busy={a?.status === "speaking" && !ended}
            >
              <header>
                <span class="dot" aria-hidden="true" />
                <h3>{p.display}</h3>
                {failed && <span class="badge error">{t("card.failed")}</span>}
              </header>
              {failed || !a?.text ? (
                <p class="answer">{failed ? <FailedText text={a.text} error={a.error} /> : "…"}</p>
              ) : (
                <AnswerText text={a.text} sources={a.sources} />
              )}
              <Notes answer={a} />
              {(a?.status === "ok" || cost) && (
                <footer>
                  {a?.status === "ok" && t("card.stats", { words: a.wordCount ?? 0, seconds: seconds(a.latencyMs ?? 0) })}
                  {cost && <span class="cost">{t("usage.card", { cost })}</span>}
                </footer>
              )}
            </article>
          );
        })}
      </div>
      {c.complete && (
        <p class="note" role="status">
          {t("compare.complete")}
        </p>
      )}
    </section>
  );
}

/** /compare: every model answers the same question, side by side. */
export const COMPARE_VIEW = {
  label: FORMATS.compare.command,
  adminGroup: "compare",
  spoken: false,
  hintOptions: null,
  replay: replayCompare,
  panel: null,
  participants: (a) => a.compare?.participants ?? [],
  View: ({ a }) => (a.compare ? <CompareView c={a.compare} simulated={a.simulated} ended={a.done} usage={a.usage} /> : null),
} satisfies FormatView;
