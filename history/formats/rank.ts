import type { Ballot, Candidate } from "../../state/leaderboard/ballots.js";
import { inParticipantOrder, LabelMapSchema, labelToModel, whoIs, WhoSchema } from "../../state/deliberation.js";
import { RankAggregateSchema, RankFinalSchema, RankingResponseSchema, type RankStateType } from "../../state/rank.js";
import { countWords } from "../../state/text.js";
import type { HistoryCodec } from "../codec.js";
import { answerRows, panelRow, participantKeyOf, type Rows, type RunFacts } from "../row-kit.js";
import { all, answersOf, data, failuresOf, find, PanelSchema } from "../stage-read.js";
import { stageData, type RunStage, type StageRow } from "../stage.js";

/** A ranking row's data: the ranking as it streamed, less what the row's columns hold (model, text, time; the key is in its id). */
const RankingRowSchema = RankingResponseSchema.omit({ model: true, rankingText: true, responseTimeMs: true, modelKey: true });

/** A final row's data: the final as it streamed, less what the row's columns hold (model, answer, time). */
const FinalRowSchema = RankFinalSchema.omit({ answer: true, model: true, responseTimeMs: true });

/** /rank's stages after its panel row (rank_panel -1): rank_label_map 0, rank_answer 1, rank_ranking 2, rank_aggregate 3, rank_final 4. */
function rankRows(state: RankStateType, rows: Rows): void {
  if (Object.keys(state.labels).length > 0) rows.data("rank_label_map", 0, labelToModel(state, state.labels));
  answerRows(state, rows, "rank_answer", 1);
  inParticipantOrder(state, state.rankings, (r) => r.modelKey).forEach((r, i) => {
    const { model, rankingText, responseTimeMs, modelKey, ...rest } = r;
    rows.add("rank_ranking", 2, i, modelKey, { model, role: "ranker", content: rankingText, parsedData: rest, responseTimeMs });
  });
  if (state.aggregate) rows.data("rank_aggregate", 3, state.aggregate);
  const f = state.final;
  if (f) {
    const { answer, model, responseTimeMs, ...rest } = f;
    rows.add("rank_final", 4, 0, "0", { model, role: f.fallback ? "winner" : "chairman", content: answer, parsedData: rest, responseTimeMs });
  }
}

/** A /rank run's result, read back from its stages as it streamed (what has not landed is absent). */
function rankResultOf(stages: StageRow[]) {
  const finalRow = find(stages, "rank_final");
  const final = data(FinalRowSchema, finalRow);
  return {
    ...data(PanelSchema.extend({ chairman: WhoSchema }), find(stages, "rank_panel")),
    stage1: answersOf(all(stages, "rank_answer")),
    stage1Failed: failuresOf(all(stages, "rank_answer")),
    labelToModel: data(LabelMapSchema, find(stages, "rank_label_map")),
    rankings: all(stages, "rank_ranking").flatMap((s) => {
      const parsed = RankingResponseSchema.safeParse({
        ...stageData(s),
        model: s.model,
        rankingText: s.content,
        responseTimeMs: s.responseTimeMs,
        modelKey: participantKeyOf(s),
      });
      return parsed.success ? [parsed.data] : [];
    }),
    aggregate: data(RankAggregateSchema, find(stages, "rank_aggregate")),
    final: final && finalRow ? { answer: finalRow.content, model: finalRow.model ?? "", responseTimeMs: finalRow.responseTimeMs ?? 0, ...final } : undefined,
  };
}

/**
 * The leaderboard's ballots of a /rank run. A full valid ranking of n answers is n−1 successive
 * choices (the Plackett–Luce model): its first among all n, its second among the other n−1, … its
 * last but one between the last two. Each is a ballot among what was left, each answer at its
 * place among the labels as shown (Response A first). As /vote's ballots, the ranker's own answer
 * is among the candidates: the leaderboard leaves a choice of it out of the fit, and the biases
 * see it. A ranking that did not count gives none.
 */
function rankBallots(rows: RunStage[], simulated: boolean): Ballot[] {
  const labels = stageData(rows.find((r) => r.stageType === "rank_label_map")) as Record<string, string>;
  const answers = rows.filter((r) => r.stageType === "rank_answer" && r.model);
  // A model that gave two of the answers cannot have their lengths told apart.
  const wordsOf = (model: string) => {
    const mine = answers.filter((r) => r.model === model);
    return mine.length === 1 ? countWords(mine[0].content) : null;
  };
  const shown = Object.keys(labels).sort();
  const all: Candidate[] = shown.map((label, position) => ({ model: labels[label], position, words: wordsOf(labels[label]) }));
  return rows
    .filter((r) => r.stageType === "rank_ranking" && r.model)
    .flatMap((r) => {
      const ranking = RankingRowSchema.safeParse(r.parsedData);
      if (!ranking.success || !ranking.data.valid || ranking.data.parsedRanking.length !== shown.length) return [];
      const namesKnown = ranking.data.anonymityBreach.length > 0;
      let left = all;
      return ranking.data.parsedRanking.slice(0, -1).map((label) => {
        const position = shown.indexOf(label);
        const ballot: Ballot = {
          format: "rank",
          runId: r.messageId,
          at: r.runAt.toISOString(),
          voter: r.model!,
          chosen: labels[label],
          chosenPosition: position,
          candidates: left,
          namesKnown,
          simulated,
        };
        left = left.filter((c) => c.position !== position);
        return ballot;
      });
    });
}

/**
 * /rank in the history: its panel (with the chairman), the label map, the answers, each model's
 * ranking, the council's ranking and the final answer; its rankings as the leaderboard's ballots.
 */
export const rankHistory = {
  stageTypes: ["rank_panel", "rank_label_map", "rank_answer", "rank_ranking", "rank_aggregate", "rank_final"],
  rows(state: RankStateType, rows: Rows, facts: RunFacts) {
    panelRow(state, rows, "rank_panel", facts, state.chairman ? { chairman: whoIs(state.chairman) } : {});
    rankRows(state, rows);
  },
  result: rankResultOf,
  ballots: {
    stageTypes: ["rank_panel", "rank_label_map", "rank_answer", "rank_ranking"],
    of: (rows, _panel, simulated) => rankBallots(rows, simulated),
  },
} satisfies HistoryCodec;
