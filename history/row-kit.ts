import { notesFields } from "../state/answer.js";
import { inParticipantOrder, whoIs, type PanelState, type CollectedAnswer, type VoteResponse } from "../state/deliberation.js";
import type { NewStage } from "./stage.js";

/**
 * What the formats' codecs write their rows with: a builder that gives each row a stable id, and
 * the pieces several formats share (a panel, answers, votes, a tally, a final text's error).
 */

/** What a run's rows record besides its states: whether its participants were simulated. */
export interface RunFacts {
  simulated: boolean;
}

/**
 * The participant key at the end of a row's id (`<message>:<stage type>:<key>`, the key after
 * `<round>:` where the row has a round), as `Rows.add` builds it.
 */
export function participantKeyOf(row: Pick<NewStage, "id" | "messageId" | "stageType">, round?: number): string {
  return row.id.slice(`${row.messageId}:${row.stageType}:${round === undefined ? "" : `${round}:`}`.length);
}

type Fields = Pick<NewStage, "content"> & Partial<Pick<NewStage, "model" | "role" | "parsedData" | "responseTimeMs">>;

/** Builds the rows of one run, each with a stable id. */
export class Rows {
  readonly out: NewStage[] = [];
  constructor(private readonly messageId: string) {}
  add(stageType: string, stageOrder: number, seq: number, key: string, f: Fields): void {
    this.out.push({
      id: `${this.messageId}:${stageType}:${key}`,
      messageId: this.messageId,
      stageType,
      stageOrder,
      seq,
      model: f.model ?? null,
      role: f.role ?? null,
      content: f.content,
      parsedData: f.parsedData ?? null,
      responseTimeMs: f.responseTimeMs ?? null,
    });
  }
  /** A row of JSON reference data (label map, tally, summary): its content is the JSON. */
  data(stageType: string, stageOrder: number, parsedData: unknown, content: unknown = parsedData): void {
    this.add(stageType, stageOrder, 0, "0", { content: JSON.stringify(content), parsedData });
  }
}

/**
 * A deliberation format's `<mode>_panel` row (stage order -1, before the format's own rows), written
 * once its members are known: the question (without the command and its options), who takes part
 * (`{model, display, modelKey}`), whether they were simulated, and what the run's start event
 * announced besides (the chairman, the rounds, the perspectives…). It lets a reopened run show
 * names and options as it showed them live.
 */
export function panelRow(state: PanelState & { question: string }, rows: Rows, stageType: string, facts: RunFacts, extra: Record<string, unknown> = {}): void {
  if (state.members.length === 0) return;
  rows.data(stageType, -1, { question: state.question, participants: state.members.map(whoIs), simulated: facts.simulated, ...extra });
}

/**
 * Stage-1 answers in participant order, as `stageType` rows. A failed model's row has its error
 * (`{responseTimeMs, error}`) and what it answered, if anything; the `load…Result` queries leave
 * it out of the answers.
 */
export function answerRows(state: PanelState & { answers: CollectedAnswer[] }, rows: Rows, stageType: string, stageOrder: number): void {
  inParticipantOrder(state, state.answers, (a) => a.key).forEach((a, i) =>
    rows.add(stageType, stageOrder, i, a.key, {
      model: a.model,
      role: "respondent",
      content: a.response,
      parsedData: { responseTimeMs: a.responseTimeMs, ...(a.status === "error" ? { error: a.error ?? "error" } : {}), ...notesFields(a) },
      responseTimeMs: a.responseTimeMs,
    }),
  );
}

/** Votes in participant order: `{votedFor}`, plus why a vote is missing when the voter failed and the names a vote's text gave away. */
export function ballotRows(state: PanelState & { ballots: VoteResponse[] }, rows: Rows, stageType: string, stageOrder: number): void {
  inParticipantOrder(state, state.ballots, (v) => v.modelKey).forEach((v, i) =>
    rows.add(stageType, stageOrder, i, v.modelKey, {
      model: v.model,
      role: "voter",
      content: v.voteText,
      parsedData: {
        votedFor: v.votedFor,
        ...(v.error ? { error: v.error } : {}),
        ...(v.anonymityBreach.length > 0 ? { anonymityBreach: v.anonymityBreach } : {}),
      },
      responseTimeMs: v.responseTimeMs,
    }),
  );
}

/** A tally row: a short JSON (tallies, isTie, winners) as content, the whole tally as parsedData. */
export function tallyRow(
  rows: Rows,
  stageType: string,
  stageOrder: number,
  t: { tallies: Record<string, number>; validVoteCount: number; invalidVoteCount: number; isTie: boolean; tiedLabels: string[] },
): void {
  const top = Math.max(0, ...Object.values(t.tallies));
  const winners = Object.keys(t.tallies)
    .filter((label) => t.tallies[label] === top && top > 0)
    .sort();
  rows.data(
    stageType,
    stageOrder,
    { tallies: t.tallies, validVoteCount: t.validVoteCount, invalidVoteCount: t.invalidVoteCount, isTie: t.isTie, winners, tiedLabels: t.tiedLabels },
    { tallies: t.tallies, isTie: t.isTie, winners },
  );
}

/** A final text's data, with `finalError` when its model failed and a computed text stands in. */
export function withFinalError<T extends object | null>(data: T, error: string | null): T | (T & { finalError: string }) {
  return error && data ? { ...data, finalError: error } : data;
}
