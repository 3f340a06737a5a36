import { diffWords } from "diff";
import { useState } from "preact/hooks";
import type { ClientEvent } from "../../state/events.js";
import { FORMATS } from "../../state/formats.js";
import { labelName } from "../../state/messages/index.js";
import type { RevisionResponse, RevisionSummary } from "../../state/revise.js";
import { AnswerText, colorOf, SimulatedNote } from "../arena.js";
import type { DeliberationState } from "../deliberation-state.js";
import { useT } from "../i18n.js";
import type { FormatView, StoredRun } from "./format-view.js";
import { answered, ending, ev, firstAnswers, namesOf, type Answer, type Failure, type Panel } from "./replay.js";
import { counted, winnerDeclared, type StoredWinner, type Tally } from "./voting.js";
import { DECISIONS, DeliberationView, labelOf, votes, type VotingSteps } from "./voting-view.js";

/** A /revise result as the history stores it (`history/formats/revise.ts`). */
export interface StoredRevise extends Panel {
  antiAnchoring?: boolean;
  round1: Answer[];
  round1Failed?: Failure[];
  round1LabelMap?: Record<string, string>;
  /** Each revision, its author's name left out (the panel names them). */
  revisions: Omit<RevisionResponse, "display" | "usage">[];
  revisionSummary?: RevisionSummary;
  votes?: Tally & { revisedLabelToModel: Record<string, string> };
  winner?: StoredWinner & { winnerDecision: string | null; tiebreakerMethod?: "alphabetical" };
}

/** The events of a stored /revise run; undefined for one without an answer. */
function replayRevise({ id, result, question, title }: StoredRun): ClientEvent[] | undefined {
  const r = result as StoredRevise;
  if (!answered(r.round1, r.round1Failed)) return undefined;
  const names = namesOf(r, [...r.round1, ...(r.round1Failed ?? [])]);
  const events = [
    // Stored (and started) as "debate", its original name.
    ev("debate-start", {
      messageId: id,
      mode: "debate",
      question,
      participants: names.participants,
      antiAnchoring: r.antiAnchoring ?? false,
      simulated: r.simulated ?? false,
    }),
    ...firstAnswers("round1-complete", "revise", names, r.round1, r.round1Failed),
  ];
  if (r.revisions.length > 0) {
    const revisions = r.revisions.map((v) => ({ ...v, display: names.who(v.modelKey, v.model).display }));
    events.push(ev("revision-start", { data: { labelMap: r.round1LabelMap ?? {} } }));
    // A run stopped while the models revised: each revision as far as it had streamed, as the page showed it.
    if (r.revisions.every((v) => v.error === "cancelled")) {
      for (const v of revisions)
        if (v.revisionText) events.push(ev("answer-delta", { mode: "revise", stage: "revision", ...names.who(v.modelKey, v.model), delta: v.revisionText }));
    } else if (r.revisionSummary) events.push(ev("revision-complete", { data: { revisions, summary: r.revisionSummary } }));
  }
  if (r.votes) {
    events.push(ev("vote-start", { data: { revisedLabelMap: r.votes.revisedLabelToModel } }));
    events.push(ev("vote-complete", { data: { ...counted(names, r.votes), revisedLabelToModel: r.votes.revisedLabelToModel } }));
  }
  if (r.winner) events.push(winnerDeclared(r.winner, names));
  return ending(events, Boolean(r.winner), title);
}

/** /revise round 2: the summary bar and one card per model with its decision and the change it made. */
function Revisions({ s, ended }: { s: DeliberationState; ended: boolean }) {
  const t = useT();
  const sum = s.revisionSummary;
  return (
    <section class="revisions" aria-label={t("dv.mode.revise")}>
      <h3>
        {t("dv.round2")}
        {s.antiAnchoring && <span class="note">{t("dv.antiAnchoring")}</span>}
      </h3>
      {sum && (
        <p class="summary" role="status">
          {t("dv.revisionSummary", { revised: sum.revised, stood: sum.stood, merged: sum.merged })}
          {sum.parseFailed ? t("dv.unparsedCount", { n: sum.parseFailed }) : ""}
        </p>
      )}
      <div class="cards side-by-side">
        {s.participants.map((p) => {
          const r = s.revisions?.find((x) => x.modelKey === p.key);
          if (!r) return s.revising[p.key] ? <RevisingCard display={p.display} keyName={p.key} text={s.revising[p.key]} ended={ended} /> : null;
          return (
            <RevisionCard r={r} label={labelOf(s, p.key)} votes={s.vote?.tallies} won={s.winner !== undefined && s.winner.winnerLabel === labelOf(s, p.key)} />
          );
        })}
      </div>
    </section>
  );
}

