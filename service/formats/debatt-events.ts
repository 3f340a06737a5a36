import { withoutOpenedThinking, type AnswerNotes } from "../../state/answer.js";
import { headline } from "../../state/text.js";
import type { ClientEvent } from "../../state/events.js";
import { ROUND_TYPES } from "../../state/formats.js";
import { estimateWords, seconds } from "../../state/messages/index.js";
import type { NarrationContext, Narrator, OutcomePart } from "../format-definition.js";
import { notesText } from "../narrator-notes.js";
import { WINNER_FIELDS } from "./labelled-votes.js";

/** A written debate's runs open with `debate-init`; a spoken one's too, with `voice_mode` set. */
export const startsDebate =
  (voice: boolean) =>
  (e: ClientEvent): boolean =>
    e.event === "debate-init" && e.data.voice_mode === voice;

/** A streamed answer as it is kept: with reasoning, without the thinking a chat template opened itself. */
const answered = (streamed: string, notes: AnswerNotes) => (notes.reasoning ? withoutOpenedThinking(streamed) : streamed);

/**
 * Tells /debatt's and /dvoice's events: round headers, who speaks and what they say (a
 * simultaneous round's turns each whole, in the order they finish), the person's seat, the vote
 * table, the winner and the synthesis as it streams (the result). The arena-data block at the
 * head of the synthesis is for the arena page and is left out. `status` hears who is writing now.
 */
export function narrateDebate({ write, c, t, status, options }: NarrationContext): Narrator {
  let inArenaBlock = false;
  // The turns of a simultaneous debate's round stream in parallel (by participant and round).
  let simultaneous = false;
  const turns = new Map<string, { text: string; position: number }>();
  const writing = new Set<string>();
  const roundName = (round: number, fallback = "") => {
    const type = ROUND_TYPES[round - 1];
    return t("arena.round", { n: round, type: type ? t(`round.${type}`) : fallback });
  };
  return (e) => {
    switch (e.event) {
      case "debate-init":
        simultaneous = e.data.order === "simultaneous";
        write(
          `${c.bold(t("arena.label", { topic: headline(e.data.topic) }))}${e.data.voice_mode ? c.dim(t("cli.voiceMode")) : ""}${e.data.voice_pacing === "paced" ? c.dim(t("cli.paced")) : ""}\n`,
        );
        write(c.dim(`${e.data.participants.map((p) => p.display).join(", ")}${e.data.simulated ? t("cli.simulated") : ""}\n`));
        if (e.data.estimate) write(c.dim(`${estimateWords(t, e.data.estimate, e.data.simulated)}\n`));
        return true;
      case "debate-round-start":
        write(`\n${c.yellow(`━━ ${roundName(e.data.round, e.data.type)} ━━`)} ${c.dim(e.data.order.join(simultaneous && e.data.round <= 3 ? ", " : " → "))}\n`);
        if (simultaneous && e.data.round <= 3) write(c.dim(`${t("cli.simultaneous")}\n`));
        return true;
      case "debate-participant-start":
        if (simultaneous) {
          turns.set(`${e.data.model_key}|${e.data.round}`, { text: "", position: e.data.position });
          writing.add(e.data.model);
          status(`${roundName(e.data.round)} · ${t("cli.writingAtOnce", { n: writing.size })}`);
          return true;
        }
        write(`\n${c.cyan(c.bold(`▶ ${e.data.model}`))} ${c.dim(`(${e.data.position})`)}\n`);
        status(`${roundName(e.data.round)} · ${e.data.model} ${t("card.writing")}`);
        return true;
      case "debate-participant-delta": {
        const turn = simultaneous ? turns.get(`${e.data.model_key}|${e.data.round}`) : undefined;
        if (turn) turn.text += e.data.delta;
        else write(e.data.delta);
        return true;
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
        write(
          e.data.status === "ok"
            ? c.dim(`\n   ${t("card.stats", { words: e.data.word_count, seconds: seconds(e.data.latency_ms) })}\n`)
            : c.red(`\n   ✗ ${e.data.model}: ${e.data.error}\n`),
        );
        write(notesText(e.data, c, t, options));
        return true;
      case "debate-vote-result":
        write(`${c.item}${c.bold(e.data.voter)} → ${c.green(e.data.voted_for)}${e.data.motivation ? `: ${e.data.motivation}` : ""}\n`);
        return true;
      // A debate the person joined waits for them, or skips their seat.
      case "debate-awaiting-input":
        status(`${roundName(e.data.round)} · ${t("person.waitingFor", { name: e.data.participant })}`);
        return true;
      case "debate-input-skipped":
        status("");
        write(c.dim(`\n   ✗ ${e.data.participant}: ${t(`person.skipped.${e.data.reason}`)}\n`));
        return true;
      case "debate-results": {
        write(`\n${c.bold(t("votes.title"))}\n`);
        const rows = Object.entries(e.data.vote_counts).sort(([, a], [, b]) => b - a);
        const width = Math.max(0, ...rows.map(([name]) => name.length));
        for (const [name, n] of rows)
          write(`${c.item}${c.pad(name, width)} ${"█".repeat(n)} ${n}  ${c.dim(t("cli.words", { n: e.data.word_counts[name] ?? 0 }))}\n`);
        const tiebreak = e.data.tiebreaker === "word_count" || e.data.tiebreaker === "alphabetical" ? ` (${t(`tiebreak.${e.data.tiebreaker}`)})` : "";
        const summary = t("cli.voteSummary", { valid: e.data.total_votes, self: e.data.self_votes_filtered ?? 0, invalid: e.data.invalid_votes ?? 0 });
        const winner = e.data.winner === null ? c.bold(t("cli.noWinner")) : c.green(c.bold(t("cli.winner", { winner: e.data.winner })));
        write(`\n${winner}${tiebreak} ${c.dim(summary)}\n\n`);
        return true;
      }
      case "text-delta": {
        // The arena-data block is for the arena page; people read the analysis after it.
        let text: string = e.data.delta;
        if (text.startsWith("```debate-arena-data")) inArenaBlock = true;
        if (inArenaBlock) {
          const end = text.indexOf("```\n", 3);
          if (end === -1) return true;
          inArenaBlock = false;
          text = text.slice(end + 4).replace(/^\n+/, "");
        }
        if (text) write(text, "result");
        return true;
      }
      case "debate-synthesis-complete":
        write("\n", "result");
        return true;
      case "debate-voice-error":
        write(c.red(`\n   🔇 ${e.data.model}: ${e.data.error}\n`));
        return true;
      default:
        return false;
    }
  };
}

/** A debate's outcome: the winner and the votes by name. */
export const debateOutcome: OutcomePart = {
  fields: WINNER_FIELDS,
  reader: () => (e, o) => {
    if (e.event === "debate-init") o.simulated = e.data.simulated;
    if (e.event === "debate-results") {
      if (e.data.winner !== null) o.winner = e.data.winner;
      o.votes = { ...e.data.vote_counts };
    }
  },
};
