import type { ClientEvent } from "../../state/events.js";
import { headline } from "../../state/text.js";
import { named } from "../../state/messages/index.js";
import type { NarrationContext, Narrator, OutcomePart } from "../format-definition.js";
import { labelledVoteOutcome, labelledVotes } from "./labelled-votes.js";

/** /revise's runs open with `debate-start`. */
export const startsRevise = (e: ClientEvent): boolean => e.event === "debate-start";

/**
 * Tells /revise's events: the panel, the first answers, the revisions with their decisions and
 * word-count change, the vote on the revised answers and the winner's answer.
 */
export function narrateRevise(context: NarrationContext): Narrator {
  const { write, c, t } = context;
  const labelled = labelledVotes(context, "revise");
  return (e) => {
    if (labelled.hear(e)) return true;
    switch (e.event) {
      case "debate-start":
        labelled.named(e.data.participants);
        write(`${c.bold(t("cli.reviseTitle", { question: headline(e.data.question) }))}${e.data.antiAnchoring ? c.dim(t("cli.antiAnchoring")) : ""}\n`);
        write(c.dim(`${e.data.participants.map((p) => p.display).join(", ")}${e.data.simulated ? t("cli.simulated") : ""}\n`));
        return true;
      case "vote-start":
        write(`\n${c.yellow(`━━ ${t("cli.revisedVote")} ━━`)}\n`);
        return true;
      case "round1-start":
        write(`\n${c.yellow(`━━ ${t("dv.answersRevise")} ━━`)}\n`);
        return true;
      case "round1-complete":
        labelled.answers(e.data);
        return true;
      case "revision-start":
        write(`\n${c.yellow(`━━ ${t("cli.revisionRound")} ━━`)}\n`);
        return true;
      case "revision-complete": {
        for (const r of e.data.data.revisions) {
          const change = r.revisedWordCount - r.originalWordCount;
          const decision = named(t, "decision", r.decision ?? "unparsed");
          write(
            `\n${c.cyan(c.bold(`▶ ${r.display}`))} ${c.bold(decision)} ${c.dim(`${t("dv.words", { sign: change >= 0 ? "+" : "−", n: Math.abs(change) })}${r.error ? ` · ✗ ${r.error}` : ""}`)}\n`,
          );
          if (r.reasoning) write(c.dim(`  ${r.reasoning}\n`));
          if (r.decision !== "STAND") write(`${r.revisedResponse}\n`);
        }
        const s = e.data.data.summary;
        write(
          c.dim(
            `\n  ${t("dv.revisionSummary", { revised: s.revised, stood: s.stood, merged: s.merged })}${s.parseFailed ? t("cli.unparsed", { n: s.parseFailed }) : ""}\n`,
          ),
        );
        return true;
      }
      case "vote-complete":
        labelled.votes(e.data.data, e.data.data.revisedLabelToModel);
        return true;
      default:
        return labelled.tell(e);
    }
  };
}

/** /revise's outcome: the winner and the votes on the revised answers, by name. */
export const reviseOutcome: OutcomePart = labelledVoteOutcome({
  start: (e) => (e.event === "debate-start" ? e.data : undefined),
  counted: (e) => (e.event === "vote-complete" ? { tallies: e.data.data.tallies, labelToModel: e.data.data.revisedLabelToModel } : undefined),
});
