import type { ClientEvent } from "../../state/events.js";
import { headline } from "../../state/text.js";
import type { NarrationContext, Narrator, OutcomePart } from "../format-definition.js";
import { labelledVoteOutcome, labelledVotes } from "./labelled-votes.js";

/** /vote's runs open with its `vote-start` (/revise's later vote-start carries the round's data instead). */
export const startsVote = (e: ClientEvent): boolean => e.event === "vote-start" && !("data" in e.data);

/** Tells /vote's events: the panel and chairman, the answers, the vote table, the tiebreak and the winner's answer. */
export function narrateVote(context: NarrationContext): Narrator {
  const { write, c, t } = context;
  const labelled = labelledVotes(context, "vote");
  return (e) => {
    if (labelled.hear(e)) return true;
    switch (e.event) {
      case "vote-start":
        if ("data" in e.data) return false;
        labelled.named([...e.data.participants, e.data.chairman]);
        write(`${c.bold(t("cli.voteTitle", { question: headline(e.data.question) }))}\n`);
        write(
          c.dim(
            `${e.data.participants.map((p) => p.display).join(", ")}${t("cli.chairman", { name: e.data.chairman.model || e.data.chairman.display })}${e.data.simulated ? t("cli.simulated") : ""}\n`,
          ),
        );
        return true;
      case "stage1-start":
        write(`\n${c.yellow(`━━ ${t("cli.stage1")} ━━`)}\n`);
        return true;
      case "stage1-complete":
        labelled.answers(e.data);
        return true;
      case "vote-round-complete":
        labelled.votes(e.data.data, e.data.data.labelToModel);
        return true;
      default:
        return labelled.tell(e);
    }
  };
}

/** /vote's outcome: the winner and the votes by name. */
export const voteOutcome: OutcomePart = labelledVoteOutcome({
  start: (e) => (e.event === "vote-start" && "participants" in e.data ? e.data : undefined),
  counted: (e) => (e.event === "vote-round-complete" ? e.data.data : undefined),
});
