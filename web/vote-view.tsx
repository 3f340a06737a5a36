import { colorOf, markdown } from "./arena.js";
import { displayOfLabel, type VoteState } from "./vote-state.js";

const votes = (n: number) => `${n} ${n === 1 ? "röst" : "röster"}`;

const STAGES: { id: VoteState["stage"]; label: string }[] = [
  { id: "collect", label: "1. Svar" },
  { id: "vote", label: "2. Röstning" },
  { id: "tiebreak", label: "Utslagsröst" },
  { id: "winner", label: "Vinnare" },
];

/**
 * /vote (seed 001 §E): the models' answers as cards (streaming, then with response time), the
 * vote bars per label with each voter's reasoning expandable and the models revealed, the
 * chairman's tiebreak as a callout, and the winner's unmodified answer with its badge.
 */
export function VoteView({ v }: { v: VoteState }) {
  const round = v.round;
  const labelOfKey = (key: string) => Object.entries(round?.labelToModel ?? {}).find(([, m]) => m === v.participants.find((p) => p.key === key)?.model)?.[0];
  const maxVotes = Math.max(1, ...Object.values(round?.tallies ?? {}));
  const stageIndex = STAGES.findIndex((s) => s.id === (v.stage === "complete" ? "winner" : v.stage));
  return (
    <section class="arena vote" aria-label={`Omröstning: ${v.question}`}>
      <header class="arena-head">
        <h2>
          <span class="mode">Omröstning</span> {v.title ?? v.question}
        </h2>
        <ol class="stages" aria-label="Steg">
          {STAGES.filter((s) => s.id !== "tiebreak" || v.tiedLabels).map((s) => (
            <li class={STAGES.indexOf(s) <= stageIndex ? "reached" : ""} aria-current={s.id === v.stage ? "step" : undefined}>
              {s.label}
            </li>
          ))}
        </ol>
      </header>

      {v.winner && (
        <div class="winner" role="status">
          <span aria-hidden="true">👑</span> Vinnare: <strong>{v.winner.winnerDisplay}</strong> — {v.winner.voteCount} av {v.winner.totalVotes} röster
          {v.winner.tiebroken && <span class="note"> (avgjort av ordföranden)</span>}
          <div class="synthesis" dangerouslySetInnerHTML={{ __html: markdown.render(v.winner.winnerResponse) }} />
        </div>
      )}

      <div class="cards side-by-side">
        {v.participants.map((p) => {
          const a = v.answers[p.key];
          const failed = a?.status === "error";
          const label = labelOfKey(p.key);
          const won = v.winner && v.winner.winnerLabel === label;
          return (
            <article class={`card${a?.status === "speaking" ? " speaking" : ""}${failed ? " failed" : ""}${won ? " won" : ""}`} style={{ "--accent": colorOf(p.key) }} data-participant={p.key}>
              <header>
                <span class="dot" aria-hidden="true" />
                <h3>{p.display}</h3>
                {label && <span class="badge">{label} · {votes(round?.tallies[label] ?? 0)}</span>}
                {failed && <span class="badge error">misslyckades</span>}
              </header>
              <details open={!v.winner}>
                <summary>{failed ? "Fel" : a?.status === "ok" ? `Svar · ${((a.latencyMs ?? 0) / 1000).toFixed(1)} s` : "Svarar…"}</summary>
                <p class="answer">{failed ? `Fel: ${a.error ?? "okänt fel"}` : a?.text || "…"}</p>
              </details>
            </article>
          );
        })}
      </div>

      {round && (
        <section class="votes" aria-label="Röstning">
          <h3>Röster</h3>
          <ul class="bars">
            {Object.keys(round.labelToModel).map((label) => (
              <li data-votes-for={label}>
                <span class="name">
                  {label} <span class="note">{displayOfLabel(v, label)}</span>
                </span>
                <span class="track">
                  <span class="fill" style={{ width: `${((round.tallies[label] ?? 0) / maxVotes) * 100}%` }} />
                </span>
                <span class="count">{round.tallies[label] ?? 0}</span>
              </li>
            ))}
          </ul>
          <p class="note">
            {round.validVoteCount} giltiga röster{round.invalidVoteCount ? ` · ${round.invalidVoteCount} ogiltiga` : ""}
            {round.anonymityFlagged ? ` · ${round.anonymityFlagged} röst(er) nämner en modell eller leverantör` : ""}
          </p>
          <ul class="ballots">
            {round.votes.map((b) => (
              <li>
                <details>
                  <summary>
                    <strong>{b.display}</strong> → {b.votedFor ? `${b.votedFor} (${displayOfLabel(v, b.votedFor) ?? "finns inte"})` : b.error ? `fel: ${b.error}` : "ogiltig röst"}
                    {b.anonymityBreach.length > 0 && <span class="badge"> nämner {b.anonymityBreach.join(", ")}</span>}
                  </summary>
                  <p class="answer">{b.voteText}</p>
                </details>
              </li>
            ))}
          </ul>
        </section>
      )}

      {v.tiedLabels && (
        <aside class="tiebreak" role="note">
          <strong>Oavgjort</strong> mellan {v.tiedLabels.join(", ")}.{" "}
          {v.tiebreaker
            ? `Ordföranden (${v.chairman.display}) valde ${v.tiebreaker.votedFor} (${displayOfLabel(v, v.tiebreaker.votedFor)})${v.tiebreaker.fallback ? " — svaret gick inte att tolka två gånger, så första oavgjorda i bokstavsordning vann" : ""}.`
            : `Ordföranden (${v.chairman.display}) avgör…`}
          {v.tiebreaker?.voteText && <p class="answer">{v.tiebreaker.voteText}</p>}
        </aside>
      )}
    </section>
  );
}
