import { ROUND_TYPES } from "../state/formats.js";
import MarkdownIt from "markdown-it";
import { useContext, useEffect, useMemo, useState } from "preact/hooks";
import { LangContext, useT } from "./i18n.js";
import { seconds, usageBrief, type Lang } from "../state/messages/index.js";
import type { ArenaState, Card } from "./arena-state.js";
import { progress } from "./debate-progress.js";
import { PersonInputPanel } from "./person-input.js";
import type { PersonInput } from "../state/person.js";
import type { Source } from "../state/answer.js";
import { AnswerNotes } from "./answer-notes.js";
import { sourceMarkers, type CitationEnv } from "./citations.js";
import { Icon } from "./icons.js";

/** The participants' colours, by key without `call_`. */
const COLORS: Record<string, string> = {
  // Light enough to read on the dark theme, dark enough on the light one.
  grok: "#6b7280",
  claude: "#d4a574",
  gpt: "#10a37f",
  gemini: "#4285f4",
  deepseek: "#0066ff",
  perplexity: "#20b2aa",
  qwen: "#7c3aed",
  oneseek: "#6366f1",
};

/** Model output is rendered as markdown with raw HTML escaped, never injected; `[n]` links to source n when given sources (see citations.ts). */
export const markdown = new MarkdownIt({ html: false, linkify: true }).use(sourceMarkers);

/**
 * A model's answer in a card, rendered as markdown (lists, bold, headings), clipped to four lines
 * when asked; with `sources`, its `[n]` markers link to them.
 */
export function AnswerText({ text, clipped = false, sources }: { text: string; clipped?: boolean; sources?: Source[] }) {
  const env: CitationEnv = { sources };
  return <div class={`answer md${clipped ? " clipped" : ""}`} dangerouslySetInnerHTML={{ __html: markdown.render(text, env) }} />;
}

export const colorOf = (key: string) => COLORS[key.replace(/^call_/, "")] ?? "#64748b";

/**
 * The live debate arena, driven only by the stream's events. With `send`, a debate the reader
 * joined asks them for their turn or vote when it waits for them.
 */
export function Arena({ s, voiceSpeaker, send }: { s: ArenaState; voiceSpeaker?: string; send?: (input: PersonInput) => Promise<void> }) {
  const t = useT();
  const lang = useContext(LangContext);
  const [tab, setTab] = useState<number | null>(null);
  /** What the person has written for a round's turn, kept when the seat is skipped before it was sent. */
  const [drafts, setDrafts] = useState<Record<number, string>>({});
  // The tab follows the debate until the reader picks one; the vote's tab shows the last round's answers.
  const selected = tab ?? Math.min(Math.max(s.round, 1), 4);
  const shownRound = Math.min(selected, 3);
  const pct = progress(s);
  return (
    <section class="arena" aria-label={t("arena.label", { topic: s.topic })}>
      <header class="arena-head">
        <h2>
          {s.voice ? (
            <span class="mode" title={t("arena.voiceDebate")}>
              <Icon name="mic" /> {t("arena.voiceDebate")}
            </span>
          ) : (
            <span class="mode">{t("arena.debate")}</span>
          )}{" "}
          {s.topic}
        </h2>
        {s.simulated && <p class="note simulated">{t("arena.simulated")}</p>}
      </header>
      <nav class="tabs" role="tablist" aria-label={t("arena.rounds")}>
        {[1, 2, 3, 4].map((r) => {
          const done = s.roundsDone.includes(r);
          // A run that has ended (stopped, or failed) has no round in progress: the one it was in stopped.
          const active = s.round === r && !done && !s.done;
          const stopped = s.round === r && !done && s.done;
          return (
            <button
              role="tab"
              aria-selected={selected === r}
              class={`tab${active ? " active" : ""}${done ? " done" : ""}${stopped ? " stopped" : ""}`}
              onClick={() => setTab(r)}
              data-round={r}
            >
              {done ? <Icon name="check" /> : active ? <span class="spinner" aria-hidden="true" /> : <Icon name={stopped ? "stop" : "circle"} />}{" "}
              {t("arena.round", { n: r, type: t(`round.${ROUND_TYPES[r - 1]}`) })}
              {stopped && <span class="visually-hidden"> ({t("arena.roundStopped")})</span>}
            </button>
          );
        })}
      </nav>
      <div class="progress" role="progressbar" aria-label={t("arena.progress")} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
        <div class="bar" style={{ width: `${pct}%` }} />
      </div>
      <div class="cards">
        {s.participants.map((p) => (
          <ParticipantCard
            card={s.cards[p.key]}
            round={shownRound}
            speaking={s.speaking.includes(p.display)}
            heard={voiceSpeaker === p.display}
            cost={s.usage && costOf(t, s.usage, p.display, lang)}
            person={p.key === s.person}
            waiting={p.key === s.person && s.awaiting !== undefined && !s.done}
            unsent={p.key === s.person ? drafts[shownRound] : undefined}
            silent={s.done && shownRound <= s.round}
          />
        ))}
      </div>
      {send && s.awaiting && !s.done && (
        <PersonInputPanel
          key={`${s.awaiting.kind}:${s.awaiting.round}`}
          awaiting={s.awaiting}
          send={send}
          text={drafts[s.awaiting.round] ?? ""}
          setText={(text) => setDrafts((all) => ({ ...all, [s.awaiting!.round]: text }))}
        />
      )}
      {personStillVotes(s)
        ? s.round >= 4 && (
            <p class="note votes-hidden" data-votes={s.votes.length}>
              {t("person.votesHidden")}
            </p>
          )
        : (s.votes.length > 0 || s.results) && <Votes s={s} />}
      {(s.results || s.synthesis) && (
        <div class="outcome" data-result>
          {s.results && <WinnerBanner s={s} />}
          {s.synthesis && <div class="synthesis" dangerouslySetInnerHTML={{ __html: markdown.render(s.synthesis) }} />}
        </div>
      )}
    </section>
  );
}

