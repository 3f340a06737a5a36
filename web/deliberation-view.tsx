import { diffWords } from "diff";
import { useState } from "preact/hooks";
import type { RevisionResponse } from "../state/revise.js";
import { colorOf, markdown } from "./arena.js";
import { displayOfLabel, type DeliberationState } from "./deliberation-state.js";

const votes = (n: number) => `${n} ${n === 1 ? "röst" : "röster"}`;

const STAGES: Record<DeliberationState["mode"], { id: DeliberationState["stage"]; label: string }[]> = {
  vote: [
    { id: "collect", label: "1. Svar" },
    { id: "vote", label: "2. Röstning" },
    { id: "tiebreak", label: "Utslagsröst" },
    { id: "winner", label: "Vinnare" },
  ],
  revise: [
    { id: "collect", label: "1. Svar" },
    { id: "revision", label: "2. Revidering" },
    { id: "vote", label: "3. Röstning" },
    { id: "winner", label: "Vinnare" },
  ],
};

/** The revision decisions' badges: green REVISED, blue MERGED, grey STOOD. */
const DECISIONS: Record<string, { label: string; cls: string }> = {
  REVISE: { label: "REVIDERADE", cls: "revised" },
  MERGE: { label: "SLOG IHOP", cls: "merged" },
  STAND: { label: "STOD FAST", cls: "stood" },
};

/**
 * /vote and /revise: the models' answers as cards, /revise's
 * revisions (decision badge, reasoning, word-count change and a diff view), the vote bars per
 * label with the models revealed and each vote expandable, /vote's tiebreak callout, and the
 * winner's answer with its badge.
 */
