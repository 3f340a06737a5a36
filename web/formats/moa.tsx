import type { ClientEvent } from "../../state/events.js";
import { FORMATS } from "../../state/formats.js";
import type { MoaFinal } from "../../state/moa.js";
import { AnswerNotes } from "../answer-notes.js";
import { AnswerText, colorOf, CostFooter, markdown } from "../arena.js";
import { useT } from "../i18n.js";
import type { FormatView, StoredRun } from "./format-view.js";
import { MOA_PANEL, type MoaState } from "./moa-state.js";
import { panelView, type PanelViewProps } from "./panel-view.js";
import { answered, ending, ev, firstAnswers, namesOf, stopped, type Answer, type Failure, type Panel, type Who } from "./replay.js";

/** A /moa result as the history stores it (`history/formats/moa.ts`). */
export interface StoredMoa extends Panel {
  aggregator?: Who;
  /** How many layers the run had, the aggregator's included. */
  layerCount?: number;
  stage1: Answer[];
  stage1Failed?: Failure[];
  /** The answers of the layers after the first. */
  layers?: { layer: number; answers: Answer[]; failed: Failure[] }[];
  final?: MoaFinal;
}

/** The events of a stored /moa run; undefined for one without an answer. */
function replayMoa({ id, result, question, title }: StoredRun): ClientEvent[] | undefined {
  const r = result as StoredMoa;
  if (!answered(r.stage1, r.stage1Failed)) return undefined;
  const later = r.layers ?? [];
  const names = namesOf(r, [...r.stage1, ...(r.stage1Failed ?? []), ...later.flatMap((l) => [...l.answers, ...l.failed])]);
  const aggregator = r.aggregator ?? { model: "", display: "Aggregator", modelKey: "aggregator" };
  const count = r.layerCount ?? later.length + 2;
  const events = [
    ev("moa-start", { messageId: id, mode: "moa", question, participants: names.participants, aggregator, layers: count, simulated: r.simulated ?? false }),
    ...firstAnswers("stage1-complete", "moa", names, r.stage1, r.stage1Failed),
  ];
  // Each later layer read the answers of the last layer before it that had any.
  let read = { from: 1, references: r.stage1.length };
  for (const l of later) {
    events.push(ev("moa-layer-start", { layer: l.layer, ...read }));
    if (l.answers.length > 0) read = { from: l.layer, references: l.answers.length };
    // A run stopped while the layer answered: each proposal as far as it had streamed, as the page showed it.
    if (l.answers.length === 0 && l.failed.every(stopped)) {
      for (const f of l.failed)
        if (f.response) events.push(ev("answer-delta", { mode: "moa", stage: "proposal", ...names.who(f.modelKey, f.model), delta: f.response }));
      continue;
    }
    events.push(
      ev("moa-layer-complete", {
        layer: l.layer,
        data: l.answers.map((a) => ({ ...a, display: names.who(a.modelKey, a.model).display })),
        failed: l.failed.map((f) => ({ ...names.who(f.modelKey, f.model), error: f.error })),
      }),
    );
  }
  if (r.final)
    events.push(ev("moa-aggregate-start", { ...aggregator, from: r.final.layer, references: r.final.references }), ev("moa-final", { data: r.final }));
  return ending(events, Boolean(r.final), title);
}

/** One layer's answers side by side. */
function Layer({ s, layer, usage }: { s: MoaState; layer: number; usage: PanelViewProps<MoaState>["usage"] }) {
  const t = useT();
  const answers = s.answers[layer] ?? {};
  return (
    <div class="cards side-by-side">
      {s.participants.map((p) => {
        const a = answers[p.key];
        return (
          <article class={`card${a?.status === "error" ? " failed" : ""}`} style={{ "--accent": colorOf(p.key) }} data-participant={p.key} data-layer={layer}>
            <header>
              <span class="dot" aria-hidden="true" />
              <h3>{p.display}</h3>
            </header>
            {a?.status === "error" || !a?.text ? (
              <p class="answer">{a?.status === "error" ? t("card.error", { error: a.error ?? t("card.unknownError") }) : "…"}</p>
            ) : (
              <AnswerText text={a.text} sources={a.sources} />
            )}
            <AnswerNotes answer={a} />
            {layer === 1 && <CostFooter usage={usage} display={p.display} />}
          </article>
        );
      })}
    </div>
  );
}

/**
 * /moa: each layer's answers side by side, the newest layer open and the earlier ones folded
 * (each later layer read the one before it), then the aggregator's answer as markdown.
 */
function MoaView({ s, usage }: PanelViewProps<MoaState>) {
  const t = useT();
  const shown = Object.keys(s.answers)
    .map(Number)
    .sort((a, b) => a - b);
  const newest = shown.at(-1);
  return (
    <section class="arena panel moa" aria-label={t("moa.label", { question: s.question })}>
      <header class="arena-head">
        <h2>
          <span class="mode">{t("moa.title")}</span> {s.title ?? s.question}
        </h2>
        <p class="note">{t("moa.aggregatedByNote", { name: s.aggregator.display, layers: s.layers })}</p>
      </header>
      {shown.map((layer) =>
        layer === newest && !s.final ? (
          <section class="round" aria-label={t("moa.layer", { layer })}>
            <h3>{t("moa.layer", { layer })}</h3>
            <Layer s={s} layer={layer} usage={usage} />
          </section>
        ) : (
          <details class="round">
            <summary>{t("moa.layer", { layer })}</summary>
            <Layer s={s} layer={layer} usage={usage} />
          </details>
        ),
      )}
      {s.reading && !s.final && (
        <p class="note" role="status">
          {t("moa.aggregating", { name: s.aggregator.display, count: s.reading.references, layer: s.reading.from })}
        </p>
      )}
      {s.final && (
        <section class="synthesis" aria-label={t("moa.final")} data-result>
          <h3>
            {t("moa.final")}
            {s.fallback && <span class="note">{t("moa.fallbackNote", { display: s.fallback.display, error: s.fallback.error })}</span>}
          </h3>
          <div dangerouslySetInnerHTML={{ __html: markdown.render(s.final) }} />
        </section>
      )}
    </section>
  );
}

/** /moa: layers of proposers, each reading the layer before's answers, and an aggregator's final answer. */
export const MOA_VIEW = {
  label: FORMATS.moa.command,
  adminGroup: "moa",
  spoken: false,
  hintOptions: null,
  replay: replayMoa,
  ...panelView(MOA_PANEL, (s) => s.participants, MoaView),
} satisfies FormatView;
