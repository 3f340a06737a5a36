import { z } from "zod";
import { LabelMapSchema, labelToModel, whoIs, WhoSchema } from "../../state/deliberation.js";
import type { VoteStateType } from "../../state/vote.js";
import { labelledBallotReader } from "../ballots.js";
import type { HistoryCodec } from "../codec.js";
import { answerRows, ballotRows, panelRow, tallyRow, type Rows, type RunFacts } from "../row-kit.js";
import { all, answersOf, data, failuresOf, find, PanelSchema, TallyDataSchema, votesOf, WinnerDataSchema, winnerKeyOf } from "../stage-read.js";
import { stageData, type StageRow } from "../stage.js";
import type { HistoryStore } from "../store.js";

/** /vote's stages after its panel row (vote_panel -1): label_map 0, collect 1, vote 2, vote_tally 3, tiebreaker 4 (ties only), winner 5. */
function voteRows(state: VoteStateType, rows: Rows): void {
  if (Object.keys(state.labels).length > 0) rows.data("label_map", 0, labelToModel(state, state.labels));
  answerRows(state, rows, "collect", 1);
  ballotRows(state, rows, "vote", 2);
  if (state.tally) tallyRow(rows, "vote_tally", 3, state.tally);
  const tb = state.tiebreaker;
  if (tb && state.tally) {
    const tiedLabels = state.tally.tiedLabels;
    rows.add("tiebreaker", 4, 0, "0", {
      model: tb.model,
      role: "chairman",
      content: tb.voteText,
      parsedData: { votedFor: tb.votedFor, tiedLabels, tiedVoteCount: state.tally.tallies[tiedLabels[0]] ?? 0, ...(tb.fallback ? { fallback: true } : {}) },
      responseTimeMs: tb.responseTimeMs,
    });
  }
  const w = state.winner;
  if (w) {
    rows.add("winner", 5, 0, "0", {
      model: w.winnerModel,
      role: "winner",
      content: w.winnerResponse,
      parsedData: { winnerLabel: w.winnerLabel, winnerModel: w.winnerModel, voteCount: w.voteCount, totalVotes: w.totalVotes, tiebroken: w.tiebroken },
    });
  }
}

/** A /vote run's result, read back from its stages. */
export async function loadVoteResult(history: HistoryStore, messageId: string) {
  return voteResultOf(await history.stagesOf(messageId));
}

function voteResultOf(stages: StageRow[]) {
  const stage1 = answersOf(all(stages, "collect"));
  const labelMap = find(stages, "label_map");
  const tally = data(TallyDataSchema, find(stages, "vote_tally"));
  const tiebreakerStage = find(stages, "tiebreaker");
  const winnerStage = find(stages, "winner");
  const winner = data(WinnerDataSchema, winnerStage);
  return {
    ...data(PanelSchema.extend({ chairman: WhoSchema.optional() }), find(stages, "vote_panel")),
    stage1,
    stage1Failed: failuresOf(all(stages, "collect")),
    voteRound: tally && {
      votes: votesOf(all(stages, "vote")),
      tallies: tally.tallies,
      labelToModel: data(LabelMapSchema, labelMap) ?? {},
      validVoteCount: tally.validVoteCount,
      invalidVoteCount: tally.invalidVoteCount,
      isTie: tally.isTie,
      tiedLabels: tally.tiedLabels,
    },
    tiebreaker: tiebreakerStage && {
      model: tiebreakerStage.model!,
      voteText: tiebreakerStage.content,
      votedFor: String(stageData(tiebreakerStage).votedFor ?? ""),
      responseTimeMs: tiebreakerStage.responseTimeMs!,
      tiedLabels: z.array(z.string()).catch([]).parse(stageData(tiebreakerStage).tiedLabels),
      fallback: stageData(tiebreakerStage).fallback === true,
    },
    winner: winner && {
      winnerLabel: winner.winnerLabel,
      winnerModel: winner.winnerModel,
      winnerKey: winnerKeyOf(
        winnerStage!,
        stage1.map((a) => ({ ...a, text: a.response })),
      ),
      winnerResponse: winnerStage!.content,
      voteCount: winner.voteCount,
      totalVotes: winner.totalVotes,
      tiebroken: winner.tiebroken,
      tiebreakerModel: tiebreakerStage?.model ?? undefined,
    },
  };
}

/**
 * /vote in the history: its panel (with the chairman), the label map, the answers, the votes, the
 * tally, the chairman's tiebreak and the winner.
 */
export const voteHistory = {
  stageTypes: ["vote_panel", "label_map", "collect", "vote", "vote_tally", "tiebreaker", "winner"],
  rows(state: VoteStateType, rows: Rows, facts: RunFacts) {
    panelRow(state, rows, "vote_panel", facts, state.chairman ? { chairman: whoIs(state.chairman) } : {});
    voteRows(state, rows);
  },
  result: voteResultOf,
  ballots: labelledBallotReader("vote", { panel: "vote_panel", labels: "label_map", answers: "collect", votes: "vote" }),
} satisfies HistoryCodec;
