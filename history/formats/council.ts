import { z } from "zod";
import { CouncilResultSchema, JudgeRoundSchema, type CouncilStateType, type JudgeRound } from "../../state/council.js";
import { inParticipantOrder } from "../../state/deliberation.js";
import type { HistoryCodec } from "../codec.js";
import { panelRow, withFinalError, type Rows, type RunFacts } from "../row-kit.js";
import { all, data, find, PanelSchema, RecordSchema } from "../stage-read.js";
import { stageData, type StageRow } from "../stage.js";

/** /council (the same shape): council_panel -1 (with the perspectives), council_verdict 1 and 2 (the rounds), council_result 3 (the report). */
function councilRows(state: CouncilStateType, rows: Rows): void {
  const judges = inParticipantOrder(state, state.rounds, (j) => j.modelKey).sort((a, b) => a.round - b.round);
  judges.forEach((j, i) => {
    const { text, model, responseTimeMs, ...rest } = j;
    rows.add("council_verdict", j.round, i, `${j.round}:${j.modelKey}`, { model, role: "judge", content: text, parsedData: rest, responseTimeMs });
  });
  if (state.result && state.answer !== null) {
    rows.add("council_result", 3, 0, "0", { role: "consolidator", content: state.answer, parsedData: withFinalError(state.result, state.final_error) });
  }
}

/** A /council run's result, read back from its stages (a verdict or consolidation that does not read as one counts as absent). */
function councilResultOf(stages: StageRow[]) {
  const verdicts = (round: number): JudgeRound[] =>
    all(stages, "council_verdict")
      .filter((s) => s.stageOrder === round)
      .flatMap((s) => {
        const parsed = JudgeRoundSchema.safeParse({ model: s.model, text: s.content, responseTimeMs: s.responseTimeMs, ...stageData(s) });
        return parsed.success ? [parsed.data] : [];
      });
  const result = find(stages, "council_result");
  const { finalError, ...stored } = data(RecordSchema, result) ?? {};
  const consolidated = result ? CouncilResultSchema.safeParse(stored).data : undefined;
  return {
    ...data(PanelSchema.extend({ perspectives: z.record(z.string(), z.string()), debate: z.boolean() }), find(stages, "council_panel")),
    round1: verdicts(1),
    round2: verdicts(2),
    result: consolidated,
    report: result?.content,
    /** Why the report model failed (the plain consolidation stood in), when it did. */
    reportError: typeof finalError === "string" ? finalError : undefined,
  };
}

/**
 * /council in the history: its panel (with the perspectives), each round's verdicts and the report.
 * Its judges give verdicts on one claim rather than choosing between models: no ballots.
 */
export const councilHistory = {
  stageTypes: ["council_panel", "council_verdict", "council_result"],
  rows(state: CouncilStateType, rows: Rows, facts: RunFacts) {
    panelRow(state, rows, "council_panel", facts, { perspectives: state.perspectives, debate: state.options.debate });
    councilRows(state, rows);
  },
  result: councilResultOf,
  ballots: null,
} satisfies HistoryCodec;