function RevisingCard({ display, keyName, text, ended }: { display: string; keyName: string; text: string; ended: boolean }) {
  return (
    <article class={ended ? "card" : "card speaking"} style={{ "--accent": colorOf(keyName) }}>
      <header>
        <span class="dot" aria-hidden="true" />
        <h3>{display}</h3>
      </header>
      <AnswerText text={text} clipped />
    </article>
  );
}

function RevisionCard({ r, label, votes: tallies, won }: { r: RevisionResponse; label?: string; votes?: Record<string, number>; won: boolean }) {
  const t = useT();
  const [diff, setDiff] = useState(false);
  const decision = DECISIONS[r.decision ?? ""];
  const change = r.revisedWordCount - r.originalWordCount;
  return (
    <article class={`card revision${won ? " won" : ""}`} style={{ "--accent": colorOf(r.modelKey) }} data-participant={r.modelKey}>
      <header>
        <span class="dot" aria-hidden="true" />
        <h3>{r.display}</h3>
        {label && (
          <span class="badge">
            {labelName(t, label)} · {votes(t, tallies?.[label] ?? 0)}
          </span>
        )}
        <span class={`badge decision ${decision?.cls ?? "unparsed"}`}>{t(decision?.key ?? "decision.unparsed")}</span>
        <span class="words">{t("dv.words", { sign: change >= 0 ? "+" : "−", n: Math.abs(change) })}</span>
      </header>
      {r.reasoning && <p class="reasoning">{r.reasoning}</p>}
      {r.error && <p class="note">{t("dv.revisionError", { error: r.error })}</p>}
      {r.restatement && (
        <details>
          <summary>{t("dv.restatement")}</summary>
          <p class="answer">{r.restatement}</p>
        </details>
      )}
      <button type="button" class="toggle-diff" aria-pressed={diff} onClick={() => setDiff(!diff)}>
        {diff ? t("dv.showRevised") : t("dv.showChanges")}
      </button>
      {diff ? (
        <p class="answer diff">
          {diffWords(r.originalResponse, r.revisedResponse).map((part) =>
            part.added ? <ins>{part.value}</ins> : part.removed ? <del>{part.value}</del> : <span>{part.value}</span>,
          )}
        </p>
      ) : (
        <AnswerText text={r.revisedResponse} clipped />
      )}
    </article>
  );
}

/** /revise's steps: the answers, the revisions (whose cards carry the vote's labels), the vote on the revised answers, the winner. */
const REVISE_STEPS: VotingSteps = {
  stages: [{ id: "collect", n: 1 }, { id: "revision", n: 2 }, { id: "vote", n: 3 }, { id: "winner" }],
  answersTitle: "dv.answersRevise",
  votesTitle: "dv.round3",
  labelsOnAnswers: false,
  afterAnswers: Revisions,
};

/** /revise: the models answer, read each other's answers, revise theirs, and vote on the revised answers. */
export const REVISE_VIEW = {
  label: FORMATS.revise.command,
  adminGroup: "revise",
  spoken: false,
  hintOptions: null,
  replay: replayRevise,
  panel: null,
  participants: (a) => a.deliberation?.participants ?? [],
  View: ({ a }) =>
    a.deliberation ? (
      <>
        {a.simulated && <SimulatedNote />}
        <DeliberationView s={a.deliberation} steps={REVISE_STEPS} ended={a.done} usage={a.usage} />
      </>
    ) : null,
} satisfies FormatView;
