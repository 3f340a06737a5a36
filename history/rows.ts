import { notesFields } from "../state/answer.js";
import { shortTitle } from "../state/replies/title.js";
import type { CompareStateType } from "../state/compare.js";
import type { CouncilStateType } from "../state/council.js";
import { TOTAL_ROUNDS } from "../state/debate.js";
import type { DeepStateType } from "../state/deep.js";
import { inParticipantOrder, labelToModel, whoIs, type PanelState, type CollectedAnswer, type VoteResponse } from "../state/deliberation.js";
import { parseCommand, formatOfCommand } from "../state/commands.js";
import { FORMATS, type StoredMode } from "../state/formats.js";
import type { State } from "../state/graph-state.js";
import { summarizeRevisions, type ReviseStateType } from "../state/revise.js";
import { countWords } from "../state/text.js";
import type { VoteStateType } from "../state/vote.js";
import type { NewStage } from "./store.js";

/**
 * The `deliberation_stages` rows of a run, computed from the graph's states: the top graph's for
 * /debatt and /dvoice, each format subgraph's own for the others. /revise (stored as mode
 * "debate") and /vote have fixed stage types and orders, which history/load.ts reads back; the
 * other modes follow the same shape with their own stage types (below). Rows appear as their
 * stage lands in the state, and each has a stable id, so writing them again (a resumed run)
 * changes nothing. A row of one participant has an id ending with the participant's key (after the
 * round, `2:call_gpt`, where a participant has one row per round), which `history/load.ts` reads
 * back to tell participants that share a model apart.
 */

/** What a run's rows record besides its states: whether its participants were simulated. */
export interface RunFacts {
  simulated: boolean;
}

/** The stored mode of a message's run, from its command. */
export function modeOfMessage(message: string): StoredMode {
  const format = formatOfCommand(parseCommand(message));
  return format ? FORMATS[format].storedMode : "chat";
}

/** A conversation's title until a run generates one: its first question, shortened. */
export function titleOf(question: string): string {
  const text = question.replace(/^\/\S+\s+(--\S+\s+)*/, "").replace(/\s+/g, " ").trim() || question.trim();
  return [...text].length > 80 ? shortTitle(text, 80) : text;
}

/** The id of the run the top graph's state holds (the debate's id, or the format run's), or null. */
export function runIdOf(state: State): string | null {
  switch (state.route) {
    case "debate":
      return state.debate_id;
    case "continue":
      return state.run_id;
    case "supervisor":
    case "usage":
    case null:
      return null;
    default:
      // A format's subgraph.
      return state.run_id;
  }
}

type Fields = Pick<NewStage, "content"> & Partial<Pick<NewStage, "model" | "role" | "parsedData" | "responseTimeMs">>;

/**
 * The participant key at the end of a row's id (`<message>:<stage type>:<key>`, the key after
 * `<round>:` where the row has a round), as `Rows.add` builds it.
 */
export function participantKeyOf(row: Pick<NewStage, "id" | "messageId" | "stageType">, round?: number): string {
  return row.id.slice(`${row.messageId}:${row.stageType}:${round === undefined ? "" : `${round}:`}`.length);
}

