import { z } from "zod";
import { LabelMapSchema, labelToModel, inParticipantOrder } from "../../state/deliberation.js";
import { resolveRevision } from "../../state/replies/revision.js";
import { RevisionDecisionSchema, RevisionSummarySchema, summarizeRevisions, type ReviseStateType, type RevisionResponse } from "../../state/revise.js";
import { labelledBallotReader } from "../ballots.js";
import type { CutAnswer, HistoryCodec } from "../codec.js";
import { countWords } from "../../state/text.js";
import { answerRows, ballotRows, panelRow, participantKeyOf, tallyRow, type Rows, type RunFacts } from "../row-kit.js";
import { all, answersOf, data, failedAnswer, failuresOf, find, PanelSchema, TallyDataSchema, votesOf, WinnerDataSchema, winnerKeyOf } from "../stage-read.js";
import type { StageRow } from "../stage.js";
import type { HistoryStore } from "../store.js";

/** A revision row's data. */
const RevisionDataSchema = z.object({
  decision: RevisionDecisionSchema.nullable(),
  reasoning: z.string().nullable(),
  originalWordCount: z.number(),
  revisedWordCount: z.number(),
  parseSuccess: z.boolean(),
  restatement: z.string().optional(),
  error: z.string().optional(),
});

/**
 * /revise's stages after its panel row (debate_panel -1): round1_label_map 0, initial_answer 1, revision 2, revision_summary 3,
 * revised_label_map 4, debate_vote 5, debate_vote_tally 6, debate_winner 7.
 */
function reviseRows(state: ReviseStateType, rows: Rows): void {
  if (Object.keys(state.round1_labels).length > 0) rows.data("round1_label_map", 0, labelToModel(state, state.round1_labels));
  answerRows(state, rows, "initial_answer", 1);
  const revisions = inParticipantOrder(state, state.revisions, (r) => r.modelKey);
  revisions.forEach((r, i) =>
    rows.add("revision", 2, i, r.modelKey, {
      model: r.model,
      role: "debater",
      // A failed revision keeps the original answer, which `loadDebateResult` reads back as its revision.
      content: r.revisionText || r.revisedResponse,
      parsedData: {
        decision: r.decision,
        reasoning: r.reasoning,
        originalWordCount: r.originalWordCount,
        revisedWordCount: r.revisedWordCount,
        parseSuccess: r.parseSuccess,
        ...(r.restatement ? { restatement: r.restatement } : {}),
        ...(r.error ? { error: r.error } : {}),
      },
      responseTimeMs: r.responseTimeMs,
    }),
  );
  // The revised labels are drawn in the step after the revisions.
  if (Object.keys(state.labels).length === 0) return;
  rows.data("revision_summary", 3, summarizeRevisions(revisions));
  rows.data("revised_label_map", 4, labelToModel(state, state.labels));
  ballotRows(state, rows, "debate_vote", 5);
  if (state.tally) tallyRow(rows, "debate_vote_tally", 6, state.tally);
  const w = state.winner;
  if (w) {
    rows.add("debate_winner", 7, 0, "0", {
      model: w.winnerModel,
      role: "winner",
      content: w.winnerResponse,
      parsedData: {
        winnerLabel: w.winnerLabel,
        winnerModel: w.winnerModel,
        winnerDecision: w.winnerDecision,
        voteCount: w.voteCount,
        totalVotes: w.totalVotes,
        tiebroken: w.tiebroken,
      },
    });
  }
}

/** A /revise run's result, read back from its stages. */
export async function loadDebateResult(history: HistoryStore, messageId: string) {
  return debateResultOf(await history.stagesOf(messageId));
}

