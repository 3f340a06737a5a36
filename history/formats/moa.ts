import { z } from "zod";
import { notesFields } from "../../state/answer.js";
import { inParticipantOrder, WhoSchema } from "../../state/deliberation.js";
import { MoaFinalSchema, type MoaProposal, type MoaStateType } from "../../state/moa.js";
import type { CutAnswer, HistoryCodec } from "../codec.js";
import { answerRows, panelRow, participantKeyOf, type Rows, type RunFacts } from "../row-kit.js";
import { all, answersOf, data, failedAnswer, failuresOf, find, PanelSchema } from "../stage-read.js";
import type { StageRow } from "../stage.js";

/** A final row's data: the final as it streamed, less what the row's columns hold (model, answer, time). */
const FinalRowSchema = MoaFinalSchema.omit({ answer: true, model: true, responseTimeMs: true });

/** A later layer's answer row: its layer (its key is `<layer>:<participant>` in the row's id). */
const ProposalRowSchema = z.object({ layer: z.number().int().min(2) });

/** /moa's stages after its panel row (moa_panel -1): moa_answer 1 (the first layer), moa_proposal 2 (the later layers), moa_final 3. */
function moaRows(state: MoaStateType, rows: Rows): void {
  answerRows(state, rows, "moa_answer", 1);
  const proposals = [...state.proposals].sort((a, b) => a.layer - b.layer);
  const layers = [...new Set(proposals.map((p) => p.layer))];
  let seq = 0;
  for (const layer of layers) {
    inParticipantOrder(
      state,
      proposals.filter((p) => p.layer === layer),
      (p) => p.key,
    ).forEach((p) =>
      rows.add("moa_proposal", 2, seq++, `${layer}:${p.key}`, {
        model: p.model,
        role: "proposer",
        content: p.response,
        parsedData: { layer, responseTimeMs: p.responseTimeMs, ...(p.status === "error" ? { error: p.error ?? "error" } : {}), ...notesFields(p) },
        responseTimeMs: p.responseTimeMs,
      }),
    );
  }
  const f = state.final;
  if (f) {
    const { answer, model, responseTimeMs, ...rest } = f;
    rows.add("moa_final", 3, 0, "0", { model, role: f.fallback ? "proposer" : "aggregator", content: answer, parsedData: rest, responseTimeMs });
  }
}

/** The later layers' answers read back, layer by layer (the key read from each row's id). */
function layersOf(stages: StageRow[]) {
  const byLayer = new Map<number, StageRow[]>();
  for (const s of all(stages, "moa_proposal")) {
    const layer = data(ProposalRowSchema, s)?.layer;
    if (layer !== undefined) byLayer.set(layer, [...(byLayer.get(layer) ?? []), s]);
  }
  return [...byLayer]
    .sort(([a], [b]) => a - b)
    .map(([layer, rows]) => {
      const rekey = <T extends { modelKey: string }>(items: T[], row: (i: number) => StageRow) =>
        items.map((x, i) => ({ ...x, modelKey: participantKeyOf(row(i), layer) }));
      const answered = rows.filter((s) => !failedAnswer(s));
      const failed = rows.filter(failedAnswer);
      return {
        layer,
        answers: rekey(answersOf(answered), (i) => answered[i]),
        failed: rekey(failuresOf(failed), (i) => failed[i]),
      };
    });
}

/** A /moa run's result, read back from its stages as it streamed (what has not landed is absent). */
function moaResultOf(stages: StageRow[]) {
  const finalRow = find(stages, "moa_final");
  const final = data(FinalRowSchema, finalRow);
  // The panel's `layers` is how many the run had; the result's `layers` are the later layers' answers.
  const { layers: layerCount, ...panel } = data(PanelSchema.extend({ aggregator: WhoSchema, layers: z.number().int() }), find(stages, "moa_panel")) ?? {};
  return {
    ...panel,
    layerCount,
    stage1: answersOf(all(stages, "moa_answer")),
    stage1Failed: failuresOf(all(stages, "moa_answer")),
    layers: layersOf(stages),
    final: final && finalRow ? { answer: finalRow.content, model: finalRow.model ?? "", responseTimeMs: finalRow.responseTimeMs ?? 0, ...final } : undefined,
  };
}

/** /moa in the history: its panel (with the aggregator and the layers), each layer's answers and the final answer. It gives the leaderboard no ballots. */
export const moaHistory = {
  stageTypes: ["moa_panel", "moa_answer", "moa_proposal", "moa_final"],
  rows(state: MoaStateType, rows: Rows, facts: RunFacts) {
    panelRow(
      state,
      rows,
      "moa_panel",
      facts,
      state.aggregator
        ? { aggregator: { model: state.aggregator.model, display: state.aggregator.display, modelKey: state.aggregator.key }, layers: state.layers }
        : {},
    );
    moaRows(state, rows);
  },
  result: moaResultOf,
  // A run stopped while a later layer answered keeps each cut proposal as far as it had streamed.
  cut: {
    stages: ["proposal"],
    closedBy: ["moa-layer-complete"],
    add(state: MoaStateType, cut: CutAnswer[]) {
      const layer = state.layer + 1;
      const have = new Set(state.proposals.filter((p) => p.layer === layer).map((p) => p.key));
      const stopped = cut
        .filter((c) => !have.has(c.key))
        .map((c): MoaProposal => ({
          layer,
          key: c.key,
          display: c.display,
          model: c.model,
          status: "error",
          response: c.text,
          responseTimeMs: 0,
          error: "cancelled",
        }));
      return { ...state, proposals: [...state.proposals, ...stopped] };
    },
  },
  ballots: null,
} satisfies HistoryCodec;
