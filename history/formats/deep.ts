import { z } from "zod";
import { LabelMapSchema, labelToModel } from "../../state/deliberation.js";
import {
  DebaterArgumentSchema,
  DeepOutputSchema,
  ModeratorAssessmentSchema,
  StopReasonSchema,
  type DebaterTurn,
  type DeepStateType,
} from "../../state/deep.js";
import { FORMATS } from "../../state/formats.js";
import type { HistoryCodec } from "../codec.js";
import { answerRows, panelRow, participantKeyOf, withFinalError, type Rows, type RunFacts } from "../row-kit.js";
import { all, answersOf, data, failuresOf, find, PanelSchema, RecordSchema } from "../stage-read.js";
import { stageData, type StageRow } from "../stage.js";

/**
 * /deep (the same shape): deep_panel -1, deep_label_map 0 (Debater X → model),
 * deep_initial_answer 1, then per round r deep_argument 2r and deep_moderation 2r+1, and
 * deep_synthesis after the last possible round.
 */
function deepRows(state: DeepStateType, rows: Rows): void {
  if (Object.keys(state.labels).length > 0) rows.data("deep_label_map", 0, labelToModel(state, state.labels));
  answerRows(state, rows, "deep_initial_answer", 1);
  const turns = [...state.turns].sort((a, b) => a.round - b.round || a.label.localeCompare(b.label));
  turns.forEach((t, i) =>
    rows.add("deep_argument", 2 * t.round, i, `${t.round}:${t.modelKey}`, {
      model: t.model,
      role: "debater",
      content: t.argument ? JSON.stringify(t.argument) : "",
      parsedData: { round: t.round, label: t.label, status: t.status, ...(t.argument ?? {}), ...(t.error ? { error: t.error } : {}) },
      responseTimeMs: t.responseTimeMs,
    }),
  );
  for (const o of state.outcomes) {
    rows.add("deep_moderation", 2 * o.round + 1, 0, String(o.round), { role: "moderator", content: JSON.stringify(o.assessment), parsedData: o });
  }
  if (state.answer !== null) {
    rows.add("deep_synthesis", 2 * state.options.maxRounds + 2, 0, "0", {
      role: "synthesizer",
      content: state.answer,
      parsedData: withFinalError(state.output, state.final_error),
    });
  }
}

/** A moderation row's data: the round's outcome as it was decided. */
const OutcomeRowSchema = z.object({
  round: z.number().int(),
  assessment: ModeratorAssessmentSchema.nullable(),
  moderatorError: z.string().optional(),
  stop: z.boolean(),
  reason: StopReasonSchema,
});

/** An argument row's data: the turn's label and status, its argument's fields beside them, why it has none. */
const TurnRowSchema = z.object({ round: z.number().int(), label: z.string(), status: z.enum(["ok", "error"]), error: z.string().optional() });

/** A turn read back as `deep-round-complete` sent it (without the display name: the panel has it); undefined when its row does not read as one. */
function turnOf(s: StageRow, round: number): Omit<DebaterTurn, "display" | "usage"> | undefined {
  const turn = data(TurnRowSchema, s);
  if (!turn) return undefined;
  const argument = turn.status === "ok" ? DebaterArgumentSchema.safeParse(stageData(s)).data : undefined;
  return { ...turn, model: s.model ?? "", modelKey: participantKeyOf(s, round), responseTimeMs: s.responseTimeMs ?? 0, ...(argument ? { argument } : {}) };
}

/** A /deep run's result, read back from its stages (a row that does not read as what it holds counts as absent). */
function deepResultOf(stages: StageRow[]) {
  const synthesis = find(stages, "deep_synthesis");
  const { finalError, ...output } = data(RecordSchema, synthesis) ?? {};
  return {
    ...data(PanelSchema.extend({ minRounds: z.number(), maxRounds: z.number() }), find(stages, "deep_panel")),
    labelMap: data(LabelMapSchema, find(stages, "deep_label_map")),
    stage1: answersOf(all(stages, "deep_initial_answer")),
    stage1Failed: failuresOf(all(stages, "deep_initial_answer")),
    rounds: all(stages, "deep_moderation").flatMap((m) => {
      const outcome = data(OutcomeRowSchema, m);
      if (!outcome) return [];
      const turns = all(stages, "deep_argument").filter((s) => s.stageOrder === 2 * outcome.round);
      return [{ ...outcome, arguments: turns.flatMap((s) => turnOf(s, outcome.round) ?? []) }];
    }),
    output: synthesis ? DeepOutputSchema.safeParse(output).data : undefined,
    synthesis: synthesis?.content,
    /** Why the synthesis model failed (the consensus stood in), when it did. */
    synthesisError: typeof finalError === "string" ? finalError : undefined,
  };
}

/** /deep in the history: its panel (with its rounds), the labels, the answers, each round's arguments and moderation, the synthesis. */
export const deepHistory = {
  stageTypes: ["deep_panel", "deep_label_map", "deep_initial_answer", "deep_argument", "deep_moderation", "deep_synthesis"],
  rows(state: DeepStateType, rows: Rows, facts: RunFacts) {
    panelRow(state, rows, "deep_panel", facts, { minRounds: FORMATS.deep.rounds.min, maxRounds: state.options.maxRounds });
    deepRows(state, rows);
  },
  result: deepResultOf,
  ballots: null,
} satisfies HistoryCodec;
