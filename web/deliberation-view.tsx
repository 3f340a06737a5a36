import { diffWords } from "diff";
import { useState } from "preact/hooks";
import type { RevisionResponse } from "../state/revise.js";
import { AnswerText, colorOf, CostFooter, markdown } from "./arena.js";
import type { ArenaState } from "./arena-state.js";
import { displayOfLabel, type DeliberationState } from "./deliberation-state.js";
import { useT } from "./i18n.js";
import { AnswerNotes } from "./answer-notes.js";
import { labelName, seconds } from "../state/messages/index.js";

type T = ReturnType<typeof useT>;

/** "1 vote", "3 votes". */
const votes = (t: T, n: number) => (n === 1 ? t("dv.vote1") : t("dv.votes", { n }));

/** Each format's steps, numbered where they are rounds. */
const STAGES: Record<DeliberationState["mode"], { id: Exclude<DeliberationState["stage"], "complete">; n?: number }[]> = {
  vote: [{ id: "collect", n: 1 }, { id: "vote", n: 2 }, { id: "tiebreak" }, { id: "winner" }],
  revise: [{ id: "collect", n: 1 }, { id: "revision", n: 2 }, { id: "vote", n: 3 }, { id: "winner" }],
};

/** The revision decisions' badges: green REVISED, blue MERGED, grey STOOD. */
const DECISIONS: Record<string, { key: "decision.REVISE" | "decision.MERGE" | "decision.STAND"; cls: string }> = {
  REVISE: { key: "decision.REVISE", cls: "revised" },
  MERGE: { key: "decision.MERGE", cls: "merged" },
  STAND: { key: "decision.STAND", cls: "stood" },
};

/**
 * /vote and /revise: the models' answers as cards, /revise's
 * revisions (decision badge, reasoning, word-count change and a diff view), the vote bars per
 * label with the models revealed and each vote expandable, /vote's tiebreak callout, and the
 * winner's answer with its badge. `ended`: the stream has ended (`done`), so what a stopped or
 * failed run was writing is no longer shown as being written.
 */
export function DeliberationView({ s, ended, usage }: { s: DeliberationState; ended: boolean; usage?: ArenaState["usage"] }) {
  const t = useT();
  const stages = STAGES[s.mode];
  const stageIndex = stages.findIndex((x) => x.id === (s.stage === "complete" ? "winner" : s.stage));
  const mode = t(`dv.mode.${s.mode}`);
  return (
    <section class={`arena deliberation ${s.mode}`} aria-label={`${mode}: ${s.question}`}>
      <header class="arena-head">
        <h2>
          <span class="mode">{mode}</span> {s.title ?? s.question}
        </h2>
        <ol class="stages" aria-label={t("dv.steps")}>
          {stages.filter((x) => x.id !== "tiebreak" || s.tiedLabels).map((x) => (
            <li class={stages.indexOf(x) <= stageIndex ? "reached" : ""} aria-current={x.id === s.stage ? "step" : undefined}>
              {x.n ? `${x.n}. ` : ""}
              {t(`dv.stage.${x.id}`)}
            </li>
          ))}
        </ol>
      </header>

      {s.winner && <WinnerCard s={s} />}

      <h3>{s.mode === "revise" ? t("dv.answersRevise") : t("dv.answers")}</h3>
      <div class="cards side-by-side">
        {s.participants.map((p) => {
          const a = s.answers[p.key];
          const failed = a?.status === "error";
          // /revise votes on the revised answers: their labels and votes go on the revision cards.
          const label = s.mode === "vote" ? labelOf(s, p.key) : undefined;
          return (
            <article class={`card${a?.status === "speaking" && !ended ? " speaking" : ""}${failed ? " failed" : ""}${s.winner && s.winner.winnerLabel === label ? " won" : ""}`} style={{ "--accent": colorOf(p.key) }} data-participant={p.key}>
              <header>
                <span class="dot" aria-hidden="true" />
                <h3>{p.display}</h3>
                {label && (
                  <span class="badge">
                    {labelName(t, label)} · {votes(t, s.vote?.tallies[label] ?? 0)}
                  </span>
                )}
                {failed && <span class="badge error">{t("card.failed")}</span>}
              </header>
              <details open={!s.revisions && !s.winner}>
                <summary>{failed ? t("dv.error") : a?.status === "ok" ? t("dv.answerSummary", { seconds: seconds(a.latencyMs ?? 0) }) : ended ? t("dv.stopped") : t("dv.answering")}</summary>
                {failed || !a?.text ? <p class="answer">{failed ? t("card.error", { error: a.error ?? t("card.unknownError") }) : "…"}</p> : <AnswerText text={a.text} sources={a.sources} />}
              </details>
              <AnswerNotes answer={a} />
              <CostFooter usage={usage} display={p.display} />
            </article>
          );
        })}
      </div>

      {s.mode === "revise" && s.stage !== "collect" && <Revisions s={s} ended={ended} />}
      {s.vote && <Votes s={s} />}

      {s.tiedLabels && s.chairman && (
        <aside class="tiebreak" role="note">
          <strong>{t("dv.tie")}</strong> {t("dv.tieBetween", { labels: s.tiedLabels.map((l) => labelName(t, l)).join(", ") })}{" "}
          {s.tiebreaker
            ? t("dv.chairmanChose", {
                chairman: s.chairman.display,
                label: labelName(t, s.tiebreaker.votedFor ?? ""),
                display: displayOfLabel(s, s.tiebreaker.votedFor) ?? "",
                fallback: s.tiebreaker.fallback ? t("dv.chairmanFallback") : "",
              })
            : ended
              ? t("dv.stopped")
              : t("dv.chairmanDeciding", { chairman: s.chairman.display })}
          {s.tiebreaker?.voteText && <p class="answer">{s.tiebreaker.voteText}</p>}
        </aside>
      )}
    </section>
  );
}