/** Whether the reader joined the debate and has yet to vote: the others' votes stay hidden until they have. */
function personStillVotes(s: ArenaState): boolean {
  const seat = s.participants.find((p) => p.key === s.person);
  return seat !== undefined && !s.done && !s.results && !s.votes.some((v) => v.voter === seat.display);
}

/**
 * One participant: its answer in the shown round, expanded while it speaks (`person`: the
 * reader's own seat, `waiting` for them; `unsent`: what they wrote for a turn that was skipped;
 * `silent`: the run ended with the shown round reached, so a card without words in it never spoke).
 */
function ParticipantCard({
  card,
  round,
  speaking,
  heard,
  cost,
  person = false,
  waiting = false,
  unsent,
  silent = false,
}: {
  card: Card;
  round: number;
  speaking: boolean;
  heard: boolean;
  cost?: string;
  person?: boolean;
  waiting?: boolean;
  unsent?: string;
  silent?: boolean;
}) {
  const t = useT();
  const answer = card.rounds[round];
  const [manual, setManual] = useState<boolean | null>(null);
  // A manual toggle lasts until the speaker changes.
  useEffect(() => setManual(null), [speaking]);
  const expanded = manual ?? speaking;
  const skipped = answer?.skipped;
  const failed = answer?.status === "error" && !skipped;
  // The run ended before this participant said a word in the shown round (a turn begun but empty counts as none).
  const neverSpoke = silent && !skipped && !failed && !answer?.text;
  return (
    <article
      class={`card${speaking || waiting ? " speaking" : ""}${failed ? " failed" : ""}${heard ? " heard" : ""}${person ? " person" : ""}`}
      style={{ "--accent": colorOf(card.key) }}
      data-participant={card.key}
      aria-busy={speaking}
    >
      <header>
        <span class="dot" aria-hidden="true" />
        <h3>{card.display}</h3>
        {person && <span class="badge person">{t("person.you")}</span>}
        {waiting && <span class="badge">{t("person.waiting")}</span>}
        {speaking && <span class="badge">{t("card.writing")}</span>}
        {heard && <span class="badge voice">{t("card.heard")}</span>}
        {failed && <span class="badge error">{t("card.failed")}</span>}
        <button
          class="toggle"
          aria-expanded={expanded}
          aria-label={t(expanded ? "card.collapse" : "card.expand", { name: card.display })}
          onClick={() => setManual(!expanded)}
        >
          {expanded ? "−" : "+"}
        </button>
      </header>
      {neverSpoke && <p class="answer note silent">{t("card.silent")}</p>}
      {skipped && <p class="answer note">{t(`person.skipped.${skipped}`)}</p>}
      {skipped && unsent?.trim() && <p class="answer note unsent">{t("person.unsent", { text: unsent.trim() })}</p>}
      {answer &&
        !skipped &&
        !neverSpoke &&
        (failed || !answer.text ? (
          <p class={`answer${expanded ? "" : " clipped"}`}>{failed ? <FailedText text={answer.text} error={answer.error} /> : "…"}</p>
        ) : (
          <AnswerText text={answer.text} clipped={!expanded} sources={answer.sources} />
        ))}
      {answer && !skipped && <AnswerNotes answer={answer} brief={!expanded} />}
      {(answer?.status === "ok" || cost) && (
        <footer>
          {answer?.status === "ok" && t("card.stats", { words: answer.wordCount ?? 0, seconds: seconds(answer.latencyMs ?? 0) })}
          {cost && <span class="cost">{t("usage.card", { cost })}</span>}
        </footer>
      )}
    </article>
  );
}

