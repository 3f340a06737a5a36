import { z } from "zod";
import { headline } from "../../state/text.js";
import { withoutOpenedThinking, type AnswerNotes } from "../../state/answer.js";
import type { ClientEvent } from "../../state/events.js";
import { seconds } from "../../state/messages/index.js";
import type { NarrationContext, Narrator, OutcomePart } from "../format-definition.js";
import { notesText } from "../narrator-notes.js";

/** /compare's runs open with `compare-start`. */
export const startsCompare = (e: ClientEvent): boolean => e.event === "compare-start";

/** A streamed answer as it is kept: with reasoning, without the thinking a chat template opened itself. */
const answered = (streamed: string, notes: AnswerNotes) => (notes.reasoning ? withoutOpenedThinking(streamed) : streamed);

/** Tells /compare's events: the answers stream in parallel, so each is told whole when it ends (they are the result). */
export function narrateCompare({ write, c, t, options }: NarrationContext): Narrator {
  const compared = new Map<string, string>();
  return (e) => {
    switch (e.event) {
      case "compare-start":
        write(
          `${c.bold(t("compare.label", { question: headline(e.data.question) }))}\n${c.dim(`${e.data.participants.map((p) => p.display).join(", ")}${e.data.simulated ? t("cli.simulated") : ""}`)}\n`,
        );
        return true;
      case "compare-answer-start":
        // An answer asked anew (its run taken up again after its server died) is told as it is now.
        compared.delete(e.data.model_key);
        return true;
      case "compare-answer-delta":
        compared.set(e.data.model_key, (compared.get(e.data.model_key) ?? "") + e.data.delta);
        return true;
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
        return true;
      case "compare-complete":
        write(`\n${c.dim(t("cli.compareSummary", { answered: e.data.answered, failed: e.data.failed }))}\n`);
        return true;
      default:
        return false;
    }
  };
}

/** /compare's outcome: answers given and failed. */
export const compareOutcome: OutcomePart = {
  fields: {
    answered: z.number().optional().describe("/compare: answers given"),
    failed: z.number().optional().describe("/compare: answers that failed"),
  },
  reader: () => (e, o) => {
    if (e.event === "compare-start") o.simulated = e.data.simulated;
    if (e.event === "compare-complete") {
      o.answered = e.data.answered;
      o.failed = e.data.failed;
    }
  },
};
