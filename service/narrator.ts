import { withoutOpenedThinking, type AnswerNotes } from "../state/answer.js";
import type { ClientEvent } from "../state/events.js";
import { ROUND_TYPES } from "../state/formats.js";
import { errorWords, estimateWords, seconds, usageWords, type Translate as T } from "../state/messages/index.js";
import { createDeliberationNarrator } from "./narrator-deliberation.js";
import type { Styles, Write } from "./narration.js";
import { notesText, type NotesOptions } from "./narrator-notes.js";

/** A streamed answer as it is kept: with reasoning, without the thinking a chat template opened itself. */
const answered = (streamed: string, notes: AnswerNotes) => (notes.reasoning ? withoutOpenedThinking(streamed) : streamed);

/**
 * Tells a run's events as text for people, in the reader's language: round headers, who speaks
 * and what they say, the vote table, the winner, the final text as it streams. The terminal
 * prints all of it; the OpenAI-compatible and MCP surfaces keep the progress apart from the
 * result. The arena-data block at the head of a debate's synthesis is for the arena page and is
 * left out. `status` hears who is writing now (empty when nobody is). An answer's sources and a
 * cut ending are told after it; its thinking only with `options.showThinking`.
 */
export function createNarrator(write: Write, c: Styles, t: T, status: (s: string) => void = () => {}, options: NotesOptions = {}) {
  let inArenaBlock = false;
  // /compare answers stream in parallel: each is told whole when it ends.
  const compared = new Map<string, string>();
  // So do the turns of a simultaneous debate's round (by participant and round).
  let simultaneous = false;
  const turns = new Map<string, { text: string; position: number }>();
  const writing = new Set<string>();
  const deliberation = createDeliberationNarrator(write, c, t, options);
  const roundName = (round: number, fallback = "") => {
    const type = ROUND_TYPES[round - 1];
    return t("arena.round", { n: round, type: type ? t(`round.${type}`) : fallback });
  };
  return (e: ClientEvent): void => {
    if (deliberation(e)) return;
    switch (e.event) {
      case "debate-init":
        simultaneous = e.data.order === "simultaneous";
        write(`${c.bold(t("arena.label", { topic: e.data.topic }))}${e.data.voice_mode ? c.dim(t("cli.voiceMode")) : ""}${e.data.voice_pacing === "paced" ? c.dim(t("cli.paced")) : ""}\n`);
        write(c.dim(`${e.data.participants.map((p) => p.display).join(", ")}${e.data.simulated ? t("cli.simulated") : ""}\n`));
        if (e.data.estimate) write(c.dim(`${estimateWords(t, e.data.estimate, e.data.simulated)}\n`));
        break;
      case "debate-round-start":
        write(`\n${c.yellow(`━━ ${roundName(e.data.round, e.data.type)} ━━`)} ${c.dim(e.data.order.join(simultaneous && e.data.round <= 3 ? ", " : " → "))}\n`);
        if (simultaneous && e.data.round <= 3) write(c.dim(`${t("cli.simultaneous")}\n`));
        break;
      case "debate-participant-start":
        if (simultaneous) {
          turns.set(`${e.data.model_key}|${e.data.round}`, { text: "", position: e.data.position });
          writing.add(e.data.model);
          status(`${roundName(e.data.round)} · ${t("cli.writingAtOnce", { n: writing.size })}`);
          break;
        }
        write(`\n${c.cyan(c.bold(`▶ ${e.data.model}`))} ${c.dim(`(${e.data.position})`)}\n`);
        status(`${roundName(e.data.round)} · ${e.data.model} ${t("card.writing")}`);
        break;
      case "debate-participant-delta": {
        const turn = simultaneous ? turns.get(`${e.data.model_key}|${e.data.round}`) : undefined;
        if (turn) turn.text += e.data.delta;
        else write(e.data.delta);
        break;
      }
      case "debate-participant-end":
        if (simultaneous) {
          // Each simultaneous turn is told whole, in the order they finish.
          const turn = turns.get(`${e.data.model_key}|${e.data.round}`);
          turns.delete(`${e.data.model_key}|${e.data.round}`);
          writing.delete(e.data.model);
          write(`\n${c.cyan(c.bold(`▶ ${e.data.model}`))}\n${answered(turn?.text ?? "", e.data)}`);
          status(writing.size > 0 ? `${roundName(e.data.round)} · ${t("cli.writingAtOnce", { n: writing.size })}` : "");
        } else status("");
        write(e.data.status === "ok" ? c.dim(`\n   ${t("card.stats", { words: e.data.word_count, seconds: seconds(e.data.latency_ms) })}\n`) : c.red(`\n   ✗ ${e.data.model}: ${e.data.error}\n`));
        write(notesText(e.data, c, t, options));
        break;
      case "debate-vote-result":
        write(`  ${c.bold(e.data.voter)} → ${c.green(e.data.voted_for)}${e.data.motivation ? `: ${e.data.motivation}` : ""}\n`);
        break;
      // A debate the person joined waits for them, or skips their seat.
      case "debate-awaiting-input":
        status(`${roundName(e.data.round)} · ${t("person.waitingFor", { name: e.data.participant })}`);
        break;
      case "debate-input-skipped":
        status("");
        write(c.dim(`\n   ✗ ${e.data.participant}: ${t(`person.skipped.${e.data.reason}`)}\n`));
        break;
      case "debate-results": {
        write(`\n${c.bold(t("votes.title"))}\n`);
        const rows = Object.entries(e.data.vote_counts as Record<string, number>).sort(([, a], [, b]) => b - a);
        for (const [name, n] of rows) write(`  ${name.padEnd(12)} ${"█".repeat(n)} ${n}  ${c.dim(t("cli.words", { n: e.data.word_counts[name] ?? 0 }))}\n`);
        const tiebreak = e.data.tiebreaker === "word_count" || e.data.tiebreaker === "alphabetical" ? ` (${t(`tiebreak.${e.data.tiebreaker}`)})` : "";
        const summary = t("cli.voteSummary", { valid: e.data.total_votes, self: e.data.self_votes_filtered ?? 0, invalid: e.data.invalid_votes ?? 0 });
        const winner = e.data.winner === null ? c.bold(t("cli.noWinner")) : c.green(c.bold(t("cli.winner", { winner: e.data.winner })));
        write(`\n${winner}${tiebreak} ${c.dim(summary)}\n\n`);
        break;
      }
      case "text-delta": {
        // The arena-data block is for the arena page; people read the analysis after it.
        let text: string = e.data.delta;
        if (text.startsWith("```debate-arena-data")) inArenaBlock = true;
        if (inArenaBlock) {
          const end = text.indexOf("```\n", 3);
          if (end === -1) return;
          inArenaBlock = false;
          text = text.slice(end + 4).replace(/^\n+/, "");
        }
        if (text) write(text, "result");
        break;
      }
      case "debate-synthesis-complete":
        write("\n", "result");
        break;
      case "compare-start":
        write(`${c.bold(t("compare.label", { question: e.data.question }))}\n${c.dim(`${e.data.participants.map((p) => p.display).join(", ")}${e.data.simulated ? t("cli.simulated") : ""}`)}\n`);
        break;
      case "compare-answer-delta":
        compared.set(e.data.model_key, (compared.get(e.data.model_key) ?? "") + e.data.delta);
        break;
      case "compare-answer-end":
        // The answers are the result; a model that failed is told as progress, so a /compare in
        // which nobody answered has no result (and says that it failed).
        // Its sources and a cut ending belong with the answer; its thinking is progress.
        if (e.data.status === "ok") {
          write(`\n${c.cyan(c.bold(`▶ ${e.data.model}`))}\n`, "result");
          write(`${answered(compared.get(e.data.model_key) ?? "", e.data)}\n`, "result");
          write(notesText({ sources: e.data.sources, ending: e.data.ending }, c, t), "result");
          write(`${c.dim(`   ${t("card.stats", { words: e.data.word_count, seconds: seconds(e.data.latency_ms) })}`)}\n`);
          write(notesText({ reasoning: e.data.reasoning }, c, t, options));
        } else write(`\n${c.cyan(c.bold(`▶ ${e.data.model}`))}\n${c.red(`   ✗ ${e.data.error}\n`)}`);
        break;
      case "compare-complete":
        write(`\n${c.dim(t("cli.compareSummary", { answered: e.data.answered, failed: e.data.failed }))}\n`);
        break;
      case "debate-voice-error":
        write(c.red(`\n   🔇 ${e.data.model}: ${e.data.error}\n`));
        break;
      case "usage":
        write(c.dim(`\n${t("usage.title")}: ${usageWords(t, e.data.total, { simulated: e.data.simulated, budgetUsd: e.data.budget_usd })}\n`));
        break;
      case "error":
        write(c.red(`\n${t("cli.error", { code: e.data.code, message: errorWords(t, e.data.code, e.data.message, e.data.reason) ?? e.data.message })}\n`));
        break;
    }
  };
}
