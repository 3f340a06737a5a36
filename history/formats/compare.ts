import { z } from "zod";
import { AnswerNotesShape } from "../../state/answer-schema.js";
import type { CompareStateType } from "../../state/compare.js";
import type { HistoryCodec } from "../codec.js";
import { panelRow, type Rows, type RunFacts } from "../row-kit.js";
import { all, data, find, PanelSchema } from "../stage-read.js";
import type { StageRow } from "../stage.js";

/** /compare: compare_panel -1, compare_answer 1, one per participant (failed ones too, with their error). */
function compareRows(state: CompareStateType, rows: Rows): void {
  const order = new Map(state.members.map((p, i) => [p.key, i]));
  const models = new Map(state.members.map((p) => [p.key, p.model]));
  [...state.answers]
    .sort((a, b) => order.get(a.key)! - order.get(b.key)!)
    .forEach((a, i) => {
      const { text, latency_ms, ...rest } = a;
      rows.add("compare_answer", 1, i, a.key, {
        model: models.get(a.key) ?? null,
        role: "respondent",
        content: text,
        parsedData: rest,
        responseTimeMs: latency_ms,
      });
    });
}

/** An answer row's data: whose answer, how it went, its notes (the text and time are the row's columns). */
const AnswerRowSchema = z.object({
  key: z.string(),
  display: z.string(),
  status: z.enum(["ok", "error"]),
  word_count: z.number().int(),
  error: z.string().optional(),
  ...AnswerNotesShape,
});

/** A /compare run's result, read back from its stages (a row that does not read as an answer counts as absent). */
function compareResultOf(stages: StageRow[]) {
  return {
    ...data(PanelSchema, find(stages, "compare_panel")),
    answers: all(stages, "compare_answer").flatMap((s) => {
      const answer = data(AnswerRowSchema, s);
      return answer ? [{ model: s.model ?? "", text: s.content, responseTimeMs: s.responseTimeMs ?? 0, ...answer }] : [];
    }),
  };
}

/** /compare in the history: its panel and the answers side by side. No vote, no ballots. */
export const compareHistory = {
  stageTypes: ["compare_panel", "compare_answer"],
  rows(state: CompareStateType, rows: Rows, facts: RunFacts) {
    panelRow(state, rows, "compare_panel", facts);
    compareRows(state, rows);
  },
  result: compareResultOf,
  ballots: null,
} satisfies HistoryCodec;
