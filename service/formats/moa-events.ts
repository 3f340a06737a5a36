import { z } from "zod";
import { headline } from "../../state/text.js";
import type { ClientEvent } from "../../state/events.js";
import type { NarrationContext, Narrator, OutcomePart } from "../format-definition.js";
import { labelledVotes } from "./labelled-votes.js";

/** /moa's runs open with `moa-start`. */
export const startsMoa = (e: ClientEvent): boolean => e.event === "moa-start";

/**
 * Tells /moa's events: the proposers, the aggregator and the layers; each layer's answers (whole,
 * once the layer is in: they stream in parallel); then the aggregator's answer as it streams (the
 * result), or the answer that stands in when the aggregator failed.
 */
export function narrateMoa(context: NarrationContext): Narrator {
  const { write, c, t } = context;
  const { hear, answers } = labelledVotes(context, "moa");
  return (e) => {
    if (hear(e)) return true;
    switch (e.event) {
      case "moa-start":
        write(`${c.bold(t("moa.label", { question: headline(e.data.question) }))}\n`);
        write(
          c.dim(
            `${e.data.participants.map((p) => p.display).join(", ")}${t("moa.aggregatedBy", { name: e.data.aggregator.model || e.data.aggregator.display, layers: e.data.layers })}${e.data.simulated ? t("cli.simulated") : ""}\n`,
          ),
        );
        return true;
      case "stage1-start":
        write(`\n${c.yellow(`━━ ${t("moa.layer", { layer: 1 })} ━━`)}\n`);
        return true;
      case "stage1-complete":
        answers(e.data);
        return true;
      case "moa-layer-start":
        write(
          `\n${c.yellow(`━━ ${t("moa.layer", { layer: e.data.layer })} ━━`)}\n${c.dim(t("moa.reading", { count: e.data.references, layer: e.data.from }))}\n`,
        );
        return true;
      case "moa-layer-complete":
        answers(e.data);
        return true;
      case "moa-aggregate-start":
        write(
          `\n${c.yellow(`━━ ${t("moa.aggregateStage", { name: e.data.model || e.data.display })} ━━`)}\n${c.dim(t("moa.reading", { count: e.data.references, layer: e.data.from }))}\n`,
        );
        return true;
      case "answer-delta":
        // Only the aggregator's text is told as it streams: it is the result. The layers' answers are told whole.
        if (e.data.mode !== "moa") return false;
        if (e.data.stage === "aggregate") write(e.data.delta, "result");
        return true;
      case "moa-final": {
        const f = e.data.data;
        if (!f.fallback) write("\n", "result");
        else {
          write(c.dim(`\n${t("moa.fallback", { error: f.error ?? "", display: f.display })}\n`));
          write(`${f.answer}\n`, "result");
        }
        return true;
      }
      default:
        return false;
    }
  };
}

/** /moa's outcome: how many layers ran, and whether the aggregator wrote the answer. */
export const moaOutcome: OutcomePart = {
  fields: {
    layers: z.number().optional().describe("/moa: the layers that ran, the aggregator's included"),
    aggregatedBy: z.string().optional().describe("/moa: who wrote the final answer (the aggregator, or on a fallback the proposer whose answer stands in)"),
    aggregatorFailed: z.boolean().optional().describe("/moa: the aggregator failed and an answer of the last layer stands in"),
  },
  reader: () => {
    let layers = 0;
    return (e, o) => {
      if (e.event === "moa-start") o.simulated = e.data.simulated;
      if (e.event === "stage1-complete" && layers === 0) layers = 1;
      if (e.event === "moa-layer-complete") layers = e.data.layer;
      if (e.event === "moa-final") {
        o.layers = layers + 1;
        o.aggregatedBy = e.data.data.display;
        o.aggregatorFailed = e.data.data.fallback;
      }
    };
  },
};
