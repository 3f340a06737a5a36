import { notesFields } from "../state/answer.js";
import { resolveRevision } from "../state/replies/revision.js";
import type { LabelMap } from "../state/deliberation.js";
import type { StoredMode } from "../state/formats.js";
import type { RevisionSummary } from "../state/revise.js";
import { participantKeyOf } from "./rows.js";
import type { ConversationRow, HistoryStore, MessageRow, StageRow } from "./store.js";

/**
 * The `load…Result` queries of /vote and /revise: one ordered read of a message's
 * `deliberation_stages`, put back into the result the run streamed. They also read a run that is
 * still going or that stopped early: a stage that has not landed is absent (undefined), never a
 * crash.
 */

interface TallyData {
  tallies: Record<string, number>;
  validVoteCount: number;
  invalidVoteCount: number;
  isTie: boolean;
  winners: string[];
  tiedLabels: string[];
}

const data = <T>(stage: StageRow | undefined) => stage?.parsedData as T | undefined;
const find = (stages: StageRow[], type: string) => stages.find((s) => s.stageType === type);
const all = (stages: StageRow[], type: string) => stages.filter((s) => s.stageType === type);

/** Who takes part in a deliberation format's run, as its `<mode>_panel` row has it (absent in runs stored before it). */
interface Panel {
  question: string;
  participants: { model: string; display: string; modelKey: string }[];
  simulated: boolean;
}

function votesOf(stages: StageRow[]) {
  return stages.map((s) => {
    const parsed = s.parsedData as { votedFor: string | null; error?: string; anonymityBreach?: string[] };
    return {
      model: s.model!,
      voteText: s.content,
      votedFor: parsed.votedFor,
      responseTimeMs: s.responseTimeMs!,
      modelKey: participantKeyOf(s),
      ...(parsed.error ? { error: parsed.error } : {}),
      anonymityBreach: parsed.anonymityBreach ?? [],
    };
  });
}

const failedAnswer = (s: StageRow) => Boolean((s.parsedData as { error?: string }).error);

/** The answers that came (`modelKey` added, and the answer's reasoning, sources and ending when it had them). */
function answersOf(stages: StageRow[]) {
  return stages.filter((s) => !failedAnswer(s)).map((s) => ({ model: s.model!, response: s.content, responseTimeMs: s.responseTimeMs!, modelKey: participantKeyOf(s), ...notesFields(s.parsedData) }));
}

/** The models whose first answer failed, and why, with what they had said (a run stopped while they answered). */
function failuresOf(stages: StageRow[]) {
  return stages
    .filter(failedAnswer)
    .map((s) => ({ model: s.model!, modelKey: participantKeyOf(s), error: (s.parsedData as { error: string }).error, responseTimeMs: s.responseTimeMs!, ...(s.content ? { response: s.content } : {}) }));
}

/**
 * The participant key of a winner: the one whose answer the winner row holds (the answer is
 * stored as it won). The model id alone cannot say which, when a model was given twice.
 */
function winnerKeyOf(winner: StageRow, answers: { model: string; modelKey: string; text: string }[]): string | undefined {
  return answers.find((a) => a.model === winner.model && a.text === winner.content)?.modelKey;
}

/** A /vote run's result, read back from its stages. */
export async function loadVoteResult(history: HistoryStore, messageId: string) {
  return voteResultOf(await history.stagesOf(messageId));
}

function voteResultOf(stages: StageRow[]) {
  const stage1 = answersOf(all(stages, "collect"));
  const labelMap = find(stages, "label_map");
  const tally = data<TallyData>(find(stages, "vote_tally"));
  const tiebreakerStage = find(stages, "tiebreaker");
  const winnerStage = find(stages, "winner");
  const winner = data<{ winnerLabel: string; winnerModel: string; voteCount: number; totalVotes: number; tiebroken: boolean }>(winnerStage);
  return {
    ...data<Panel & { chairman?: Panel["participants"][number] }>(find(stages, "vote_panel")),
    stage1,
    stage1Failed: failuresOf(all(stages, "collect")),
    voteRound: tally && {
      votes: votesOf(all(stages, "vote")),
      tallies: tally.tallies,
      labelToModel: data<LabelMap>(labelMap)!,
      validVoteCount: tally.validVoteCount,
      invalidVoteCount: tally.invalidVoteCount,
      isTie: tally.isTie,
      tiedLabels: tally.tiedLabels,
    },
    tiebreaker: tiebreakerStage && {
      model: tiebreakerStage.model!,
      voteText: tiebreakerStage.content,
      votedFor: (tiebreakerStage.parsedData as { votedFor: string }).votedFor,
      responseTimeMs: tiebreakerStage.responseTimeMs!,
      tiedLabels: (tiebreakerStage.parsedData as { tiedLabels: string[] }).tiedLabels,
      fallback: (tiebreakerStage.parsedData as { fallback?: boolean }).fallback ?? false,
    },
    winner: winner && {
      winnerLabel: winner.winnerLabel,
      winnerModel: winner.winnerModel,
      winnerKey: winnerKeyOf(winnerStage!, stage1.map((a) => ({ ...a, text: a.response }))),
      winnerResponse: winnerStage!.content,
      voteCount: winner.voteCount,
      totalVotes: winner.totalVotes,
      tiebroken: winner.tiebroken,
      tiebreakerModel: tiebreakerStage?.model ?? undefined,
    },
  };
}

