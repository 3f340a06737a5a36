import type { DebaterTurn, DeepOutput, ModeratorAssessment, StopReason } from "../../state/deep.js";
import type { ClientEvent } from "../../state/events.js";
import { FORMATS } from "../../state/formats.js";
import { named, percent as pct } from "../../state/messages/index.js";
import { AnswerNotes } from "../answer-notes.js";
import { AnswerText, colorOf, CostFooter, markdown } from "../arena.js";
import { useT } from "../i18n.js";
import type { FormatView, StoredRun } from "./format-view.js";
import { panelView, type PanelViewProps } from "./panel-view.js";
import { DEEP_PANEL, type DeepState } from "./deep-state.js";
import { answered, ending, ev, firstAnswers, namesOf, standIn, type Answer, type Failure, type Panel } from "./replay.js";

/** A /deep result as the history stores it (`history/formats/deep.ts`). */
export interface StoredDeep extends Panel {
  minRounds?: number;
  maxRounds?: number;
  labelMap?: Record<string, string>;
  stage1: Answer[];
  stage1Failed?: Failure[];
  rounds: {
    round: number;
    assessment: ModeratorAssessment | null;
    moderatorError?: string;
    stop: boolean;
    reason: StopReason;
    /** Each debater's turn, as `deep-round-complete` sent it but for its name (the panel has it). */
    arguments: Omit<DebaterTurn, "display" | "usage">[];
  }[];
  output?: DeepOutput;
  synthesis?: string;
  synthesisError?: string;
}

/** The events of a stored /deep run; undefined for one without an answer. */
function replayDeep({ id, result, question, title }: StoredRun): ClientEvent[] | undefined {
  const r = result as StoredDeep;
  if (!answered(r.stage1, r.stage1Failed)) return undefined;
  const names = namesOf(r, [...r.stage1, ...(r.stage1Failed ?? []), ...r.rounds.flatMap((round) => round.arguments)]);
  const maxRounds = r.maxRounds ?? Math.max(1, ...r.rounds.map((x) => x.round));
  const events = [
    ev("deep-start", {
      messageId: id,
      mode: "deep",
      question,
      participants: names.participants,
      minRounds: r.minRounds ?? 1,
      maxRounds,
      simulated: r.simulated ?? false,
    }),
    ...firstAnswers("stage1-complete", "deep", names, r.stage1, r.stage1Failed),
  ];
  for (const round of r.rounds) {
    const args = round.arguments.map((a) => ({ ...a, display: names.who(a.modelKey, a.model).display }));
    const debaters = Object.fromEntries(args.map((a) => [a.label, names.who(a.modelKey, a.model)]));
    events.push(ev("deep-round-start", { round: round.round, debaters }));
    const { assessment, moderatorError, stop, reason } = round;
    events.push(ev("deep-round-complete", { round: round.round, arguments: args, assessment, ...(moderatorError ? { moderatorError } : {}), stop, reason }));
  }
  if (r.output) events.push(ev("deep-output", { data: r.output }));
  if (r.synthesis) events.push(ev("deep-synthesis-complete", { data: { synthesis: r.synthesis, ...standIn(r.synthesisError) } }));
  return ending(events, Boolean(r.synthesis), title);
}

/**
 * /deep: the first answers, then each round as a table of the debaters' stances,
 * revisions, confidence and key points with the moderator's numbers and the computed decision,
 * then the synthesis as markdown.
 */
function DeepView({ s, ended, usage }: PanelViewProps<DeepState>) {
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
                {a?.status === "error" || !a?.text ? (
                  <p class="answer">{a?.status === "error" ? t("card.error", { error: a.error ?? t("card.unknownError") }) : "…"}</p>
                ) : (
                  <AnswerText text={a.text} sources={a.sources} />
                )}
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
                <th scope="col" role="columnheader">
                  {t("deep.col.debater")}
                </th>
                <th scope="col" role="columnheader">
                  {t("deep.col.stance")}
                </th>
                <th scope="col" role="columnheader">
                  {t("deep.col.revision")}
                </th>
                <th scope="col" role="columnheader">
                  {t("deep.col.confidence")}
                </th>
                <th scope="col" role="columnheader">
                  {t("deep.col.points")}
                </th>
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
                      <td role="cell" data-label={t("deep.col.stance")}>
                        {named(t, "stance", turn.argument.stance)}
                      </td>
                      <td role="cell" data-label={t("deep.col.revision")}>
                        {named(t, "revision", turn.argument.revision)}
                      </td>
                      <td role="cell" data-label={t("deep.col.confidence")}>
                        {pct(turn.argument.confidence)}
                      </td>
                      <td role="cell" data-label={t("deep.col.points")}>
                        {turn.argument.key_points.join(" · ")}
                      </td>
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
        <section class="synthesis" aria-label={t("deep.synthesis")} data-result>
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

/** /deep: the models answer, then argue in rounds a moderator ends, and one writes the synthesis. */
export const DEEP_VIEW = {
  label: FORMATS.deep.command,
  adminGroup: "deep",
  spoken: false,
  hintOptions: null,
  replay: replayDeep,
  ...panelView(DEEP_PANEL, (s) => s.participants, DeepView),
} satisfies FormatView;
