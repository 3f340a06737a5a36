import type { FunctionComponent } from "preact";
import { labelName, seconds, type MessageKey } from "../../state/messages/index.js";
import { AnswerNotes } from "../answer-notes.js";
import { Icon } from "../icons.js";
import { AnswerText, colorOf, CostFooter, markdown } from "../arena.js";
import type { ArenaState } from "../arena-state.js";
import { displayOfLabel, type DeliberationState } from "../deliberation-state.js";
import { useT } from "../i18n.js";

/**
 * The view /vote and /revise share: the models' answers as cards, the vote bars per label with
 * the models revealed and each vote expandable, /vote's tiebreak callout, and the winner's answer
 * with its badge. Where the two differ is each format's `VotingSteps` (its module's).
 */

type T = ReturnType<typeof useT>;

/** "1 vote", "3 votes". */
export const votes = (t: T, n: number) => (n === 1 ? t("dv.vote1") : t("dv.votes", { n }));

/** Where /vote's and /revise's views differ. */
export interface VotingSteps {
  /** The format's steps, numbered where they are rounds. */
  stages: { id: Exclude<DeliberationState["stage"], "complete">; n?: number }[];
  /** The heading of the first answers. */
  answersTitle: MessageKey;
  /** The heading of the counted vote. */
  votesTitle: MessageKey;
  /** Whether the first answers' cards carry the vote's labels and counts (/revise votes on the revised answers, whose cards carry them). */
  labelsOnAnswers: boolean;
  /** What follows the answers once the first step is over (/revise's revisions); null when nothing does. */
  afterAnswers: FunctionComponent<{ s: DeliberationState; ended: boolean }> | null;
}

/** The revision decisions' badges: green REVISED, blue MERGED, grey STOOD. */
export const DECISIONS: Record<string, { key: "decision.REVISE" | "decision.MERGE" | "decision.STAND"; cls: string }> = {
  REVISE: { key: "decision.REVISE", cls: "revised" },
  MERGE: { key: "decision.MERGE", cls: "merged" },
  STAND: { key: "decision.STAND", cls: "stood" },
};

/**
 * A /vote or /revise run, its steps drawn as `steps` says. `ended`: the stream has ended (`done`),
 * so what a stopped or failed run was writing is no longer shown as being written.
 */
export function DeliberationView({ s, steps, ended, usage }: { s: DeliberationState; steps: VotingSteps; ended: boolean; usage?: ArenaState["usage"] }) {
  const t = useT();
  const { stages, afterAnswers: After } = steps;
  const stageIndex = stages.findIndex((x) => x.id === (s.stage === "complete" ? "winner" : s.stage));
  const mode = t(`dv.mode.${s.mode}`);
  return (
    <section class={`arena deliberation ${s.mode}`} aria-label={`${mode}: ${s.question}`}>
      <header class="arena-head">
        <h2>
          <span class="mode">{mode}</span> {s.title ?? s.question}
        </h2>
        <ol class="stages" aria-label={t("dv.steps")}>
          {stages
            .filter((x) => x.id !== "tiebreak" || s.tiedLabels)
            .map((x) => (
              <li class={stages.indexOf(x) <= stageIndex ? "reached" : ""} aria-current={x.id === s.stage ? "step" : undefined}>
                {x.n ? `${x.n}. ` : ""}
                {t(`dv.stage.${x.id}`)}
              </li>
            ))}
        </ol>
      </header>

      {s.winner && <WinnerCard s={s} />}

      <h3>{t(steps.answersTitle)}</h3>
      <div class="cards side-by-side">
        {s.participants.map((p) => {
          const a = s.answers[p.key];
          const failed = a?.status === "error";
          const label = steps.labelsOnAnswers ? labelOf(s, p.key) : undefined;
          return (
            <article
              class={`card${a?.status === "speaking" && !ended ? " speaking" : ""}${failed ? " failed" : ""}${s.winner && s.winner.winnerLabel === label ? " won" : ""}`}
              style={{ "--accent": colorOf(p.key) }}
              data-participant={p.key}
              aria-busy={a?.status === "speaking" && !ended}
            >
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
                <summary>
                  {failed
                    ? t("dv.error")
                    : a?.status === "ok"
                      ? t("dv.answerSummary", { seconds: seconds(a.latencyMs ?? 0) })
                      : ended
                        ? t("dv.stopped")
                        : t("dv.answering")}
                </summary>
                {failed || !a?.text ? (
                  <p class="answer">{failed ? t("card.error", { error: a.error ?? t("card.unknownError") }) : "…"}</p>
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

      {After && s.stage !== "collect" && <After s={s} ended={ended} />}
      {s.vote && <Votes s={s} title={steps.votesTitle} />}

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
export function labelOf(s: DeliberationState, key: string): string | undefined {
  const model = s.participants.find((p) => p.key === key)?.model;
  return Object.entries(s.vote?.labelToModel ?? {}).find(([, m]) => m === model)?.[0];
}

function WinnerCard({ s }: { s: DeliberationState }) {
  const t = useT();
  const w = s.winner!;
  const decision = w.winnerDecision !== undefined ? DECISIONS[w.winnerDecision ?? ""] : undefined;
  return (
    <div class="winner" role="status" data-result>
      <Icon name="crown" /> {t("winner.label")} <strong>{w.winnerDisplay}</strong> {t("dv.winnerOf", { count: w.voteCount, votes: votes(t, w.totalVotes) })}
      {decision && <span class={`badge decision ${decision.cls}`}>{t(decision.key)}</span>}
      {w.tiebroken && <span class="note"> ({w.tiebreakerMethod === "alphabetical" ? t("dv.tiebrokenAlpha") : t("dv.tiebrokenChair")})</span>}
      <div class="synthesis" dangerouslySetInnerHTML={{ __html: markdown.render(w.winnerResponse) }} />
    </div>
  );
}

/** The counted vote: bars per label (the model behind each revealed) and each vote's reasoning. */
function Votes({ s, title }: { s: DeliberationState; title: MessageKey }) {
  const t = useT();
  const v = s.vote!;
  const max = Math.max(1, ...Object.values(v.tallies));
  return (
    <section class="votes" aria-label={t("round.voting")}>
      <h3>{t(title)}</h3>
      <ul class="bars">
        {Object.keys(v.labelToModel).map((label) => (
          // The bar in the colour of the model behind the label, as its card has.
          <li data-votes-for={label} style={{ "--accent": colorOf(s.participants.find((p) => p.model === v.labelToModel[label])?.key ?? "") }}>
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
                {b.votedFor
                  ? `${labelName(t, b.votedFor)} (${displayOfLabel(s, b.votedFor) ?? t("dv.noSuchLabel")})`
                  : b.error
                    ? t("dv.voteError", { error: b.error })
                    : t("dv.invalidVote")}
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
