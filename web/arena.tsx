import MarkdownIt from "markdown-it";
import { useEffect, useMemo, useState } from "preact/hooks";
import { progress, type ArenaState, type Card, type CompareState } from "./arena-state.js";

/** The participants' colours, by key without `call_`. */
const COLORS: Record<string, string> = {
  grok: "#1a1a2e",
  claude: "#d4a574",
  gpt: "#10a37f",
  gemini: "#4285f4",
  deepseek: "#0066ff",
  perplexity: "#20b2aa",
  qwen: "#7c3aed",
  oneseek: "#6366f1",
};
const ROUND_LABELS: Record<number, string> = { 1: "Introduktion", 2: "Argument", 3: "Fördjupning", 4: "Röstning" };
const TIEBREAK: Record<string, string> = { word_count: "oavgjort: flest ord avgjorde", alphabetical: "oavgjort: bokstavsordning avgjorde" };

/** Model output is rendered as markdown with raw HTML escaped, never injected. */
export const markdown = new MarkdownIt({ html: false, linkify: true });

export const colorOf = (key: string) => COLORS[key.replace(/^call_/, "")] ?? "#64748b";

/** The live debate arena, driven only by the stream's events. */
export function Arena({ s, voiceSpeaker }: { s: ArenaState; voiceSpeaker?: string }) {
  const [tab, setTab] = useState<number | null>(null);
  const shownRound = tab ?? Math.min(Math.max(s.round, 1), 3);
  const pct = progress(s);
  return (
    <section class="arena" aria-label={`Debatt: ${s.topic}`}>
      <header class="arena-head">
        <h2>
          {s.voice ? (
            <span class="mode" title="Röstdebatt">
              <span aria-hidden="true">🎙️</span> Röstdebatt
            </span>
          ) : (
            <span class="mode">Debatt</span>
          )}{" "}
          {s.topic}
        </h2>
        {s.simulated && <p class="note">Simulerade deltagare (ingen modellnyckel konfigurerad)</p>}
      </header>
      <nav class="tabs" role="tablist" aria-label="Rundor">
        {[1, 2, 3, 4].map((r) => {
          const done = s.roundsDone.includes(r);
          const active = s.round === r && !done;
          return (
            <button
              role="tab"
              aria-selected={shownRound === r}
              class={`tab${active ? " active" : ""}${done ? " done" : ""}`}
              onClick={() => setTab(r === 4 ? null : r)}
              data-round={r}
            >
              <span aria-hidden="true">{done ? "✓" : active ? <span class="spinner" /> : "○"}</span> Runda {r}: {ROUND_LABELS[r]}
            </button>
          );
        })}
      </nav>
      <div class="progress" role="progressbar" aria-label="Debattens förlopp" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
        <div class="bar" style={{ width: `${pct}%` }} />
      </div>
      <div class="cards">
        {s.participants.map((p) => (
          <ParticipantCard card={s.cards[p.key]} round={shownRound} speaking={s.speaking === p.display} heard={voiceSpeaker === p.display} />
        ))}
      </div>
      {(s.votes.length > 0 || s.results) && <Votes s={s} />}
      {s.results && <WinnerBanner s={s} />}
      {s.synthesis && <div class="synthesis" dangerouslySetInnerHTML={{ __html: markdown.render(s.synthesis) }} />}
    </section>
  );
}

