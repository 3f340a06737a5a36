import { z } from "zod";
import type { ClientEvent } from "../../state/events.js";
import { labelName, named } from "../../state/messages/index.js";
import type { DeliberationMode } from "../../state/formats.js";
import type { VoteRoundResult } from "../../state/vote.js";
import type { NarrationContext, OutcomePart } from "../format-definition.js";
import { liveAnswers } from "./live-answers.js";

/**
 * What /vote and /revise tell alike (and /rank and /moa their answers): the answers, told as they
 * are written one at a time (`liveAnswers`), the de-anonymised vote table, the chairman's tiebreak and the winner's
 * answer (the result); and, for programs, the votes by participant name.
 */
export function labelledVotes(context: NarrationContext, mode: DeliberationMode) {
  const { write, c, t } = context;
  let labelToDisplay: Record<string, string> = {};
  let displayOf: Record<string, string> = {};
  const live = liveAnswers(context, mode, ["collect", "proposal"]);
  const votes = (round: Omit<VoteRoundResult, "labelToModel">, map: Record<string, string>) => {
    labelToDisplay = Object.fromEntries(Object.entries(map).map(([l, m]) => [l, displayOf[m] ?? m]));
    // Columns as wide as their longest entry (a terminal's; where fonts are proportional there are none).
    const voterWidth = Math.max(0, ...round.votes.map((v) => v.display.length));
    const tallyName = (label: string) => `${labelName(t, label)} (${labelToDisplay[label]}):`;
    const tallyWidth = Math.max(0, ...Object.keys(round.tallies).map((l) => tallyName(l).length));
    for (const v of round.votes) {
      const choice = v.votedFor
        ? `${labelName(t, v.votedFor)} (${labelToDisplay[v.votedFor] ?? t("dv.noSuchLabel")})`
        : c.red(v.error ? `✗ ${v.error}` : t("dv.invalidVote"));
      write(
        `${c.item}${c.bold(c.pad(v.display, voterWidth))} → ${choice}${v.anonymityBreach.length ? c.yellow(t("cli.names", { names: v.anonymityBreach.join(", ") })) : ""}\n`,
      );
    }
    write("\n");
    for (const [label, n] of Object.entries(round.tallies).sort(([, a], [, b]) => b - a)) {
      write(`${c.item}${c.pad(tallyName(label), tallyWidth)} ${"█".repeat(n)} ${n}\n`);
    }
    write(
      c.dim(
        `${c.item}${t("cli.voteCounts", { valid: round.validVoteCount, invalid: round.invalidVoteCount })}${round.isTie ? t("cli.tieBetween", { labels: round.tiedLabels.map((l) => labelName(t, l)).join(", ") }) : ""}\n`,
      ),
    );
  };
  /** Tells the events both formats send; false for any other. */
  const tell = (e: ClientEvent): boolean => {
    switch (e.event) {
      case "vote-round-start":
        write(`\n${c.yellow(`━━ ${t("cli.voteStage")} ━━`)}\n`);
        return true;
      case "tiebreaker-complete":
        const chairman = displayOf[e.data.data.model] ?? e.data.data.model;
        write(
          `\n${c.yellow(t("cli.chairmanChooses", { chairman, label: labelName(t, e.data.data.votedFor ?? ""), display: labelToDisplay[e.data.data.votedFor ?? ""] ?? "" }))}${e.data.data.fallback ? c.dim(t("cli.chairmanFallback")) : ""}\n`,
        );
        return true;
      case "winner-declared": {
        const w = e.data.data;
        const how = !w.tiebroken ? "" : "tiebreakerMethod" in w && w.tiebreakerMethod === "alphabetical" ? t("cli.howAlpha") : t("cli.howChair");
        const decision = "winnerDecision" in w ? ` · ${w.winnerDecision ? named(t, "decision", w.winnerDecision) : t("cli.unreadableDecision")}` : "";
        write(
          `\n${c.green(c.bold(t("cli.deliberationWinner", { display: w.winnerDisplay, label: labelName(t, w.winnerLabel), decision, count: w.voteCount, total: w.totalVotes, how })))}\n\n`,
        );
        write(`${w.winnerResponse}\n`, "result");
        return true;
      }
      default:
        return false;
    }
  };
  return {
    /** Remembers the participants' names (by model id) from the run's start. */
    named(participants: { model: string; display: string }[]) {
      displayOf = Object.fromEntries(participants.map((p) => [p.model, p.display]));
    },
    /** Tells an answer's piece as it is written (true), or nothing (false: another event). */
    hear: live.hear,
    /** A stage's answers are in: what was not told yet is told. */
    answers: live.complete,
    votes,
    tell,
  };
}

/** Votes by label turned into votes by name, through the label → model map and the participants. */
export function votesByName(tallies: Record<string, number>, labelToModel: Record<string, string>, nameOf: Map<string, string>): Record<string, number> {
  const votes: Record<string, number> = {};
  for (const [label, n] of Object.entries(tallies)) {
    const model = labelToModel[label];
    const name = (model && nameOf.get(model)) ?? label;
    votes[name] = (votes[name] ?? 0) + n;
  }
  return votes;
}

/** The outcome's fields of a format that votes for a winner (/debatt, /vote, /revise). */
export const WINNER_FIELDS = {
  winner: z.string().optional().describe("The winner's name (/debatt, /vote, /revise)"),
  votes: z.record(z.string(), z.number()).optional().describe("Valid votes by participant name (/debatt, /vote, /revise)"),
};

/**
 * The outcome of a format whose models vote on labelled answers (/vote, /revise): whether it was
 * simulated, the valid votes by name and the winner. Each format says which of its events opens
 * the run (with the panel) and which carries the counted vote (with its label map).
 */
export function labelledVoteOutcome(read: {
  start(e: ClientEvent): { simulated: boolean; participants: { model: string; display: string }[] } | undefined;
  counted(e: ClientEvent): { tallies: Record<string, number>; labelToModel: Record<string, string> } | undefined;
}): OutcomePart {
  return {
    fields: WINNER_FIELDS,
    reader() {
      let nameOf = new Map<string, string>();
      return (e, o) => {
        const start = read.start(e);
        if (start) {
          o.simulated = start.simulated;
          nameOf = new Map(start.participants.map((p) => [p.model, p.display]));
        }
        const counted = read.counted(e);
        if (counted) o.votes = votesByName(counted.tallies, counted.labelToModel, nameOf);
        if (e.event === "winner-declared") o.winner = e.data.data.winnerDisplay;
      };
    },
  };
}
