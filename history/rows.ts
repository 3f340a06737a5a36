import { parseCommand } from "../nodes/router/resolve-intent.js";
import { countWords } from "../nodes/shared/text.js";
import { inParticipantOrder, labelToModel } from "../nodes/shared/outcomes.js";
import { summarizeRevisions } from "../nodes/revise/revise-relabel.js";
import type { State } from "../state/graph-state.js";
import { TOTAL_ROUNDS } from "../state/debate.js";
import type { NewStage } from "./store.js";

/**
 * The `deliberation_stages` rows of a run, computed from the graph state. Seeds 000 (/revise,
 * stored as mode "debate") and 001 (/vote) define their rows exactly; the other modes follow the
 * same shape with their own stage types (below). Rows appear as their stage lands in the state,
 * and each has a stable id, so writing them again (a resumed run) changes nothing.
 */

/** A conversation's mode as stored: the seeds' names for their formats, else the command. */
export type StoredMode = "debatt" | "dvoice" | "compare" | "vote" | "debate" | "deep" | "council" | "chat";

/** The stored mode of a message's run, from its command. */
export function modeOfMessage(message: string): StoredMode {
  const c = parseCommand(message);
  if (c.kind === "debate") return c.voice ? "dvoice" : "debatt";
  if (c.kind === "compare") return "compare";
  // Seed 000 calls /revise "debate".
  if (c.kind === "deliberation") return c.mode === "revise" ? "debate" : c.mode;
  return "chat";
}

/** A conversation's title until a run generates one (seeds 000/001): its first question, shortened. */
export function titleOf(question: string): string {
  const text = question.replace(/^\/\S+\s+(--\S+\s+)*/, "").replace(/\s+/g, " ").trim() || question.trim();
  return [...text].length > 80 ? `${[...text].slice(0, 79).join("").trimEnd()}…` : text;
}

/** The id the state gives its current run of `route` (the planners set it to the run id), or null. */
export function runIdOf(state: State): string | null {
  switch (state.route) {
    case "debate":
      return state.debate_id;
    case "compare":
      return state.compare_id;
    case "vote":
    case "revise":
    case "deep":
    case "council":
      return state.deliberation_id;
    default:
      return null;
  }
}

type Fields = Pick<NewStage, "content"> & Partial<Pick<NewStage, "model" | "role" | "parsedData" | "responseTimeMs">>;

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
 * The rows `state` holds for the run `messageId`. Nothing while the state still holds an earlier
 * run of the thread (its id differs), so a follow-up never writes its predecessor's rows again.
 */
export function stageRows(state: State, messageId: string): NewStage[] {
  if (runIdOf(state) !== messageId) return [];
  const rows = new Rows(messageId);
  switch (state.route) {
    case "vote":
      voteRows(state, rows);
      break;
    case "revise":
      reviseRows(state, rows);
      break;
    case "deep":
      deepRows(state, rows);
      break;
    case "council":
      councilRows(state, rows);
      break;
    case "compare":
      compareRows(state, rows);
      break;
    case "debate":
      debattRows(state, rows);
      break;
  }
  return rows.out;
}

/** Stage-1 answers that succeeded, in participant order, as `stageType` rows (seeds: failed models are excluded). */
function answerRows(state: State, rows: Rows, stageType: string, stageOrder: number): void {
  const ok = inParticipantOrder(state, state.deliberation_answers, (a) => a.key).filter((a) => a.status === "ok");
  ok.forEach((a, i) =>
    rows.add(stageType, stageOrder, i, a.key, { model: a.model, role: "respondent", content: a.response, parsedData: { responseTimeMs: a.responseTimeMs }, responseTimeMs: a.responseTimeMs }),
  );
}

/** Votes in participant order: `{votedFor}`, plus why a vote is missing when the voter failed. */
function ballotRows(state: State, rows: Rows, stageType: string, stageOrder: number): void {
  inParticipantOrder(state, state.vote_ballots, (v) => v.modelKey).forEach((v, i) =>
    rows.add(stageType, stageOrder, i, v.modelKey, {
      model: v.model,
      role: "voter",
      content: v.voteText,
      parsedData: { votedFor: v.votedFor, ...(v.error ? { error: v.error } : {}) },
      responseTimeMs: v.responseTimeMs,
    }),
  );
}

