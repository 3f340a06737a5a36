import { notesFields } from "../state/answer.js";
import { participantKeyOf } from "./row-kit.js";
import type { StageRow } from "./stage.js";

/**
 * What the formats' codecs read their rows back with. They also read a run that is still going or
 * that stopped early: a stage that has not landed is absent (undefined), never a crash.
 */

/** A tally row's data. */
export interface TallyData {
  tallies: Record<string, number>;
  validVoteCount: number;
  invalidVoteCount: number;
  isTie: boolean;
  winners: string[];
  tiedLabels: string[];
}

/** A row's data, as the type its codec wrote. */
export const data = <T>(stage: StageRow | undefined) => stage?.parsedData as T | undefined;
/** The first row of a type. */
export const find = (stages: StageRow[], type: string) => stages.find((s) => s.stageType === type);
/** Every row of a type. */
export const all = (stages: StageRow[], type: string) => stages.filter((s) => s.stageType === type);

/** Who takes part in a deliberation format's run, as its `<mode>_panel` row has it (absent in runs stored before it). */
export interface Panel {
  question: string;
  participants: { model: string; display: string; modelKey: string }[];
  simulated: boolean;
}

/** A deliberation's votes, as the run streamed them. */
export function votesOf(stages: StageRow[]) {
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

/** Whether an answer row is of a failed answer. */
export const failedAnswer = (s: StageRow) => Boolean((s.parsedData as { error?: string }).error);

/** The answers that came (`modelKey` added, and the answer's reasoning, sources and ending when it had them). */
export function answersOf(stages: StageRow[]) {
  return stages.filter((s) => !failedAnswer(s)).map((s) => ({ model: s.model!, response: s.content, responseTimeMs: s.responseTimeMs!, modelKey: participantKeyOf(s), ...notesFields(s.parsedData) }));
}

/** The models whose first answer failed, and why, with what they had said (a run stopped while they answered). */
export function failuresOf(stages: StageRow[]) {
  return stages
    .filter(failedAnswer)
    .map((s) => ({ model: s.model!, modelKey: participantKeyOf(s), error: (s.parsedData as { error: string }).error, responseTimeMs: s.responseTimeMs!, ...(s.content ? { response: s.content } : {}) }));
}

/**
 * The participant key of a winner: the one whose answer the winner row holds (the answer is
 * stored as it won). The model id alone cannot say which, when a model was given twice.
 */
export function winnerKeyOf(winner: StageRow, answers: { model: string; modelKey: string; text: string }[]): string | undefined {
  return answers.find((a) => a.model === winner.model && a.text === winner.content)?.modelKey;
}

