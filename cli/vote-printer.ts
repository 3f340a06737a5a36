import type { ClientEvent } from "../graph/run.js";

/** Terminal styles the printers share. */
export interface Styles {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
}

/**
 * Prints /vote's events for people: the answers (each whole once stage 1 is in, since they
 * stream in parallel), the de-anonymised vote table, the tiebreak and the winner's answer.
 * Returns false for an event it does not handle.
 */
export function createVotePrinter(write: (s: string) => void, c: Styles) {
  let labelToDisplay: Record<string, string> = {};
  let displayOf: Record<string, string> = {};
  return (e: ClientEvent): boolean => {
    const d = e.data as Record<string, any>;
    switch (e.event) {
      case "vote-start":
        displayOf = Object.fromEntries([...d.participants, d.chairman].map((p: any) => [p.model, p.display]));
        write(`${c.bold(`Omröstning: ${d.question}`)}\n`);
        write(c.dim(`${d.participants.map((p: any) => p.display).join(", ")} · ordförande ${d.chairman.display}${d.simulated ? " — simulerade modeller (ingen OPENAI_API_KEY)" : ""}\n`));
        return true;
      case "stage1-start":
        write(`\n${c.yellow("━━ Steg 1: svar ━━")}\n`);
        return true;
      case "stage1-complete":
        for (const r of d.data) write(`\n${c.cyan(c.bold(`▶ ${r.display}`))} ${c.dim(`${(r.responseTimeMs / 1000).toFixed(1)} s`)}\n${r.response}\n`);
        for (const f of d.failed) write(c.red(`\n✗ ${f.display}: ${f.error}\n`));
        return true;
      case "vote-round-start":
        write(`\n${c.yellow("━━ Steg 2: omröstning (anonymt) ━━")}\n`);
        return true;
      case "vote-round-complete": {
        const round = d.data;
        labelToDisplay = Object.fromEntries(Object.entries(round.labelToModel as Record<string, string>).map(([l, m]) => [l, displayOf[m] ?? m]));
        for (const v of round.votes) {
          const choice = v.votedFor ? `${v.votedFor} (${labelToDisplay[v.votedFor] ?? "finns inte"})` : c.red(v.error ? `✗ ${v.error}` : "ogiltig röst");
          write(`  ${c.bold(v.display.padEnd(12))} → ${choice}${v.anonymityBreach.length ? c.yellow(` ⚠ nämner ${v.anonymityBreach.join(", ")}`) : ""}\n`);
        }
        write("\n");
        for (const [label, n] of Object.entries(round.tallies as Record<string, number>).sort(([, a], [, b]) => b - a)) {
          write(`  ${`${label} ${labelToDisplay[label]}`.padEnd(24)} ${"█".repeat(n)} ${n}\n`);
        }
        write(c.dim(`  ${round.validVoteCount} giltiga, ${round.invalidVoteCount} ogiltiga${round.isTie ? ` · oavgjort mellan ${round.tiedLabels.join(", ")}` : ""}\n`));
        return true;
      }
      case "tiebreaker-complete":
        write(`\n${c.yellow(`⚖ Ordföranden (${displayOf[d.data.model] ?? d.data.model}) väljer ${d.data.votedFor} (${labelToDisplay[d.data.votedFor]})`)}${d.data.fallback ? c.dim(" — svaret gick inte att tolka två gånger: första oavgjorda i bokstavsordning") : ""}\n`);
        return true;
      case "winner-declared": {
        const w = d.data;
        write(`\n${c.green(c.bold(`👑 Vinnare: ${w.winnerDisplay} (${w.winnerLabel}) — ${w.voteCount} av ${w.totalVotes} röster${w.tiebroken ? ", avgjort av ordföranden" : ""}`))}\n\n${w.winnerResponse}\n`);
        return true;
      }
      case "title-complete":
        write(c.dim(`\nTitel: ${d.data.title}\n`));
        return true;
      case "answer-delta":
      case "complete":
        return true;
      default:
        return false;
    }
  };
}