function debateResultOf(stages: StageRow[]) {
  const initialAnswers = all(stages, "initial_answer").filter((s) => !failedAnswer(s));
  const revisedLabelMap = data(LabelMapSchema, find(stages, "revised_label_map"));
  const tally = data(TallyDataSchema, find(stages, "debate_vote_tally"));
  const winnerStage = find(stages, "debate_winner");
  const revisions = all(stages, "revision").map((s) => {
    const parsed = data(RevisionDataSchema, s) ?? {
      decision: null,
      reasoning: null,
      originalWordCount: 0,
      revisedWordCount: 0,
      parseSuccess: false,
      error: "unreadable",
    };
    const modelKey = participantKeyOf(s);
    // By participant: a model given twice is two participants.
    const original = initialAnswers.find((a) => participantKeyOf(a) === modelKey)?.content ?? "";
    return {
      model: s.model!,
      modelKey,
      decision: parsed.decision,
      reasoning: parsed.reasoning,
      originalResponse: original,
      // Read as the run read it: a STAND keeps the original answer, a failed revision too.
      revisedResponse: parsed.error ? original : resolveRevision(s.content, original).revisedResponse,
      originalWordCount: parsed.originalWordCount,
      revisedWordCount: parsed.revisedWordCount,
      responseTimeMs: s.responseTimeMs!,
      parseSuccess: parsed.parseSuccess,
      // A failed revision has no text of its own (the row keeps the original answer as its revision);
      // one stopped with its run keeps what it had streamed.
      revisionText: parsed.error && parsed.error !== "cancelled" ? "" : s.content,
      ...(parsed.restatement ? { restatement: parsed.restatement } : {}),
      ...(parsed.error ? { error: parsed.error } : {}),
    };
  });
  const winner = data(WinnerDataSchema.extend({ winnerDecision: z.string().nullable() }), winnerStage);
  return {
    ...data(PanelSchema.extend({ antiAnchoring: z.boolean() }), find(stages, "debate_panel")),
    round1: answersOf(initialAnswers),
    round1Failed: failuresOf(all(stages, "initial_answer")),
    round1LabelMap: data(LabelMapSchema, find(stages, "round1_label_map")),
    revisions,
    revisionSummary: data(RevisionSummarySchema, find(stages, "revision_summary")),
    revisedLabelMap,
    votes: tally && {
      votes: votesOf(all(stages, "debate_vote")),
      tallies: tally.tallies,
      revisedLabelToModel: revisedLabelMap ?? {},
      validVoteCount: tally.validVoteCount,
      invalidVoteCount: tally.invalidVoteCount,
      isTie: tally.isTie,
      tiedLabels: tally.tiedLabels,
    },
    winner: winner && {
      winnerLabel: winner.winnerLabel,
      winnerModel: winner.winnerModel,
      winnerKey: winnerKeyOf(
        winnerStage!,
        revisions.map((r) => ({ ...r, text: r.revisedResponse })),
      ),
      winnerResponse: winnerStage!.content,
      winnerDecision: winner.winnerDecision,
      voteCount: winner.voteCount,
      totalVotes: winner.totalVotes,
      tiebroken: winner.tiebroken,
      tiebreakerMethod: winner.tiebroken ? ("alphabetical" as const) : undefined,
    },
  };
}

/**
 * /revise in the history (stored as mode "debate"): its panel (with anti-anchoring), the first
 * labels and answers, the revisions, the new labels, the votes, the tally and the winner.
 */
/** A revision a stopped run cut off: its model's own answer stands, and its text is what it had streamed. */
function cutRevisions(state: ReviseStateType, cut: CutAnswer[]) {
  const revised = new Set(state.revisions.map((r) => r.modelKey));
  const original = new Map(state.answers.map((a) => [a.key, a.response]));
  const stopped = cut
    .filter((c) => !revised.has(c.key))
    .map((c): RevisionResponse => {
      const own = original.get(c.key) ?? "";
      const words = countWords(own);
      return {
        model: c.model,
        modelKey: c.key,
        display: c.display,
        decision: null,
        reasoning: null,
        revisedResponse: own,
        originalResponse: own,
        originalWordCount: words,
        revisedWordCount: words,
        responseTimeMs: 0,
        parseSuccess: false,
        revisionText: c.text,
        error: "cancelled",
      };
    });
  return { ...state, revisions: [...state.revisions, ...stopped] };
}

export const reviseHistory = {
  stageTypes: [
    "debate_panel",
    "round1_label_map",
    "initial_answer",
    "revision",
    "revision_summary",
    "revised_label_map",
    "debate_vote",
    "debate_vote_tally",
    "debate_winner",
  ],
  rows(state: ReviseStateType, rows: Rows, facts: RunFacts) {
    panelRow(state, rows, "debate_panel", facts, { antiAnchoring: state.options.antiAnchoring });
    reviseRows(state, rows);
  },
  result: debateResultOf,
  // A run stopped while the models revised keeps each revision as far as it had streamed.
  cut: { stages: ["revision"], closedBy: ["revision-complete"], add: cutRevisions },
  ballots: labelledBallotReader("revise", { panel: "debate_panel", labels: "revised_label_map", answers: "revision", votes: "debate_vote" }),
} satisfies HistoryCodec;
