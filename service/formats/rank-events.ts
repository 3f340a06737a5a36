import { z } from "zod";
import { headline } from "../../state/text.js";
import type { ClientEvent } from "../../state/events.js";
import { labelName, named } from "../../state/messages/index.js";
import type { NarrationContext, Narrator, OutcomePart } from "../format-definition.js";
import { labelledVotes } from "./labelled-votes.js";

/** /rank's runs open with `rank-start`. */
export const startsRank = (e: ClientEvent): boolean => e.event === "rank-start";

/**
 * Tells /rank's events: the panel and chairman, the answers (whole, once all are in), each
 * model's ranking as it lands (by label: who wrote which is not known yet), the council's ranking
 * with its authors, then the chairman's answer as it streams (the result), or the top-ranked
 * answer when the chairman failed.
 */
export function narrateRank(context: NarrationContext): Narrator {
  const { write, c, t } = context;
  const { hear, answers } = labelledVotes(context, "rank");
  const labels = (order: string[]) => order.map((l) => labelName(t, l)).join(" › ");
  let chairman = "";
  // The rankers' column, as wide as the longest name of the panel (rankings come one at a time).
  let width = 12;
  return (e) => {
    if (hear(e)) return true;
    switch (e.event) {
      case "rank-start":
        chairman = e.data.chairman.model || e.data.chairman.display;
        width = Math.max(0, ...e.data.participants.map((p) => p.display.length));
        write(`${c.bold(t("rank.label", { question: headline(e.data.question) }))}\n`);
        write(
          c.dim(
            `${e.data.participants.map((p) => p.display).join(", ")}${t("cli.chairman", { name: chairman })}${e.data.simulated ? t("cli.simulated") : ""}\n`,
          ),
        );
        return true;
      case "stage1-start":
        write(`\n${c.yellow(`━━ ${t("cli.stage1")} ━━`)}\n`);
        return true;
      case "stage1-complete":
        answers(e.data);
        return true;
      case "rank-rankings-start":
        write(`\n${c.yellow(`━━ ${t("rank.rankingStage")} ━━`)}\n`);
        return true;
      case "rank-ranking": {
        const r = e.data.data;
        const why = r.problem ? named(t, "rank.problem", r.problem) : "";
        const told = r.valid ? labels(r.parsedRanking) : c.red(`✗ ${r.error ?? why}${r.parsedRanking.length > 0 ? ` (${labels(r.parsedRanking)})` : ""}`);
        write(
          `${c.item}${c.bold(c.pad(r.display, width))} ${told}${r.anonymityBreach.length ? c.yellow(t("cli.names", { names: r.anonymityBreach.join(", ") })) : ""}\n`,
        );
        return true;
      }
      case "rank-aggregate": {
        const a = e.data.data;
        write(`\n${c.yellow(`━━ ${t("rank.councilRanking")} ━━`)}\n`);
        if (a.ranking.length === 0) write(c.red(`${c.item}${t("rank.noRanking")}\n`));
        a.ranking.forEach((p, i) =>
          write(
            `${c.item}${c.bold(`${i + 1}. ${p.display}`)} ${c.dim(`(${labelName(t, p.label)})`)} — ${t("rank.meanPlace", { average: p.averagePosition })}\n`,
          ),
        );
        write(c.dim(`${c.item}${t("rank.counts", { valid: a.validRankings, invalid: a.invalidRankings })}\n`));
        write(`\n${c.yellow(`━━ ${t("rank.chairmanStage", { chairman })} ━━`)}\n`);
        return true;
      }
      case "answer-delta":
        // Only the chairman's text is told as it streams: it is the result. Answers and rankings are told whole.
        if (e.data.mode !== "rank") return false;
        if (e.data.stage === "chairman") write(e.data.delta, "result");
        return true;
      case "rank-final": {
        const f = e.data.data;
        if (!f.fallback) write("\n", "result");
        else {
          write(c.dim(`\n${t("rank.fallback", { error: f.error ?? "", display: f.display })}\n`));
          write(`${f.answer}\n`, "result");
        }
        return true;
      }
      default:
        return false;
    }
  };
}

/** /rank's outcome: the council's ranking by name, and how many rankings counted. */
export const rankOutcome: OutcomePart = {
  fields: {
    ranking: z
      .array(
        z.object({
          name: z.string().describe("The answer's author"),
          averagePosition: z.number().describe("Its mean place over the valid rankings (1 = best)"),
        }),
      )
      .optional()
      .describe("/rank: the council's ranking, best first"),
    validRankings: z.number().optional().describe("/rank: the rankings that counted (each ranks every answer exactly once)"),
    invalidRankings: z.number().optional().describe("/rank: the rankings that did not count (unreadable, incomplete, or the model failed)"),
  },
  reader: () => (e, o) => {
    if (e.event === "rank-start") o.simulated = e.data.simulated;
    if (e.event === "rank-aggregate") {
      const a = e.data.data;
      o.ranking = a.ranking.map((p) => ({ name: p.display, averagePosition: p.averagePosition }));
      o.validRankings = a.validRankings;
      o.invalidRankings = a.invalidRankings;
    }
  },
};