/** One participant: its answer in the shown round, expanded while it speaks. */
function ParticipantCard({ card, round, speaking, heard }: { card: Card; round: number; speaking: boolean; heard: boolean }) {
  const answer = card.rounds[round];
  const [manual, setManual] = useState<boolean | null>(null);
  // A manual toggle lasts until the speaker changes.
  useEffect(() => setManual(null), [speaking]);
  const expanded = manual ?? speaking;
  const failed = answer?.status === "error";
  return (
    <article
      class={`card${speaking ? " speaking" : ""}${failed ? " failed" : ""}${heard ? " heard" : ""}`}
      style={{ "--accent": colorOf(card.key) }}
      data-participant={card.key}
      aria-busy={speaking}
    >
      <header>
        <span class="dot" aria-hidden="true" />
        <h3>{card.display}</h3>
        {speaking && <span class="badge">skriver…</span>}
        {heard && <span class="badge voice">hörs nu</span>}
        {failed && <span class="badge error">misslyckades</span>}
        <button class="toggle" aria-expanded={expanded} aria-label={`${expanded ? "Fäll ihop" : "Visa"} ${card.display}`} onClick={() => setManual(!expanded)}>
          {expanded ? "−" : "+"}
        </button>
      </header>
      {answer && (
        <p class={`answer${expanded ? "" : " clipped"}`}>{failed ? `Fel: ${answer.error ?? "okänt fel"}` : answer.text || "…"}</p>
      )}
      {answer?.status === "ok" && (
        <footer>
          {answer.wordCount} ord · {((answer.latencyMs ?? 0) / 1000).toFixed(1)} s
        </footer>
      )}
    </article>
  );
}

/** Round 4: bars per participant, each voter's motivation and bullets. */
function Votes({ s }: { s: ArenaState }) {
  const counts = s.results?.vote_counts ?? s.votes.reduce<Record<string, number>>((acc, v) => ({ ...acc, [v.voted_for]: (acc[v.voted_for] ?? 0) + 1 }), {});
  const max = Math.max(1, ...Object.values(counts));
  const rows = useMemo(() => s.participants.map((p) => ({ name: p.display, n: counts[p.display] ?? 0 })).sort((a, b) => b.n - a.n), [s.participants, counts]);
  return (
    <section class="votes" aria-label="Röstning">
      <h3>Röster</h3>
      <ul class="bars">
        {rows.map((r) => (
          <li data-votes-for={r.name}>
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
          {s.results.total_votes} giltiga röster · {s.results.self_votes_filtered} självröster bortfiltrerade
          {s.results.invalid_votes ? ` · ${s.results.invalid_votes} ogiltiga` : ""}
        </p>
      )}
      <ul class="ballots">
        {s.votes.map((v) => (
          <li>
            <strong>{v.voter}</strong> → {v.voted_for}: {v.motivation}
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
  const r = s.results!;
  return (
    <div class="winner" role="status">
      <span aria-hidden="true">👑</span> Vinnare: <strong>{r.winner}</strong> med {r.vote_counts[r.winner] ?? 0} röster
      {r.tiebreaker_used && <span class="note"> ({TIEBREAK[r.tiebreaker] ?? "oavgjort"})</span>}
    </div>
  );
}

/** /compare: every model's answer side by side, streaming in parallel. */
export function CompareView({ c }: { c: CompareState }) {
  return (
    <section class="arena compare" aria-label={`Jämförelse: ${c.question}`}>
      <header class="arena-head">
        <h2>
          <span class="mode">Jämförelse</span> {c.question}
        </h2>
      </header>
      <div class="cards side-by-side">
        {c.participants.map((p) => {
          const a = c.answers[p.key];
          const failed = a?.status === "error";
          return (
            <article class={`card${a?.status === "speaking" ? " speaking" : ""}${failed ? " failed" : ""}`} style={{ "--accent": colorOf(p.key) }} data-participant={p.key}>
              <header>
                <span class="dot" aria-hidden="true" />
                <h3>{p.display}</h3>
                {failed && <span class="badge error">misslyckades</span>}
              </header>
              <p class="answer">{failed ? `Fel: ${a.error ?? "okänt fel"}` : a?.text || "…"}</p>
              {a?.status === "ok" && (
                <footer>
                  {a.wordCount} ord · {((a.latencyMs ?? 0) / 1000).toFixed(1)} s
                </footer>
              )}
            </article>
          );
        })}
      </div>
      {c.complete && <p class="note" role="status">Alla svar har kommit in.</p>}
    </section>
  );
}
