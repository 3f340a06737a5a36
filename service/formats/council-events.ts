import { z } from "zod";
import { headline } from "../../state/text.js";
import type { ClientEvent } from "../../state/events.js";
import { councilNote, named } from "../../state/messages/index.js";
import type { NarrationContext, Narrator, OutcomePart } from "../format-definition.js";
import { finalText } from "./final-text.js";

/** /council's runs open with `council-start`. */
export const startsCouncil = (e: ClientEvent): boolean => e.event === "council-start";

/** Tells /council's events: the judges and their perspectives, each round's verdicts, the consensus, then the report as it streams (the result). */
export function narrateCouncil(context: NarrationContext): Narrator {
  const { write, c, t } = context;
  const final = finalText(context, "report");
  return (e) => {
    switch (e.event) {
      case "council-start":
        write(`${c.bold(t("council.label", { claim: headline(e.data.claim) }))}${e.data.debate ? c.dim(" (--debate)") : ""}\n`);
        write(
          c.dim(
            `${e.data.judges.map((j) => `${j.display} (${named(t, "perspective", j.perspective)})`).join(", ")}${e.data.simulated ? t("cli.simulated") : ""}\n`,
          ),
        );
        return true;
      case "council-round-start":
        const branch = e.data.branch ? t("cli.branch", { branch: t(e.data.branch === "agreed" ? "council.agreed" : "council.disagreed") }) : "";
        write(`\n${c.yellow(`━━ ${t("deep.round", { n: e.data.round })}${branch} ━━`)}\n`);
        return true;
      case "council-verdict": {
        const v = e.data.verdict;
        const judge = `${e.data.display} (${named(t, "perspective", e.data.perspective)})`;
        if (!v) write(c.red(`${c.item}${judge}: ✗ ${t(e.data.status === "timeout" ? "council.timeout" : "council.error")}: ${e.data.error}\n`));
        else
          write(
            `${c.item}${c.bold(judge)}: ${v.verdict === "PASS" ? c.green(v.verdict) : v.verdict === "FAIL" ? c.red(v.verdict) : c.yellow(v.verdict)} ${c.dim(`(${named(t, "confidence", v.confidence)})`)} — ${v.key_insight}${e.data.unjustifiedChange ? c.yellow(t("cli.unjustified")) : ""}\n`,
          );
        return true;
      }
      case "council-round-complete":
        write(c.dim(`${c.item}${t(e.data.unanimous ? "cli.unanimous" : "cli.divided")}\n`));
        return true;
      case "council-consolidation": {
        const r = e.data.data;
        write(`\n${c.bold(`${t("council.consensus")} ${r.consensus}`)} ${c.dim(`(PASS ${r.counts.PASS} · WARN ${r.counts.WARN} · FAIL ${r.counts.FAIL})`)}\n`);
        const note = councilNote(t, r);
        if (note) write(c.yellow(`${note}\n`));
        write(`\n${c.yellow(`━━ ${t("council.report")} ━━`)}\n`);
        return true;
      }
      default:
        return final(e);
    }
  };
}

/** /council's outcome: the consensus verdict and how many judges gave each verdict. */
export const councilOutcome: OutcomePart = {
  fields: {
    consensus: z.string().optional().describe("/council: the consensus verdict"),
    verdicts: z.record(z.string(), z.number()).optional().describe("/council: how many judges gave each verdict"),
  },
  reader: () => (e, o) => {
    if (e.event === "council-start") o.simulated = e.data.simulated;
    if (e.event === "council-consolidation") {
      o.consensus = e.data.data.consensus;
      o.verdicts = { ...e.data.data.counts };
    }
  },
};