/** Builds the rows of one run, each with a stable id. */
class Rows {
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
 * The rows a state holds for the run `messageId`: the top graph's (`namespace` empty) for a
 * debate, a format subgraph's (`namespace` names it, e.g. `vote:<task id>`) for the others.
 * Nothing for a state of another run (the top graph keeps an earlier debate until the next one
 * is planned), so a follow-up never writes its predecessor's rows again.
 */
export function stageRows(state: Record<string, unknown>, namespace: readonly string[], messageId: string, facts: RunFacts = { simulated: false }): NewStage[] {
  const rows = new Rows(messageId);
  if (namespace.length === 0) {
    const root = state as State;
    if (root.route === "debate" && root.debate_id === messageId) debattRows(root, rows, facts);
    if (root.route === "continue" && root.run_id === messageId) continueRow(root, rows, facts);
    return rows.out;
  }
  if (namespace.length > 1 || state.run_id !== messageId) return [];
  switch (namespace[0].split(":")[0]) {
    case "vote": {
      const vote = state as VoteStateType;
      panelRow(vote, rows, "vote_panel", facts, vote.chairman ? { chairman: whoIs(vote.chairman) } : {});
      voteRows(vote, rows);
      break;
    }
    case "revise": {
      const revise = state as ReviseStateType;
      panelRow(revise, rows, "debate_panel", facts, { antiAnchoring: revise.options.antiAnchoring });
      reviseRows(revise, rows);
      break;
    }
    case "deep": {
      const deep = state as DeepStateType;
      panelRow(deep, rows, "deep_panel", facts, { minRounds: FORMATS.deep.rounds.min, maxRounds: deep.options.maxRounds });
      deepRows(deep, rows);
      break;
    }
    case "council": {
      const council = state as CouncilStateType;
      panelRow(council, rows, "council_panel", facts, { perspectives: council.perspectives, debate: council.options.debate });
      councilRows(council, rows);
      break;
    }
    case "compare":
      panelRow(state as CompareStateType, rows, "compare_panel", facts);
      compareRows(state as CompareStateType, rows);
      break;
  }
  return rows.out;
}

/**
 * A deliberation format's `<mode>_panel` row (stage order -1, before the format's own rows), written
 * once its members are known: the question (without the command and its options), who takes part
 * (`{model, display, modelKey}`), whether they were simulated, and what the run's start event
 * announced besides (the chairman, the rounds, the perspectives…). It lets a reopened run show
 * names and options as it showed them live.
 */
function panelRow(state: PanelState & { question: string }, rows: Rows, stageType: string, facts: RunFacts, extra: Record<string, unknown> = {}): void {
  if (state.members.length === 0) return;
  rows.data(stageType, -1, { question: state.question, participants: state.members.map(whoIs), simulated: facts.simulated, ...extra });
}

/**
 * Stage-1 answers in participant order, as `stageType` rows. A failed model's row has its error
 * (`{responseTimeMs, error}`) and what it answered, if anything; the `load…Result` queries leave
 * it out of the answers.
 */
function answerRows(state: PanelState & { answers: CollectedAnswer[] }, rows: Rows, stageType: string, stageOrder: number): void {
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
function ballotRows(state: PanelState & { ballots: VoteResponse[] }, rows: Rows, stageType: string, stageOrder: number): void {
  inParticipantOrder(state, state.ballots, (v) => v.modelKey).forEach((v, i) =>
    rows.add(stageType, stageOrder, i, v.modelKey, {
      model: v.model,
      role: "voter",
      content: v.voteText,
      parsedData: { votedFor: v.votedFor, ...(v.error ? { error: v.error } : {}), ...(v.anonymityBreach.length > 0 ? { anonymityBreach: v.anonymityBreach } : {}) },
      responseTimeMs: v.responseTimeMs,
    }),
  );
}

/** A tally row: a short JSON (tallies, isTie, winners) as content, the whole tally as parsedData. */
function tallyRow(rows: Rows, stageType: string, stageOrder: number, t: { tallies: Record<string, number>; validVoteCount: number; invalidVoteCount: number; isTie: boolean; tiedLabels: string[] }): void {
  const top = Math.max(0, ...Object.values(t.tallies));
  const winners = Object.keys(t.tallies).filter((label) => t.tallies[label] === top && top > 0).sort();
  rows.data(
    stageType,
    stageOrder,
    { tallies: t.tallies, validVoteCount: t.validVoteCount, invalidVoteCount: t.invalidVoteCount, isTie: t.isTie, winners, tiedLabels: t.tiedLabels },
    { tallies: t.tallies, isTie: t.isTie, winners },
  );
}

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
      parsedData: { winnerLabel: w.winnerLabel, winnerModel: w.winnerModel, winnerDecision: w.winnerDecision, voteCount: w.voteCount, totalVotes: w.totalVotes, tiebroken: w.tiebroken },
    });
  }
}

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
    rows.add("deep_synthesis", 2 * state.options.maxRounds + 2, 0, "0", { role: "synthesizer", content: state.answer, parsedData: withFinalError(state.output, state.final_error) });
  }
}

/** A final text's data, with `finalError` when its model failed and a computed text stands in. */
function withFinalError<T extends object | null>(data: T, error: string | null): T | (T & { finalError: string }) {
  return error && data ? { ...data, finalError: error } : data;
}

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

