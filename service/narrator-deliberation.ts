import type { ClientEvent, ClientPayload } from "../state/events.js";
import type { VoteRoundResult } from "../state/vote.js";
import { councilNote, labelName, named, percent as pct, seconds, type Translate as T } from "../state/messages/index.js";
import type { Styles, Write } from "./narration.js";
import { notesText, type NotesOptions } from "./narrator-notes.js";

/**
 * Tells the deliberation formats' events for people (/vote, /revise, /deep, /council): the
 * answers (each whole once its stage is in, since they stream in parallel), the revisions with
 * their decisions and word-count change, the de-anonymised vote table, the tiebreak and the
 * winner's answer (the result), /deep's rounds with the moderator's numbers, /council's verdicts
 * and consensus, and the final texts as they stream (the result). Returns false for an event it
 * does not handle.
 */
export function createDeliberationNarrator(write: Write, c: Styles, t: T, options: NotesOptions = {}) {
  let labelToDisplay: Record<string, string> = {};
  let displayOf: Record<string, string> = {};
  const answers = (d: ClientPayload<"stage1-complete">) => {
    for (const r of d.data) write(`\n${c.cyan(c.bold(`▶ ${r.display}`))} ${c.dim(t("unit.seconds", { seconds: seconds(r.responseTimeMs) }))}\n${r.response}\n${notesText(r, c, t, options)}`);
    for (const f of d.failed) write(c.red(`\n✗ ${f.display}: ${f.error}\n`));
  };
  const votes = (round: Omit<VoteRoundResult, "labelToModel">, map: Record<string, string>) => {
    labelToDisplay = Object.fromEntries(Object.entries(map).map(([l, m]) => [l, displayOf[m] ?? m]));
    for (const v of round.votes) {
      const choice = v.votedFor ? `${labelName(t, v.votedFor)} (${labelToDisplay[v.votedFor] ?? t("dv.noSuchLabel")})` : c.red(v.error ? `✗ ${v.error}` : t("dv.invalidVote"));
      write(`  ${c.bold(v.display.padEnd(12))} → ${choice}${v.anonymityBreach.length ? c.yellow(t("cli.names", { names: v.anonymityBreach.join(", ") })) : ""}\n`);
    }
    write("\n");
    for (const [label, n] of Object.entries(round.tallies).sort(([, a], [, b]) => b - a)) {
      write(`  ${`${labelName(t, label)} ${labelToDisplay[label]}`.padEnd(24)} ${"█".repeat(n)} ${n}\n`);
    }
    write(c.dim(`  ${t("cli.voteCounts", { valid: round.validVoteCount, invalid: round.invalidVoteCount })}${round.isTie ? t("cli.tieBetween", { labels: round.tiedLabels.map((l) => labelName(t, l)).join(", ") }) : ""}\n`));
  };
  return (e: ClientEvent): boolean => {
    switch (e.event) {
      case "vote-start":
        if ("data" in e.data) {
          write(`\n${c.yellow(`━━ ${t("cli.revisedVote")} ━━`)}\n`);
          return true;
        }
        displayOf = Object.fromEntries([...e.data.participants, e.data.chairman].map((p) => [p.model, p.display]));
        write(`${c.bold(t("cli.voteTitle", { question: e.data.question }))}\n`);
        write(c.dim(`${e.data.participants.map((p) => p.display).join(", ")}${t("cli.chairman", { name: e.data.chairman.model || e.data.chairman.display })}${e.data.simulated ? t("cli.simulated") : ""}\n`));
        return true;
      case "debate-start":
        displayOf = Object.fromEntries(e.data.participants.map((p) => [p.model, p.display]));
        write(`${c.bold(t("cli.reviseTitle", { question: e.data.question }))}${e.data.antiAnchoring ? c.dim(t("cli.antiAnchoring")) : ""}\n`);
        write(c.dim(`${e.data.participants.map((p) => p.display).join(", ")}${e.data.simulated ? t("cli.simulated") : ""}\n`));
        return true;
      case "stage1-start":
      case "round1-start":
        write(`\n${c.yellow(`━━ ${e.event === "round1-start" ? t("dv.answersRevise") : t("cli.stage1")} ━━`)}\n`);
        return true;
      case "stage1-complete":
      case "round1-complete":
        answers(e.data);
        return true;
      case "revision-start":
        write(`\n${c.yellow(`━━ ${t("cli.revisionRound")} ━━`)}\n`);
        return true;
      case "revision-complete": {
        for (const r of e.data.data.revisions) {
          const change = r.revisedWordCount - r.originalWordCount;
          const decision = named(t, "decision", r.decision ?? "unparsed");
          write(`\n${c.cyan(c.bold(`▶ ${r.display}`))} ${c.bold(decision)} ${c.dim(`${t("dv.words", { sign: change >= 0 ? "+" : "−", n: Math.abs(change) })}${r.error ? ` · ✗ ${r.error}` : ""}`)}\n`);
          if (r.reasoning) write(c.dim(`  ${r.reasoning}\n`));
          if (r.decision !== "STAND") write(`${r.revisedResponse}\n`);
        }
        const s = e.data.data.summary;
        write(c.dim(`\n  ${t("dv.revisionSummary", { revised: s.revised, stood: s.stood, merged: s.merged })}${s.parseFailed ? t("cli.unparsed", { n: s.parseFailed }) : ""}\n`));
        return true;
      }
      case "vote-round-start":
        write(`\n${c.yellow(`━━ ${t("cli.voteStage")} ━━`)}\n`);
        return true;
      case "vote-round-complete":
        votes(e.data.data, e.data.data.labelToModel);
        return true;
      case "vote-complete":
        votes(e.data.data, e.data.data.revisedLabelToModel);
        return true;
      case "tiebreaker-complete":
        const chairman = displayOf[e.data.data.model] ?? e.data.data.model;
        write(`\n${c.yellow(t("cli.chairmanChooses", { chairman, label: labelName(t, e.data.data.votedFor ?? ""), display: labelToDisplay[e.data.data.votedFor ?? ""] ?? "" }))}${e.data.data.fallback ? c.dim(t("cli.chairmanFallback")) : ""}\n`);
        return true;
      case "winner-declared": {
        const w = e.data.data;
        const how = !w.tiebroken ? "" : "tiebreakerMethod" in w && w.tiebreakerMethod === "alphabetical" ? t("cli.howAlpha") : t("cli.howChair");
        const decision = "winnerDecision" in w ? ` · ${w.winnerDecision ? named(t, "decision", w.winnerDecision) : t("cli.unreadableDecision")}` : "";
        write(`\n${c.green(c.bold(t("cli.deliberationWinner", { display: w.winnerDisplay, label: labelName(t, w.winnerLabel), decision, count: w.voteCount, total: w.totalVotes, how })))}\n\n`);
        write(`${w.winnerResponse}\n`, "result");
        return true;
      }
      case "title-complete":
        write(c.dim(`\n${t("cli.title", { title: e.data.data.title })}\n`));
        return true;
      case "deep-start":
        write(`${c.bold(t("deep.label", { question: e.data.question }))}\n`);
        write(c.dim(`${e.data.participants.map((p) => p.display).join(", ")} · ${t("deep.rounds", { min: e.data.minRounds, max: e.data.maxRounds })}${e.data.simulated ? t("cli.simulated") : ""}\n`));
        return true;
      case "deep-round-start":
        write(`\n${c.yellow(`━━ ${t("cli.deepRound", { n: e.data.round })} ━━`)} ${c.dim(Object.entries(e.data.debaters).map(([l, w]) => `${l}: ${w.display}`).join(" · "))}\n`);
        return true;
      case "deep-round-complete": {
        for (const turn of e.data.arguments) {
          if (!turn.argument) {
            write(c.red(`  ${t("deep.debater", { label: turn.label })} (${turn.display}): ✗ ${turn.error}\n`));
            continue;
          }
          const a = turn.argument;
          write(`  ${c.bold(t("deep.debater", { label: turn.label }))} ${c.dim(`(${turn.display})`)} ${named(t, "stance", a.stance)} · ${named(t, "revision", a.revision)} · ${pct(a.confidence)}\n`);
          for (const k of a.key_points) write(c.dim(`    – ${k}\n`));
        }
        const m = e.data.assessment;
        const numbers = m ? t("deep.assessment", { agreement: pct(m.agreement_score), newPoints: pct(m.new_points_ratio) }) : t("deep.noAssessment", { error: e.data.moderatorError ?? t("council.error") });
        const decision = named(t, "deep.reason", e.data.reason);
        write(`  ${c.cyan(t("deep.moderator"))} ${numbers} → ${e.data.stop ? c.green(decision) : decision}\n`);
        return true;
      }
      case "deep-output":
        write(`\n${c.yellow(`━━ ${t("cli.synthesisAfter", { n: e.data.data.rounds_completed })} ━━`)}\n`);
        return true;
      case "council-start":
        write(`${c.bold(t("council.label", { claim: e.data.claim }))}${e.data.debate ? c.dim(" (--debate)") : ""}\n`);
        write(c.dim(`${e.data.judges.map((j) => `${j.display} (${named(t, "perspective", j.perspective)})`).join(", ")}${e.data.simulated ? t("cli.simulated") : ""}\n`));
        return true;
      case "council-round-start":
        const branch = e.data.branch ? t("cli.branch", { branch: t(e.data.branch === "agreed" ? "council.agreed" : "council.disagreed") }) : "";
        write(`\n${c.yellow(`━━ ${t("deep.round", { n: e.data.round })}${branch} ━━`)}\n`);
        return true;
      case "council-verdict": {
        const v = e.data.verdict;
        const judge = `${e.data.display} (${named(t, "perspective", e.data.perspective)})`;
        if (!v) write(c.red(`  ${judge}: ✗ ${t(e.data.status === "timeout" ? "council.timeout" : "council.error")}: ${e.data.error}\n`));
        else write(`  ${c.bold(judge)}: ${v.verdict === "PASS" ? c.green(v.verdict) : v.verdict === "FAIL" ? c.red(v.verdict) : c.yellow(v.verdict)} ${c.dim(`(${named(t, "confidence", v.confidence)})`)} — ${v.key_insight}${e.data.unjustifiedChange ? c.yellow(t("cli.unjustified")) : ""}\n`);
        return true;
      }
      case "council-round-complete":
        write(c.dim(`  ${t(e.data.unanimous ? "cli.unanimous" : "cli.divided")}\n`));
        return true;
      case "council-consolidation": {
        const r = e.data.data;
        write(`\n${c.bold(`${t("council.consensus")} ${r.consensus}`)} ${c.dim(`(PASS ${r.counts.PASS} · WARN ${r.counts.WARN} · FAIL ${r.counts.FAIL})`)}\n`);
        const note = councilNote(t, r);
        if (note) write(c.yellow(`${note}\n`));
        write(`\n${c.yellow(`━━ ${t("council.report")} ━━`)}\n`);
        return true;
      }
      case "answer-delta":
        // The final texts stream; answers and votes are printed whole when their stage is in.
        if (e.data.stage === "synthesis" || e.data.stage === "report") write(e.data.delta, "result");
        return true;
      case "deep-synthesis-complete":
      case "council-report-complete":
        if (!e.data.data.fallback) write("\n", "result");
        else {
          write(c.dim(`\n${t("cli.fallback", { error: e.data.data.error ?? "" })}\n`));
          write(`${"synthesis" in e.data.data ? e.data.data.synthesis : e.data.data.report}\n`, "result");
        }
        return true;
      case "complete":
        return true;
      default:
        return false;
    }
  };
}
