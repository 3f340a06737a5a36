import { z } from "zod";
import { headline } from "../../state/text.js";
import type { ClientEvent } from "../../state/events.js";
import { named, percent as pct } from "../../state/messages/index.js";
import type { NarrationContext, Narrator, OutcomePart } from "../format-definition.js";
import { finalText } from "./final-text.js";

/** /deep's runs open with `deep-start`. */
export const startsDeep = (e: ClientEvent): boolean => e.event === "deep-start";

/** Tells /deep's events: its rounds with each debater's stance and the moderator's numbers, then the synthesis as it streams (the result). */
export function narrateDeep(context: NarrationContext): Narrator {
  const { write, c, t } = context;
  const final = finalText(context, "synthesis");
  return (e) => {
    switch (e.event) {
      case "deep-start":
        write(`${c.bold(t("deep.label", { question: headline(e.data.question) }))}\n`);
        write(
          c.dim(
            `${e.data.participants.map((p) => p.display).join(", ")} · ${t("deep.rounds", { min: e.data.minRounds, max: e.data.maxRounds })}${e.data.simulated ? t("cli.simulated") : ""}\n`,
          ),
        );
        return true;
      case "deep-round-start":
        write(
          `\n${c.yellow(`━━ ${t("cli.deepRound", { n: e.data.round })} ━━`)} ${c.dim(
            Object.entries(e.data.debaters)
              .map(([l, w]) => `${l}: ${w.display}`)
              .join(" · "),
          )}\n`,
        );
        return true;
      case "deep-round-complete": {
        for (const turn of e.data.arguments) {
          if (!turn.argument) {
            write(c.red(`${c.item}${t("deep.debater", { label: turn.label })} (${turn.display}): ✗ ${turn.error}\n`));
            continue;
          }
          const a = turn.argument;
          write(
            `${c.item}${c.bold(t("deep.debater", { label: turn.label }))} ${c.dim(`(${turn.display})`)} ${named(t, "stance", a.stance)} · ${named(t, "revision", a.revision)} · ${pct(a.confidence)}\n`,
          );
          for (const k of a.key_points) write(c.dim(`    – ${k}\n`));
        }
        const m = e.data.assessment;
        const numbers = m
          ? t("deep.assessment", { agreement: pct(m.agreement_score), newPoints: pct(m.new_points_ratio) })
          : t("deep.noAssessment", { error: e.data.moderatorError ?? t("council.error") });
        const decision = named(t, "deep.reason", e.data.reason);
        write(`${c.item}${c.cyan(t("deep.moderator"))} ${numbers} → ${e.data.stop ? c.green(decision) : decision}\n`);
        return true;
      }
      case "deep-output":
        write(`\n${c.yellow(`━━ ${t("cli.synthesisAfter", { n: e.data.data.rounds_completed })} ━━`)}\n`);
        return true;
      default:
        return final(e);
    }
  };
}

/** /deep's outcome: the rounds held. */
export const deepOutcome: OutcomePart = {
  fields: { rounds: z.number().optional().describe("/deep: the debate rounds held") },
  reader: () => (e, o) => {
    if (e.event === "deep-start") o.simulated = e.data.simulated;
    if (e.event === "deep-output") o.rounds = e.data.data.rounds_completed;
  },
};