/** Says that the run's participants were simulated (no model was called), above a deliberation format's view. */
export function SimulatedNote() {
  const t = useT();
  return <p class="note simulated">{t("arena.simulated")}</p>;
}

/** A card's footer with what its participant's calls in the whole run cost (none before the run's usage is in). */
export function CostFooter({ usage, display }: { usage?: ArenaState["usage"]; display: string }) {
  const t = useT();
  const cost = usage && costOf(t, usage, display, useContext(LangContext));
  return cost ? (
    <footer>
      <span class="cost">{t("usage.card", { cost })}</span>
    </footer>
  ) : null;
}

/** What a participant's calls in the whole run cost, for its card (its tokens grouped as `lang` writes them); undefined when it made none. */
export function costOf(t: ReturnType<typeof useT>, usage: NonNullable<ArenaState["usage"]>, display: string, lang?: Lang): string | undefined {
  const u = usage.by_participant[display];
  return u && usageBrief(t, u, usage.simulated, lang);
}

/** Round 4: bars per participant, each voter's motivation and bullets. */
function Votes({ s }: { s: ArenaState }) {
  const rank = (voter: string) => s.participants.findIndex((p) => p.display === voter);
  const t = useT();
  const counts = s.results?.vote_counts ?? s.votes.reduce<Record<string, number>>((acc, v) => ({ ...acc, [v.voted_for]: (acc[v.voted_for] ?? 0) + 1 }), {});
  const max = Math.max(1, ...Object.values(counts));
  const rows = useMemo(
    () => s.participants.map((p) => ({ name: p.display, key: p.key, n: counts[p.display] ?? 0 })).sort((a, b) => b.n - a.n),
    [s.participants, counts],
  );
  return (
    <section class="votes" aria-label={t("round.voting")}>
      <h3>{t("votes.title")}</h3>
      <ul class="bars">
        {rows.map((r) => (
          <li data-votes-for={r.name} style={{ "--accent": colorOf(r.key) }}>
            <span class="name">{r.name}</span>
            <span class="track">
              <span class="fill" style={{ width: `${(r.n / max) * 100}%` }} />
            </span>
            <span class="count">{r.n}</span>
          </li>
        ))}
      </ul>
      {s.results && (
        <p class="note">
          {t("votes.summary", { valid: s.results.total_votes, self: s.results.self_votes_filtered })}
          {s.results.invalid_votes ? t("votes.invalid", { n: s.results.invalid_votes }) : ""}
        </p>
      )}
      <ul class="ballots">
        {/* In the roster's order, not the order the parallel votes happened to land in: the same live and reopened. */}
        {[...s.votes]
          .sort((a, b) => rank(a.voter) - rank(b.voter))
          .map((v) => (
            <li>
              <strong>{v.voter}</strong> → {v.voted_for}
              {v.motivation && `: ${v.motivation}`}
              <ul>
                {v.bullets.map((b) => (
                  <li>{b}</li>
                ))}
              </ul>
            </li>
          ))}
      </ul>
    </section>
  );
}

function WinnerBanner({ s }: { s: ArenaState }) {
  const t = useT();
  const r = s.results!;
  if (r.winner === null) {
    return (
      <div class="winner none" role="status">
        {t("winner.none")}
      </div>
    );
  }
  const tiebreak = r.tiebreaker === "word_count" || r.tiebreaker === "alphabetical" ? t(`tiebreak.${r.tiebreaker}`) : t("tiebreak.tie");
  return (
    <div class="winner" role="status">
      <Icon name="crown" /> {t("winner.label")} <strong>{r.winner}</strong>{" "}
      {(r.vote_counts[r.winner] ?? 0) === 1 ? t("winner.vote1") : t("winner.votes", { votes: r.vote_counts[r.winner] ?? 0 })}
      {r.tiebreaker_used && <span class="note"> ({tiebreak})</span>}
    </div>
  );
}

/** A failed answer: what it said before it failed, then why it failed. */
export function FailedText({ text, error }: { text?: string; error?: string }) {
  const t = useT();
  return (
    <>
      {text && <span class="partial">{text} … </span>}
      <span class="failure">{t("card.error", { error: error ?? t("card.unknownError") })}</span>
    </>
  );
}