/** /compare: compare_panel -1, compare_answer 1, one per participant (failed ones too, with their error). */
function compareRows(state: CompareStateType, rows: Rows): void {
  const order = new Map(state.members.map((p, i) => [p.key, i]));
  const models = new Map(state.members.map((p) => [p.key, p.model]));
  [...state.answers]
    .sort((a, b) => order.get(a.key)! - order.get(b.key)!)
    .forEach((a, i) => {
      const { text, latency_ms, ...rest } = a;
      rows.add("compare_answer", 1, i, a.key, { model: models.get(a.key) ?? null, role: "respondent", content: text, parsedData: rest, responseTimeMs: latency_ms });
    });
}

/**
 * /debatt and /dvoice (the same shape): debatt_participants 0,
 * debatt_answer 1–3 (the round; every turn, failed ones with what they streamed), debatt_vote 4,
 * debatt_results 5, debatt_convergence 6, debatt_synthesis 7.
 */
function debattRows(state: State, rows: Rows, facts: RunFacts): void {
  const participants = state.debate_participants;
  if (participants.length === 0) return;
  const modelOf = new Map(participants.map((p) => [p.key, p.model]));
  rows.data("debatt_participants", 0, {
    topic: state.debate_topic,
    voiceMode: state.voice_mode,
    totalRounds: TOTAL_ROUNDS,
    participants: participants.map((p) => ({ key: p.key, display: p.display, model: p.model, ...(p.person ? { person: true } : {}) })),
    simulated: facts.simulated,
  });
  const turns = [...state.debate_turns].sort((a, b) => a.round - b.round || a.position - b.position);
  for (const t of turns) {
    const text = t.status === "ok" ? (state.debate_round_responses[t.round]?.[t.display] ?? "") : (t.partial_text ?? "");
    rows.add("debatt_answer", t.round, t.position, `${t.round}:${t.key}`, {
      model: modelOf.get(t.key) ?? null,
      role: "debater",
      content: text,
      parsedData: { round: t.round, position: t.position, modelKey: t.key, display: t.display, status: t.status, wordCount: t.word_count, latencyMs: t.latency_ms, ...(t.error ? { error: t.error } : {}), ...notesFields(t) },
      responseTimeMs: t.latency_ms,
    });
  }
  const order = new Map(participants.map((p, i) => [p.key, i]));
  [...state.debate_votes]
    .sort((a, b) => order.get(a.voter_key)! - order.get(b.voter_key)!)
    .forEach((b, i) => {
      const vote = { voted_for: b.voted_for, short_motivation: b.motivation, three_bullets: b.bullets };
      rows.add("debatt_vote", 4, i, b.voter_key, {
        model: modelOf.get(b.voter_key) ?? null,
        role: "voter",
        content: JSON.stringify(vote),
        parsedData: { voter: b.voter, votedFor: b.voted_for, motivation: b.motivation, bullets: b.bullets, valid: b.valid, ...(b.invalid_reason ? { invalidReason: b.invalid_reason } : {}) },
      });
    });
  const results = state.debate_results;
  if (results) {
    const { analysis, analysis_error, ...computed } = results;
    rows.data("debatt_results", 5, computed);
    rows.data("debatt_convergence", 6, analysis ?? { error: analysis_error ?? "no analysis" });
  }
  if (state.debate_synthesis !== null) {
    rows.add("debatt_synthesis", 7, 0, "0", {
      role: "synthesizer",
      content: state.debate_synthesis,
      parsedData: { winner: results?.winner ?? null, synthesisLength: state.debate_synthesis.length, wordCount: countWords(state.debate_synthesis) },
    });
  }
}

/**
 * A follow-up to one participant of a finished run: `continue_answer` 1, its answer under the
 * participant (`{run_id, participant}` of the run it went on from), once the answer is in.
 */
function continueRow(state: State, rows: Rows, facts: RunFacts): void {
  const c = state.continuation;
  if (!c || state.answer === null) return;
  rows.add("continue_answer", 1, 0, c.participant.key, {
    model: c.participant.model,
    role: "respondent",
    content: state.answer,
    parsedData: { run_id: c.run_id, participant: c.participant, ...(facts.simulated ? { simulated: true } : {}) },
  });
}

/**
 * The assistant message of a finished run, from the top graph's state: the answer the user reads
 * (a format subgraph hands its answer back as `answer`).
 */
export function answerText(state: State): string {
  switch (state.route) {
    case "debate":
      return state.debate_synthesis ?? "";
    case "supervisor": {
      const last = state.messages[state.messages.length - 1];
      return last && last.getType() === "ai" && typeof last.content === "string" ? last.content : "";
    }
    default:
      return state.answer ?? "";
  }
}