/** A /revise run's result, read back from its stages. */
export async function loadDebateResult(history: HistoryStore, messageId: string) {
  return debateResultOf(await history.stagesOf(messageId));
}

function debateResultOf(stages: StageRow[]) {
  const initialAnswers = all(stages, "initial_answer").filter((s) => !failedAnswer(s));
  const revisedLabelMap = data<LabelMap>(find(stages, "revised_label_map"));
  const tally = data<TallyData>(find(stages, "debate_vote_tally"));
  const winnerStage = find(stages, "debate_winner");
  const revisions = all(stages, "revision").map((s) => {
    const parsed = s.parsedData as { decision: string | null; reasoning: string | null; originalWordCount: number; revisedWordCount: number; parseSuccess: boolean; restatement?: string; error?: string };
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
  const winner = data<{ winnerLabel: string; winnerModel: string; winnerDecision: string | null; voteCount: number; totalVotes: number; tiebroken: boolean }>(winnerStage);
  return {
    ...data<Panel & { antiAnchoring: boolean }>(find(stages, "debate_panel")),
    round1: answersOf(initialAnswers),
    round1Failed: failuresOf(all(stages, "initial_answer")),
    round1LabelMap: data<LabelMap>(find(stages, "round1_label_map")),
    revisions,
    revisionSummary: data<RevisionSummary>(find(stages, "revision_summary")),
    revisedLabelMap,
    votes: tally && {
      votes: votesOf(all(stages, "debate_vote")),
      tallies: tally.tallies,
      revisedLabelToModel: revisedLabelMap!,
      validVoteCount: tally.validVoteCount,
      invalidVoteCount: tally.invalidVoteCount,
      isTie: tally.isTie,
      tiedLabels: tally.tiedLabels,
    },
    winner: winner && {
      winnerLabel: winner.winnerLabel,
      winnerModel: winner.winnerModel,
      winnerKey: winnerKeyOf(winnerStage!, revisions.map((r) => ({ ...r, text: r.revisedResponse }))),
      winnerResponse: winnerStage!.content,
      winnerDecision: winner.winnerDecision,
      voteCount: winner.voteCount,
      totalVotes: winner.totalVotes,
      tiebroken: winner.tiebroken,
      tiebreakerMethod: winner.tiebroken ? ("alphabetical" as const) : undefined,
    },
  };
}

/** /debatt and /dvoice: participants, each round's answers, the votes, results, convergence and synthesis. */
export async function loadDebattResult(history: HistoryStore, messageId: string) {
  return debattResultOf(await history.stagesOf(messageId));
}

function debattResultOf(stages: StageRow[]) {
  const answers = all(stages, "debatt_answer");
  const synthesis = find(stages, "debatt_synthesis");
  return {
    ...data<{ topic: string; voiceMode: boolean; totalRounds: number; participants: { key: string; display: string; model: string }[] }>(find(stages, "debatt_participants")),
    rounds: [1, 2, 3].map((round) => ({
      round,
      answers: answers.filter((s) => s.stageOrder === round).map((s) => ({ model: s.model, text: s.content, ...(s.parsedData as object) })),
    })),
    votes: all(stages, "debatt_vote").map((s) => ({ model: s.model, ...(s.parsedData as object) })),
    results: data<Record<string, unknown>>(find(stages, "debatt_results")),
    convergence: data<Record<string, unknown>>(find(stages, "debatt_convergence")),
    synthesis: synthesis?.content,
  };
}

/** /deep: the label map, stage-1 answers, every round's arguments and moderation, the synthesis. */
export async function loadDeepResult(history: HistoryStore, messageId: string) {
  return deepResultOf(await history.stagesOf(messageId));
}

function deepResultOf(stages: StageRow[]) {
  const moderations = all(stages, "deep_moderation");
  const synthesis = find(stages, "deep_synthesis");
  const { finalError, ...output } = data<Record<string, unknown> & { finalError?: string }>(synthesis) ?? {};
  return {
    ...data<Panel & { minRounds: number; maxRounds: number }>(find(stages, "deep_panel")),
    labelMap: data<LabelMap>(find(stages, "deep_label_map")),
    stage1: answersOf(all(stages, "deep_initial_answer")),
    stage1Failed: failuresOf(all(stages, "deep_initial_answer")),
    rounds: moderations.map((m) => {
      const outcome = m.parsedData as { round: number };
      return {
        ...outcome,
        arguments: all(stages, "deep_argument")
          .filter((s) => s.stageOrder === 2 * outcome.round)
          .map((s) => ({ model: s.model, modelKey: participantKeyOf(s, outcome.round), responseTimeMs: s.responseTimeMs, ...(s.parsedData as object) })),
      };
    }),
    output: synthesis ? output : undefined,
    synthesis: synthesis?.content,
    /** Why the synthesis model failed (the consensus stood in), when it did. */
    synthesisError: finalError,
  };
}

/** /council: each round's verdicts and the consolidated result with its report. */
export async function loadCouncilResult(history: HistoryStore, messageId: string) {
  return councilResultOf(await history.stagesOf(messageId));
}

function councilResultOf(stages: StageRow[]) {
  const verdicts = (round: number) =>
    all(stages, "council_verdict")
      .filter((s) => s.stageOrder === round)
      .map((s) => ({ model: s.model, text: s.content, responseTimeMs: s.responseTimeMs, ...(s.parsedData as object) }));
  const result = find(stages, "council_result");
  const { finalError, ...consolidated } = data<Record<string, unknown> & { finalError?: string }>(result) ?? {};
  return {
    ...data<Panel & { perspectives: Record<string, string>; debate: boolean }>(find(stages, "council_panel")),
    round1: verdicts(1),
    round2: verdicts(2),
    result: result ? consolidated : undefined,
    report: result?.content,
    /** Why the report model failed (the plain consolidation stood in), when it did. */
    reportError: finalError,
  };
}

/** /compare: the answers side by side. */
export async function loadCompareResult(history: HistoryStore, messageId: string) {
  return compareResultOf(await history.stagesOf(messageId));
}

function compareResultOf(stages: StageRow[]) {
  return { ...data<Panel>(find(stages, "compare_panel")), answers: all(stages, "compare_answer").map((s) => ({ model: s.model, text: s.content, responseTimeMs: s.responseTimeMs, ...(s.parsedData as object) })) };
}

/** The mode whose rows these are (every mode has its own stage types); "chat" when there are none. */
export function modeOfStages(stages: StageRow[]): StoredMode {
  const type = stages[stages.length - 1]?.stageType ?? "";
  if (type.startsWith("debatt_")) return (find(stages, "debatt_participants")?.parsedData as { voiceMode?: boolean } | undefined)?.voiceMode ? "dvoice" : "debatt";
  if (type.startsWith("deep_")) return "deep";
  if (type.startsWith("council_")) return "council";
  if (type.startsWith("compare_")) return "compare";
  // A follow-up to one participant is a chat answer (its row says whose).
  if (type === "continue_answer") return "chat";
  if (["vote_panel", "label_map", "collect", "vote", "vote_tally", "tiebreaker", "winner"].includes(type)) return "vote";
  return type ? "debate" : "chat";
}

/** The stored mode and full result of one run (null for a chat message: it has no stages), from one read. */
export async function loadResult(history: HistoryStore, messageId: string): Promise<{ mode: StoredMode; result: unknown }> {
  const stages = await history.stagesOf(messageId);
  const mode = modeOfStages(stages);
  return { mode, result: resultOf(mode, stages) };
}

function resultOf(mode: StoredMode, stages: StageRow[]): unknown {
  switch (mode) {
    case "vote":
      return voteResultOf(stages);
    case "debate":
      return debateResultOf(stages);
    case "debatt":
    case "dvoice":
      return debattResultOf(stages);
    case "deep":
      return deepResultOf(stages);
    case "council":
      return councilResultOf(stages);
    case "compare":
      return compareResultOf(stages);
    case "chat":
      return continueResultOf(stages);
  }
}

/** A follow-up to one participant's answer: who answered, from which run, and the answer; null for any other chat answer. */
function continueResultOf(stages: StageRow[]) {
  const row = find(stages, "continue_answer");
  if (!row) return null;
  const { run_id, participant } = row.parsedData as { run_id: string; participant: { key: string; display: string; model: string } };
  return { continuation: { run_id, participant }, answer: row.content };
}

/** A message as the history API shows it; an answer carries its run's full result. */
export async function messageView(history: HistoryStore, m: MessageRow) {
  const base = { id: m.id, role: m.role, content: m.content, status: m.status, error: m.error, createdAt: m.createdAt.toISOString() };
  if (m.role !== "assistant") return base;
  // What the run cost, when it was counted (runs stored before it was have none).
  return { ...base, ...(await loadResult(history, m.id)), ...(m.usage ? { usage: m.usage } : {}) };
}

/** A conversation as the history API lists it. */
export function conversationSummary(c: ConversationRow) {
  return { id: c.id, title: c.title, mode: c.mode, createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString() };
}

/** A conversation as the history API shows it: with its messages, each answer with its full result. */
export async function conversationView(history: HistoryStore, c: ConversationRow) {
  const messages = await Promise.all((await history.messagesOf(c.id)).map((m) => messageView(history, m)));
  return { ...conversationSummary(c), messages };
}