/** The label of a participant's answer in the counted vote. */
function labelOf(s: DeliberationState, key: string): string | undefined {
  const model = s.participants.find((p) => p.key === key)?.model;
  return Object.entries(s.vote?.labelToModel ?? {}).find(([, m]) => m === model)?.[0];
}

function WinnerCard({ s }: { s: DeliberationState }) {
  const t = useT();
  const w = s.winner!;
  const decision = w.winnerDecision !== undefined ? DECISIONS[w.winnerDecision ?? ""] : undefined;
  return (
    <div class="winner" role="status">
      <span aria-hidden="true">👑</span> {t("winner.label")} <strong>{w.winnerDisplay}</strong> {t("dv.winnerOf", { count: w.voteCount, votes: votes(t, w.totalVotes) })}
      {decision && <span class={`badge decision ${decision.cls}`}>{t(decision.key)}</span>}
      {w.tiebroken && <span class="note"> ({w.tiebreakerMethod === "alphabetical" ? t("dv.tiebrokenAlpha") : t("dv.tiebrokenChair")})</span>}
      <div class="synthesis" dangerouslySetInnerHTML={{ __html: markdown.render(w.winnerResponse) }} />
    </div>
  );
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
          return <RevisionCard r={r} label={labelOf(s, p.key)} votes={s.vote?.tallies} won={s.winner !== undefined && s.winner.winnerLabel === labelOf(s, p.key)} />;
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

/** The counted vote: bars per label (the model behind each revealed) and each vote's reasoning. */
function Votes({ s }: { s: DeliberationState }) {
  const t = useT();
  const v = s.vote!;
  const max = Math.max(1, ...Object.values(v.tallies));
  return (
    <section class="votes" aria-label={t("round.voting")}>
      <h3>{s.mode === "revise" ? t("dv.round3") : t("votes.title")}</h3>
      <ul class="bars">
        {Object.keys(v.labelToModel).map((label) => (
          <li data-votes-for={label}>
            <span class="name">
              {labelName(t, label)} <span class="note">{displayOfLabel(s, label)}</span>
            </span>
            <span class="track">
              <span class="fill" style={{ width: `${((v.tallies[label] ?? 0) / max) * 100}%` }} />
            </span>
            <span class="count">{v.tallies[label] ?? 0}</span>
          </li>
        ))}
      </ul>
      <p class="note">
        {t("dv.validVotes", { n: v.validVoteCount })}
        {v.invalidVoteCount ? t("votes.invalid", { n: v.invalidVoteCount }) : ""}
        {v.anonymityFlagged ? t("dv.anonymity", { n: v.anonymityFlagged }) : ""}
      </p>
      <ul class="ballots">
        {v.votes.map((b) => (
          <li>
            <details>
              <summary>
                <strong>{b.display}</strong> →{" "}
                {b.votedFor ? `${labelName(t, b.votedFor)} (${displayOfLabel(s, b.votedFor) ?? t("dv.noSuchLabel")})` : b.error ? t("dv.voteError", { error: b.error }) : t("dv.invalidVote")}
                {b.anonymityBreach.length > 0 && <span class="badge">{t("dv.names", { names: b.anonymityBreach.join(", ") })}</span>}
              </summary>
              <p class="answer">{b.voteText}</p>
            </details>
          </li>
        ))}
      </ul>
    </section>
  );
}