export function DeliberationView({ s }: { s: DeliberationState }) {
  const stages = STAGES[s.mode];
  const stageIndex = stages.findIndex((x) => x.id === (s.stage === "complete" ? "winner" : s.stage));
  const mode = s.mode === "vote" ? "Omröstning" : "Revidering";
  return (
    <section class={`arena deliberation ${s.mode}`} aria-label={`${mode}: ${s.question}`}>
      <header class="arena-head">
        <h2>
          <span class="mode">{mode}</span> {s.title ?? s.question}
        </h2>
        <ol class="stages" aria-label="Steg">
          {stages.filter((x) => x.id !== "tiebreak" || s.tiedLabels).map((x) => (
            <li class={stages.indexOf(x) <= stageIndex ? "reached" : ""} aria-current={x.id === s.stage ? "step" : undefined}>
              {x.label}
            </li>
          ))}
        </ol>
      </header>

      {s.winner && <WinnerCard s={s} />}

      <h3>{s.mode === "revise" ? "Runda 1: svar" : "Svar"}</h3>
      <div class="cards side-by-side">
        {s.participants.map((p) => {
          const a = s.answers[p.key];
          const failed = a?.status === "error";
          // /revise votes on the revised answers: their labels and votes go on the revision cards.
          const label = s.mode === "vote" ? labelOf(s, p.key) : undefined;
          return (
            <article class={`card${a?.status === "speaking" ? " speaking" : ""}${failed ? " failed" : ""}${s.winner && s.winner.winnerLabel === label ? " won" : ""}`} style={{ "--accent": colorOf(p.key) }} data-participant={p.key}>
              <header>
                <span class="dot" aria-hidden="true" />
                <h3>{p.display}</h3>
                {label && <span class="badge">{label} · {votes(s.vote?.tallies[label] ?? 0)}</span>}
                {failed && <span class="badge error">misslyckades</span>}
              </header>
              <details open={!s.revisions && !s.winner}>
                <summary>{failed ? "Fel" : a?.status === "ok" ? `Svar · ${((a.latencyMs ?? 0) / 1000).toFixed(1)} s` : "Svarar…"}</summary>
                <p class="answer">{failed ? `Fel: ${a.error ?? "okänt fel"}` : a?.text || "…"}</p>
              </details>
            </article>
          );
        })}
      </div>

      {s.mode === "revise" && s.stage !== "collect" && <Revisions s={s} />}
      {s.vote && <Votes s={s} />}

      {s.tiedLabels && s.chairman && (
        <aside class="tiebreak" role="note">
          <strong>Oavgjort</strong> mellan {s.tiedLabels.join(", ")}.{" "}
          {s.tiebreaker
            ? `Ordföranden (${s.chairman.display}) valde ${s.tiebreaker.votedFor} (${displayOfLabel(s, s.tiebreaker.votedFor)})${s.tiebreaker.fallback ? " — svaret gick inte att tolka två gånger, så första oavgjorda i bokstavsordning vann" : ""}.`
            : `Ordföranden (${s.chairman.display}) avgör…`}
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
  const w = s.winner!;
  const decision = w.winnerDecision !== undefined ? DECISIONS[w.winnerDecision ?? ""] : undefined;
  return (
    <div class="winner" role="status">
      <span aria-hidden="true">👑</span> Vinnare: <strong>{w.winnerDisplay}</strong> — {w.voteCount} av {votes(w.totalVotes)}
      {decision && <span class={`badge decision ${decision.cls}`}>{decision.label}</span>}
      {w.tiebroken && <span class="note"> ({w.tiebreakerMethod === "alphabetical" ? "oavgjort: första etiketten i bokstavsordning" : "avgjort av ordföranden"})</span>}
      <div class="synthesis" dangerouslySetInnerHTML={{ __html: markdown.render(w.winnerResponse) }} />
    </div>
  );
}

/** /revise round 2: the summary bar and one card per model with its decision and the change it made. */
function Revisions({ s }: { s: DeliberationState }) {
  const sum = s.revisionSummary;
  return (
    <section class="revisions" aria-label="Revidering">
      <h3>Runda 2: revidering{s.antiAnchoring && <span class="note"> · anti-ankring</span>}</h3>
      {sum && (
        <p class="summary" role="status">
          {sum.revised} reviderade, {sum.stood} stod fast, {sum.merged} slog ihop{sum.parseFailed ? `, ${sum.parseFailed} utan tolkbart beslut` : ""}
        </p>
      )}
      <div class="cards side-by-side">
        {s.participants.map((p) => {
          const r = s.revisions?.find((x) => x.modelKey === p.key);
          if (!r) return s.revising[p.key] ? <RevisingCard display={p.display} keyName={p.key} text={s.revising[p.key]} /> : null;
          return <RevisionCard r={r} label={labelOf(s, p.key)} votes={s.vote?.tallies} won={s.winner !== undefined && s.winner.winnerLabel === labelOf(s, p.key)} />;
        })}
      </div>
    </section>
  );
}

function RevisingCard({ display, keyName, text }: { display: string; keyName: string; text: string }) {
  return (
    <article class="card speaking" style={{ "--accent": colorOf(keyName) }}>
      <header>
        <span class="dot" aria-hidden="true" />
        <h3>{display}</h3>
      </header>
      <p class="answer clipped">{text}</p>
    </article>
  );
}

function RevisionCard({ r, label, votes: tallies, won }: { r: RevisionResponse; label?: string; votes?: Record<string, number>; won: boolean }) {
  const [diff, setDiff] = useState(false);
  const decision = DECISIONS[r.decision ?? ""];
  const change = r.revisedWordCount - r.originalWordCount;
  return (
    <article class={`card revision${won ? " won" : ""}`} style={{ "--accent": colorOf(r.modelKey) }} data-participant={r.modelKey}>
      <header>
        <span class="dot" aria-hidden="true" />
        <h3>{r.display}</h3>
        {label && <span class="badge">{label} · {votes(tallies?.[label] ?? 0)}</span>}
        <span class={`badge decision ${decision?.cls ?? "unparsed"}`}>{decision?.label ?? "OTOLKAT"}</span>
        <span class="words">{change >= 0 ? "+" : "−"}{Math.abs(change)} ord</span>
      </header>
      {r.reasoning && <p class="reasoning">{r.reasoning}</p>}
      {r.error && <p class="note">Fel: {r.error} — originalsvaret gäller</p>}
      {r.restatement && (
        <details>
          <summary>Egen hållning först</summary>
          <p class="answer">{r.restatement}</p>
        </details>
      )}
      <button type="button" class="toggle-diff" aria-pressed={diff} onClick={() => setDiff(!diff)}>
        {diff ? "Visa reviderat svar" : "Visa ändringar"}
      </button>
      {diff ? (
        <p class="answer diff">
          {diffWords(r.originalResponse, r.revisedResponse).map((part) =>
            part.added ? <ins>{part.value}</ins> : part.removed ? <del>{part.value}</del> : <span>{part.value}</span>,
          )}
        </p>
      ) : (
        <p class="answer clipped">{r.revisedResponse}</p>
      )}
    </article>
  );
}

/** The counted vote: bars per label (the model behind each revealed) and each vote's reasoning. */
function Votes({ s }: { s: DeliberationState }) {
  const v = s.vote!;
  const max = Math.max(1, ...Object.values(v.tallies));
  return (
    <section class="votes" aria-label="Röstning">
      <h3>{s.mode === "revise" ? "Runda 3: röster på de reviderade svaren" : "Röster"}</h3>
      <ul class="bars">
        {Object.keys(v.labelToModel).map((label) => (
          <li data-votes-for={label}>
            <span class="name">
              {label} <span class="note">{displayOfLabel(s, label)}</span>
            </span>
            <span class="track">
              <span class="fill" style={{ width: `${((v.tallies[label] ?? 0) / max) * 100}%` }} />
            </span>
            <span class="count">{v.tallies[label] ?? 0}</span>
          </li>
        ))}
      </ul>
      <p class="note">
        {v.validVoteCount} giltiga röster{v.invalidVoteCount ? ` · ${v.invalidVoteCount} ogiltiga` : ""}
        {v.anonymityFlagged ? ` · ${v.anonymityFlagged} röst(er) nämner en modell eller leverantör` : ""}
      </p>
      <ul class="ballots">
        {v.votes.map((b) => (
          <li>
            <details>
              <summary>
                <strong>{b.display}</strong> → {b.votedFor ? `${b.votedFor} (${displayOfLabel(s, b.votedFor) ?? "finns inte"})` : b.error ? `fel: ${b.error}` : "ogiltig röst"}
                {b.anonymityBreach.length > 0 && <span class="badge"> nämner {b.anonymityBreach.join(", ")}</span>}
              </summary>
              <p class="answer">{b.voteText}</p>
            </details>
          </li>
        ))}
      </ul>
    </section>
  );
}
