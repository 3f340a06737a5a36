import { notesFields } from "../state/answer.js";
import { participantKeyOf } from "./row-kit.js";
import { z } from "zod";
import { WhoSchema } from "../state/deliberation.js";
import { stageData, type StageRow } from "./stage.js";

/**
 * What the formats' codecs read their rows back with. They also read a run that is still going or
 * that stopped early: a stage that has not landed is absent (undefined), never a crash.
 */

/** A tally row's data. */
export const TallyDataSchema = z.object({
  tallies: z.record(z.string(), z.number()),
  validVoteCount: z.number(),
  invalidVoteCount: z.number(),
  isTie: z.boolean(),
  winners: z.array(z.string()),
  tiedLabels: z.array(z.string()),
});

/** Any row data that is an object (a result, an analysis), its fields as they were written. */
export const RecordSchema = z.record(z.string(), z.unknown());

/**
 * A row's data read with the schema of what its codec wrote: checked, not cast. Data that does not
 * read as that (a row written by another version, or damaged) is absent, as a stage that has not
 * landed is.
 */
export function data<S extends z.ZodType>(schema: S, stage: StageRow | undefined): z.infer<S> | undefined {
  if (!stage) return undefined;
  const parsed = schema.safeParse(stage.parsedData);
  return parsed.success ? parsed.data : undefined;
}
/** The first row of a type. */
export const find = (stages: StageRow[], type: string) => stages.find((s) => s.stageType === type);
/** Every row of a type. */
export const all = (stages: StageRow[], type: string) => stages.filter((s) => s.stageType === type);

/**
 * Who takes part in a deliberation format's run, as its `<mode>_panel` row has it (absent in runs
 * stored before it); each format extends it with what its start announced.
 */
export const PanelSchema = z.object({ question: z.string(), participants: z.array(WhoSchema), simulated: z.boolean() });

/** A winner row's data (/vote's; /revise's adds the winner's decision). */
export const WinnerDataSchema = z.object({
  winnerLabel: z.string(),
  winnerModel: z.string(),
  voteCount: z.number(),
  totalVotes: z.number(),
  tiebroken: z.boolean(),
});

/** A vote row's data. */
const VoteDataSchema = z.object({ votedFor: z.string().nullable(), error: z.string().optional(), anonymityBreach: z.array(z.string()).optional() });

/** A deliberation's votes, as the run streamed them. */
export function votesOf(stages: StageRow[]) {
  return stages.map((s) => {
    const parsed = data(VoteDataSchema, s) ?? { votedFor: null, error: "unreadable" };
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
export const failedAnswer = (s: StageRow) => typeof stageData(s).error === "string" && stageData(s).error !== "";

/** The answers that came (`modelKey` added, and the answer's reasoning, sources and ending when it had them). */
export function answersOf(stages: StageRow[]) {
  return stages
    .filter((s) => !failedAnswer(s))
    .map((s) => ({ model: s.model!, response: s.content, responseTimeMs: s.responseTimeMs!, modelKey: participantKeyOf(s), ...notesFields(s.parsedData) }));
}

/** The models whose first answer failed, and why, with what they had said (a run stopped while they answered). */
export function failuresOf(stages: StageRow[]) {
  return stages.filter(failedAnswer).map((s) => ({
    model: s.model!,
    modelKey: participantKeyOf(s),
    error: String(stageData(s).error),
    responseTimeMs: s.responseTimeMs!,
    ...(s.content ? { response: s.content } : {}),
  }));
}

/**
 * The participant key of a winner: the one whose answer the winner row holds (the answer is
 * stored as it won). The model id alone cannot say which, when a model was given twice.
 */
export function winnerKeyOf(winner: StageRow, answers: { model: string; modelKey: string; text: string }[]): string | undefined {
  return answers.find((a) => a.model === winner.model && a.text === winner.content)?.modelKey;
}
