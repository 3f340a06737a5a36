import type { ClientEvent, ClientPayload } from "../state/events.js";
import type { VoteRoundResult } from "../state/vote.js";

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
 * Prints the deliberation formats' events for people (/vote, /revise, /deep, /council): the answers (each whole once its
 * stage is in, since they stream in parallel), the revisions with their decisions and word-count
 * change, the de-anonymised vote table, the tiebreak and the winner's answer, /deep's rounds with
 * the moderator's numbers, /council's verdicts and consensus, and the final texts as they stream.
 * Returns false for an
 * event it does not handle.
 */
export function createDeliberationPrinter(write: (s: string) => void, c: Styles) {
  let labelToDisplay: Record<string, string> = {};
  let displayOf: Record<string, string> = {};
  const answers = (d: ClientPayload<"stage1-complete">) => {
    for (const r of d.data) write(`\n${c.cyan(c.bold(`▶ ${r.display}`))} ${c.dim(`${(r.responseTimeMs / 1000).toFixed(1)} s`)}\n${r.response}\n`);
    for (const f of d.failed) write(c.red(`\n✗ ${f.display}: ${f.error}\n`));
  };
  const votes = (round: Omit<VoteRoundResult, "labelToModel">, map: Record<string, string>) => {
    labelToDisplay = Object.fromEntries(Object.entries(map).map(([l, m]) => [l, displayOf[m] ?? m]));
    for (const v of round.votes) {
      const choice = v.votedFor ? `${v.votedFor} (${labelToDisplay[v.votedFor] ?? "finns inte"})` : c.red(v.error ? `✗ ${v.error}` : "ogiltig röst");
      write(`  ${c.bold(v.display.padEnd(12))} → ${choice}${v.anonymityBreach.length ? c.yellow(` ⚠ nämner ${v.anonymityBreach.join(", ")}`) : ""}\n`);
    }
    write("\n");
    for (const [label, n] of Object.entries(round.tallies).sort(([, a], [, b]) => b - a)) {
      write(`  ${`${label} ${labelToDisplay[label]}`.padEnd(24)} ${"█".repeat(n)} ${n}\n`);
    }
    write(c.dim(`  ${round.validVoteCount} giltiga, ${round.invalidVoteCount} ogiltiga${round.isTie ? ` · oavgjort mellan ${round.tiedLabels.join(", ")}` : ""}\n`));
  };
  return (e: ClientEvent): boolean => {
    switch (e.event) {
      case "vote-start":
        if ("data" in e.data) {
          write(`\n${c.yellow("━━ Runda 3: omröstning om de reviderade svaren (nya etiketter) ━━")}\n`);
          return true;
        }
        displayOf = Object.fromEntries([...e.data.participants, e.data.chairman].map((p) => [p.model, p.display]));
        write(`${c.bold(`Omröstning: ${e.data.question}`)}\n`);
        write(c.dim(`${e.data.participants.map((p) => p.display).join(", ")} · ordförande ${e.data.chairman.display}${e.data.simulated ? " — simulerade modeller (ingen OPENAI_API_KEY)" : ""}\n`));
        return true;
      case "debate-start":
        displayOf = Object.fromEntries(e.data.participants.map((p) => [p.model, p.display]));
        write(`${c.bold(`Revidering: ${e.data.question}`)}${e.data.antiAnchoring ? c.dim(" (anti-ankring)") : ""}\n`);
        write(c.dim(`${e.data.participants.map((p) => p.display).join(", ")}${e.data.simulated ? " — simulerade modeller (ingen OPENAI_API_KEY)" : ""}\n`));
        return true;
      case "stage1-start":
      case "round1-start":
        write(`\n${c.yellow(`━━ ${e.event === "round1-start" ? "Runda 1" : "Steg 1"}: svar ━━`)}\n`);
        return true;
      case "stage1-complete":
      case "round1-complete":
        answers(e.data);
        return true;
      case "revision-start":
        write(`\n${c.yellow("━━ Runda 2: revidering (anonymt) ━━")}\n`);
        return true;
      case "revision-complete": {
        for (const r of e.data.data.revisions) {
          const change = r.revisedWordCount - r.originalWordCount;
          write(`\n${c.cyan(c.bold(`▶ ${r.display}`))} ${c.bold(r.decision ?? "OTOLKAD")} ${c.dim(`${change >= 0 ? "+" : ""}${change} ord${r.error ? ` · ✗ ${r.error}` : ""}`)}\n`);
          if (r.reasoning) write(c.dim(`  ${r.reasoning}\n`));
          if (r.decision !== "STAND") write(`${r.revisedResponse}\n`);
        }
        const s = e.data.data.summary;
        write(c.dim(`\n  ${s.revised} reviderade, ${s.stood} stod fast, ${s.merged} slog ihop, ${s.parseFailed} otolkade\n`));
        return true;
      }
      case "vote-round-start":
        write(`\n${c.yellow("━━ Steg 2: omröstning (anonymt) ━━")}\n`);
        return true;
      case "vote-round-complete":
        votes(e.data.data, e.data.data.labelToModel);
        return true;
      case "vote-complete":
        votes(e.data.data, e.data.data.revisedLabelToModel);
        return true;
      case "tiebreaker-complete":
        write(`\n${c.yellow(`⚖ Ordföranden (${displayOf[e.data.data.model] ?? e.data.data.model}) väljer ${e.data.data.votedFor} (${labelToDisplay[e.data.data.votedFor]})`)}${e.data.data.fallback ? c.dim(" — svaret gick inte att tolka två gånger: första oavgjorda i bokstavsordning") : ""}\n`);
        return true;
      case "winner-declared": {
        const w = e.data.data;
        const how = !w.tiebroken ? "" : "tiebreakerMethod" in w && w.tiebreakerMethod === "alphabetical" ? ", oavgjort: bokstavsordning" : ", avgjort av ordföranden";
        const decision = "winnerDecision" in w ? ` · ${w.winnerDecision ?? "otolkat beslut"}` : "";
        write(`\n${c.green(c.bold(`👑 Vinnare: ${w.winnerDisplay} (${w.winnerLabel}${decision}) — ${w.voteCount} av ${w.totalVotes} röster${how}`))}\n\n${w.winnerResponse}\n`);
        return true;
      }
      case "title-complete":
        write(c.dim(`\nTitel: ${e.data.data.title}\n`));
        return true;
      case "deep-start":
        write(`${c.bold(`Djupdebatt: ${e.data.question}`)}\n`);
        write(c.dim(`${e.data.participants.map((p) => p.display).join(", ")} · ${e.data.minRounds}–${e.data.maxRounds} rundor${e.data.simulated ? " — simulerade modeller (ingen OPENAI_API_KEY)" : ""}\n`));
        return true;
      case "deep-round-start":
        write(`\n${c.yellow(`━━ Debattrunda ${e.data.round} ━━`)} ${c.dim(Object.entries(e.data.debaters).map(([l, w]) => `${l}: ${w.display}`).join(" · "))}\n`);
        return true;
      case "deep-round-complete": {
        for (const t of e.data.arguments) {
          if (!t.argument) {
            write(c.red(`  Debattör ${t.label} (${t.display}): ✗ ${t.error}\n`));
            continue;
          }
          const a = t.argument;
          write(`  ${c.bold(`Debattör ${t.label}`)} ${c.dim(`(${t.display})`)} ${a.stance} · ${a.revision} · ${a.confidence}\n`);
          for (const k of a.key_points) write(c.dim(`    – ${k}\n`));
        }
        const m = e.data.assessment;
        const numbers = m ? `samstämmighet ${m.agreement_score} · nya poäng ${m.new_points_ratio}` : `ingen bedömning (${e.data.moderatorError ?? "fel"})`;
        write(`  ${c.cyan("Moderator:")} ${numbers} → ${e.data.stop ? c.green(`stopp (${e.data.reason})`) : "nästa runda"}\n`);
        return true;
      }
      case "deep-output":
        write(`\n${c.yellow(`━━ Syntes efter ${e.data.data.rounds_completed} rundor ━━`)}\n`);
        return true;
      case "council-start":
        write(`${c.bold(`Råd: ${e.data.claim}`)}${e.data.debate ? c.dim(" (--debate)") : ""}\n`);
        write(c.dim(`${e.data.judges.map((j) => `${j.display} (${j.perspective})`).join(", ")}${e.data.simulated ? " — simulerade modeller (ingen OPENAI_API_KEY)" : ""}\n`));
        return true;
      case "council-round-start":
        write(`\n${c.yellow(`━━ Runda ${e.data.round}${e.data.branch ? ` (${e.data.branch === "agreed" ? "eniga" : "oeniga"} i runda 1)` : ""} ━━`)}\n`);
        return true;
      case "council-verdict": {
        const v = e.data.verdict;
        if (!v) write(c.red(`  ${e.data.display} (${e.data.perspective}): ✗ ${e.data.status === "timeout" ? "tidsgräns" : "fel"}: ${e.data.error}\n`));
        else write(`  ${c.bold(`${e.data.display} (${e.data.perspective})`)}: ${v.verdict === "PASS" ? c.green(v.verdict) : v.verdict === "FAIL" ? c.red(v.verdict) : c.yellow(v.verdict)} ${c.dim(`(${v.confidence})`)} — ${v.key_insight}${e.data.unjustifiedChange ? c.yellow(" ⚠ ändrade utan konkret belägg") : ""}\n`);
        return true;
      }
      case "council-round-complete":
        write(c.dim(`  ${e.data.unanimous ? "enhälligt" : "delade meningar"}\n`));
        return true;
      case "council-consolidation": {
        const r = e.data.data;
        write(`\n${c.bold(`Konsensus: ${r.consensus}`)} ${c.dim(`(PASS ${r.counts.PASS} · WARN ${r.counts.WARN} · FAIL ${r.counts.FAIL})`)}\n`);
        if (r.note) write(c.yellow(`${r.note}\n`));
        write(`\n${c.yellow("━━ Rådets rapport ━━")}\n`);
        return true;
      }
      case "answer-delta":
        // The final texts stream; answers and votes are printed whole when their stage is in.
        if (e.data.stage === "synthesis" || e.data.stage === "report") write(e.data.delta);
        return true;
      case "deep-synthesis-complete":
      case "council-report-complete":
        write(e.data.data.fallback ? c.dim(`\n(modellen svarade inte: ${e.data.data.error})\n${"synthesis" in e.data.data ? e.data.data.synthesis : e.data.data.report}\n`) : "\n");
        return true;
      case "complete":
        return true;
      default:
        return false;
    }
  };
}