/** A tally row: the seeds' short JSON as content, the whole tally as parsedData. */
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

/** Seed 001 §G: label_map 0, collect 1, vote 2, vote_tally 3, tiebreaker 4 (ties only), winner 5. */
function voteRows(state: State, rows: Rows): void {
  if (Object.keys(state.deliberation_labels).length > 0) rows.data("label_map", 0, labelToModel(state, state.deliberation_labels));
  answerRows(state, rows, "collect", 1);
  ballotRows(state, rows, "vote", 2);
  if (state.vote_round) tallyRow(rows, "vote_tally", 3, state.vote_round);
  const tb = state.vote_tiebreaker;
  if (tb && state.vote_round) {
    const tiedLabels = state.vote_round.tiedLabels;
    rows.add("tiebreaker", 4, 0, "0", {
      model: tb.model,
      role: "chairman",
      content: tb.voteText,
      parsedData: { votedFor: tb.votedFor, tiedLabels, tiedVoteCount: state.vote_round.tallies[tiedLabels[0]] ?? 0 },
      responseTimeMs: tb.responseTimeMs,
    });
  }
  const w = state.vote_winner;
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
 * Seed 000 §G: round1_label_map 0, initial_answer 1, revision 2, revision_summary 3,
 * revised_label_map 4, debate_vote 5, debate_vote_tally 6, debate_winner 7.
 */
function reviseRows(state: State, rows: Rows): void {
  if (Object.keys(state.revise_round1_labels).length > 0) rows.data("round1_label_map", 0, labelToModel(state, state.revise_round1_labels));
  answerRows(state, rows, "initial_answer", 1);
  const revisions = inParticipantOrder(state, state.revise_revisions, (r) => r.modelKey);
  revisions.forEach((r, i) =>
    rows.add("revision", 2, i, r.modelKey, {
      model: r.model,
      role: "debater",
      // A failed revision keeps the original answer (seed 000 §F), which is what the seed's loader reads back.
      content: r.revisionText || r.revisedResponse,
      parsedData: {
        decision: r.decision,
        reasoning: r.reasoning,
        originalWordCount: r.originalWordCount,
        revisedWordCount: r.revisedWordCount,
        parseSuccess: r.parseSuccess,
        ...(r.error ? { error: r.error } : {}),
      },
      responseTimeMs: r.responseTimeMs,
    }),
  );
  // The revised labels are drawn in the step after the revisions (the planner empties them).
  if (Object.keys(state.deliberation_labels).length === 0) return;
  rows.data("revision_summary", 3, summarizeRevisions(revisions));
  rows.data("revised_label_map", 4, labelToModel(state, state.deliberation_labels));
  ballotRows(state, rows, "debate_vote", 5);
  if (state.revise_vote) tallyRow(rows, "debate_vote_tally", 6, state.revise_vote);
  const w = state.revise_winner;
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
 * /deep (seed 004 gives no rows; the same shape): deep_label_map 0 (Debater X → model),
 * deep_initial_answer 1, then per round r deep_argument 2r and deep_moderation 2r+1, and
 * deep_synthesis after the last possible round.
 */
function deepRows(state: State, rows: Rows): void {
  if (Object.keys(state.deliberation_labels).length > 0) rows.data("deep_label_map", 0, labelToModel(state, state.deliberation_labels));
  answerRows(state, rows, "deep_initial_answer", 1);
  const turns = [...state.deep_turns].sort((a, b) => a.round - b.round || a.label.localeCompare(b.label));
  turns.forEach((t, i) =>
    rows.add("deep_argument", 2 * t.round, i, `${t.round}:${t.modelKey}`, {
      model: t.model,
      role: "debater",
      content: t.argument ? JSON.stringify(t.argument) : "",
      parsedData: { round: t.round, label: t.label, status: t.status, ...(t.argument ?? {}), ...(t.error ? { error: t.error } : {}) },
      responseTimeMs: t.responseTimeMs,
    }),
  );
  for (const o of state.deep_outcomes) {
    rows.add("deep_moderation", 2 * o.round + 1, 0, String(o.round), { role: "moderator", content: JSON.stringify(o.assessment), parsedData: o });
  }
  if (state.deep_synthesis !== null) {
    rows.add("deep_synthesis", 2 * state.deep_max_rounds + 2, 0, "0", { role: "synthesizer", content: state.deep_synthesis, parsedData: state.deep_output });
  }
}

/** /council (seed 002 gives no rows): council_verdict 1 and 2 (the rounds), council_result 3 (the report). */
function councilRows(state: State, rows: Rows): void {
  const judges = inParticipantOrder(state, state.council_rounds, (j) => j.modelKey).sort((a, b) => a.round - b.round);
  judges.forEach((j, i) => {
    const { text, model, responseTimeMs, ...rest } = j;
    rows.add("council_verdict", j.round, i, `${j.round}:${j.modelKey}`, { model, role: "judge", content: text, parsedData: rest, responseTimeMs });
  });
  if (state.council_result && state.council_report !== null) {
    rows.add("council_result", 3, 0, "0", { role: "consolidator", content: state.council_report, parsedData: state.council_result });
  }
}

/** /compare: compare_answer 1, one per participant (failed ones too, with their error). */
function compareRows(state: State, rows: Rows): void {
  const order = new Map(state.compare_participants.map((p, i) => [p.key, i]));
  const models = new Map(state.compare_participants.map((p) => [p.key, p.model]));
  [...state.compare_answers]
    .sort((a, b) => order.get(a.key)! - order.get(b.key)!)
    .forEach((a, i) => {
      const { text, latency_ms, ...rest } = a;
      rows.add("compare_answer", 1, i, a.key, { model: models.get(a.key) ?? null, role: "respondent", content: text, parsedData: rest, responseTimeMs: latency_ms });
    });
}

/**
 * /debatt and /dvoice (seed 003 keeps no history; the same shape): debatt_participants 0,
 * debatt_answer 1–3 (the round; every turn, failed ones with what they streamed), debatt_vote 4,
 * debatt_results 5, debatt_convergence 6, debatt_synthesis 7.
 */
function debattRows(state: State, rows: Rows): void {
  const participants = state.debate_participants;
  if (participants.length === 0) return;
  const modelOf = new Map(participants.map((p) => [p.key, p.model]));
  rows.data("debatt_participants", 0, {
    topic: state.debate_topic,
    voiceMode: state.voice_mode,
    totalRounds: TOTAL_ROUNDS,
    participants: participants.map((p) => ({ key: p.key, display: p.display, model: p.model })),
  });
  const turns = [...state.debate_turns].sort((a, b) => a.round - b.round || a.position - b.position);
  for (const t of turns) {
    const text = t.status === "ok" ? (state.debate_round_responses[t.round]?.[t.display] ?? "") : (t.partial_text ?? "");
    rows.add("debatt_answer", t.round, t.position, `${t.round}:${t.key}`, {
      model: modelOf.get(t.key) ?? null,
      role: "debater",
      content: text,
      parsedData: { round: t.round, position: t.position, modelKey: t.key, display: t.display, status: t.status, wordCount: t.word_count, latencyMs: t.latency_ms, ...(t.error ? { error: t.error } : {}) },
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

/** The assistant message of a finished run: the answer the user reads. */
export function answerText(state: State): string {
  switch (state.route) {
    case "debate":
      return state.debate_synthesis ?? "";
    case "vote":
      return state.vote_winner?.winnerResponse ?? "";
    case "revise":
      return state.revise_winner?.winnerResponse ?? "";
    case "deep":
      return state.deep_synthesis ?? "";
    case "council":
      return state.council_report ?? "";
    case "compare":
      return state.compare_answers
        .filter((a) => a.status === "ok")
        .map((a) => `### ${a.display}\n\n${a.text}`)
        .join("\n\n");
    case "supervisor": {
      const last = state.messages[state.messages.length - 1];
      return last && last.getType() === "ai" && typeof last.content === "string" ? last.content : "";
    }
    default:
      return "";
  }
}
