import { ROUND_TYPES } from "../state/formats.js";
import { skipReasonOf } from "../state/person.js";
import { parseCommand } from "../state/commands.js";
import type { ClientEvent } from "../state/events.js";
import type { AnswerNotes } from "../state/answer.js";
import { notesFields } from "../state/answer.js";

/**
 * A run read back from the history, replayed as the events it streamed, so that a conversation
 * reopened from `#history` shows the same view it showed live (the arena, the cards side by side…)
 * through the same reducers. Built from the stored result (`GET /api/v1/conversations/:id` gives
 * each answer's `mode` and `result`); the run's event log has expired by then.
 */

/** A /debatt or /dvoice result as the history stores it. */
interface DebattResult {
  topic?: string;
  voiceMode?: boolean;
  simulated?: boolean;
  participants?: { key: string; display: string; model: string }[];
  rounds: { round: number; answers: ({ modelKey: string; display: string; text: string; position: number; status: "ok" | "error"; wordCount: number; latencyMs: number; error?: string } & AnswerNotes)[] }[];
  votes: { voter: string; votedFor: string; motivation: string; bullets: string[]; valid: boolean }[];
  results?: Record<string, unknown>;
  synthesis?: string;
}

/** A /compare result as the history stores it. */
interface CompareResult {
  answers: ({ key: string; display: string; text: string; status: "ok" | "error"; word_count: number; responseTimeMs: number; error?: string } & AnswerNotes)[];
}

type Who = { model: string; display: string; modelKey: string };
/** A first answer, with the reasoning, sources and ending it was stored with (passed on as they are: the reducers check them). */
type Answer = { model: string; modelKey: string; response: string; responseTimeMs: number } & AnswerNotes;
type Failure = { model: string; modelKey: string; error: string; response?: string };
type Ballot = { model: string; modelKey: string; voteText: string; votedFor: string | null; responseTimeMs: number; error?: string; anonymityBreach?: string[] };
type Tally = { votes: Ballot[]; tallies: Record<string, number>; validVoteCount: number; invalidVoteCount: number; isTie: boolean; tiedLabels: string[] };
type StoredWinner = { winnerLabel: string; winnerModel: string; winnerKey?: string; winnerResponse: string; voteCount: number; totalVotes: number; tiebroken: boolean };

/** Who takes part, as a deliberation format's result has it (runs stored before it lack it). */
interface Panel {
  /** The question without its command and options. */
  question?: string;
  participants?: Who[];
  simulated?: boolean;
}

/** A /vote result as the history stores it. */
interface VoteResult extends Panel {
  chairman?: Who;
  stage1: Answer[];
  stage1Failed?: Failure[];
  voteRound?: Tally & { labelToModel: Record<string, string> };
  tiebreaker?: { model: string; voteText: string; votedFor: string; responseTimeMs: number; tiedLabels?: string[]; fallback?: boolean };
  winner?: StoredWinner & { tiebreakerModel?: string };
}

/** A /revise result as the history stores it. */
interface ReviseResult extends Panel {
  antiAnchoring?: boolean;
  round1: Answer[];
  round1Failed?: Failure[];
  round1LabelMap?: Record<string, string>;
  revisions: (Record<string, unknown> & { model: string; modelKey?: string; revisionText?: string; error?: string })[];
  revisionSummary?: Record<string, number>;
  votes?: Tally & { revisedLabelToModel: Record<string, string> };
  winner?: StoredWinner & { winnerDecision: string | null; tiebreakerMethod?: "alphabetical" };
}

/** A /deep result as the history stores it. */
interface DeepResult extends Panel {
  minRounds?: number;
  maxRounds?: number;
  labelMap?: Record<string, string>;
  stage1: Answer[];
  stage1Failed?: Failure[];
  rounds: { round: number; assessment: unknown; moderatorError?: string; stop: boolean; reason: string; arguments: (Record<string, unknown> & { model: string; modelKey?: string; label: string; status: string; responseTimeMs: number; error?: string })[] }[];
  output?: Record<string, unknown>;
  synthesis?: string;
  synthesisError?: string;
}

/** A /council result as the history stores it. */
interface CouncilResult extends Panel {
  perspectives?: Record<string, string>;
  debate?: boolean;
  round1: (Record<string, unknown> & { modelKey: string; display: string; model: string; perspective: string })[];
  round2: CouncilResult["round1"];
  result?: Record<string, unknown> & { branch?: string };
  report?: string;
  reportError?: string;
}

const at = new Date(0).toISOString();

/** A turn or answer that was still streaming when its run was stopped (kept with what it had said). */
const stopped = (a: { error?: string }) => a.error === "cancelled";

/** The events of a stored /debatt or /dvoice run. */
function debattEvents(id: string, r: DebattResult): ClientEvent[] {
  const participants = (r.participants ?? []).map((p) => ({ ...p, oneseek: false }));
  const events: unknown[] = [{ event: "debate-init", data: { participants, topic: r.topic ?? "", total_rounds: 4, voice_mode: r.voiceMode ?? false, debate_id: id, simulated: r.simulated ?? false, timestamp: at } }];
  for (const { round, answers } of r.rounds) {
    if (answers.length === 0) continue;
    const spoken = [...answers].sort((a, b) => a.position - b.position);
    events.push({ event: "debate-round-start", data: { round, type: ROUND_TYPES[round - 1], order: spoken.map((a) => a.display), timestamp: at } });
    for (const a of spoken) {
      const who = { model: a.display, model_key: a.modelKey, round };
      // The person's seat, skipped: said as it was live.
      const skip = skipReasonOf(a.error);
      if (skip) {
        events.push({ event: "debate-input-skipped", data: { kind: "turn", round, participant: a.display, reason: skip, timestamp: at } });
        continue;
      }
      events.push({ event: "debate-participant-start", data: { ...who, position: a.position, timestamp: at } });
      if (a.text) events.push({ event: "debate-participant-delta", data: { ...who, delta: a.text, timestamp: at } });
      // A turn the stop cut short ends there, as it did live: no end, and its round does not end either.
      if (stopped(a)) continue;
      events.push({
        event: "debate-participant-end",
        data: { ...who, position: a.position, word_count: a.wordCount, latency_ms: a.latencyMs, response_preview: "", status: a.status, ...(a.error ? { error: a.error } : {}), ...notesFields(a), timestamp: at },
      });
    }
    if (!answers.some(stopped)) events.push({ event: "debate-round-end", data: { round, participant_count: answers.filter((a) => a.status === "ok").length, timestamp: at } });
  }
  if (r.votes.length > 0 || r.results) {
    events.push({ event: "debate-round-start", data: { round: 4, type: "voting", order: (r.participants ?? []).map((p) => p.display), timestamp: at } });
    for (const v of r.votes.filter((v) => v.valid)) events.push({ event: "debate-vote-result", data: { voter: v.voter, voted_for: v.votedFor, motivation: v.motivation, bullets: v.bullets, timestamp: at } });
  }
  if (r.results) events.push({ event: "debate-results", data: { ...r.results, timestamp: at } });
  if (r.synthesis) events.push({ event: "text-delta", data: { delta: r.synthesis, timestamp: at } });
  return events as ClientEvent[];
}

/** The events of a stored /compare run. */
function compareEvents(question: string, r: CompareResult & Panel): ClientEvent[] {
  const participants = r.answers.map((a) => ({ key: a.key, display: a.display, model: "" }));
  const events: unknown[] = [{ event: "compare-start", data: { question, participants, simulated: r.simulated ?? false, timestamp: at } }];
  for (const a of r.answers) {
    const who = { model: a.display, model_key: a.key };
    events.push({ event: "compare-answer-start", data: { ...who, timestamp: at } });
    if (a.text) events.push({ event: "compare-answer-delta", data: { ...who, delta: a.text, timestamp: at } });
    if (stopped(a)) continue;
    events.push({ event: "compare-answer-end", data: { ...who, word_count: a.word_count, latency_ms: a.responseTimeMs, status: a.status, ...(a.error ? { error: a.error } : {}), ...notesFields(a), timestamp: at } });
  }
  if (!r.answers.some(stopped)) events.push({ event: "compare-complete", data: { answered: r.answers.filter((a) => a.status === "ok").length, failed: r.answers.filter((a) => a.status === "error").length, timestamp: at } });
  return events as ClientEvent[];
}

/**
 * Names the participants of a stored deliberation run: its panel's, else (a run stored before the
 * panel was) each model that spoke, under its model id.
 */
function namesOf(r: Panel, spoke: { model: string; modelKey: string }[]) {
  const participants = r.participants ?? [...new Map(spoke.map((a) => [a.modelKey, { model: a.model, display: a.model, modelKey: a.modelKey }])).values()];
  const who = (modelKey: string, model = ""): Who => participants.find((p) => p.modelKey === modelKey) ?? { model, display: model || modelKey, modelKey };
  /** The winner's name: its participant's, else (no answer matched its row) the first participant of its model. */
  const displayOf = (key: string | undefined, model: string) => (key ? who(key, model).display : (participants.find((p) => p.model === model)?.display ?? model));
  return { participants, who, displayOf };
}

type Names = ReturnType<typeof namesOf>;

/**
 * The first answers of a stored deliberation run: the stage's complete event, or (a run stopped
 * before the stage ended, whose answers are all kept as cancelled) each answer as the text it had
 * streamed, as the page showed it when the run stopped.
 */
function firstAnswers(event: string, mode: string, names: Names, answers: Answer[], failed: Failure[] = []): unknown[] {
  if (answers.length === 0 && failed.length > 0 && failed.every((f) => f.error === "cancelled")) {
    return failed.filter((f) => f.response).map((f) => ({ event: "answer-delta", data: { mode, stage: "collect", ...names.who(f.modelKey, f.model), delta: f.response, timestamp: at } }));
  }
  const data = answers.map((a) => ({ ...a, display: names.who(a.modelKey, a.model).display }));
  return [{ event, data: { data, failed: failed.map((f) => ({ ...names.who(f.modelKey, f.model), error: f.error })), timestamp: at } }];
}

/** A counted vote as `vote-round-complete` and `vote-complete` carry it (without the label map). */
function counted(names: Names, t: Tally) {
  const votes = t.votes.map((b) => ({ ...b, display: names.who(b.modelKey, b.model).display, anonymityBreach: b.anonymityBreach ?? [] }));
  const { tallies, validVoteCount, invalidVoteCount, isTie, tiedLabels } = t;
  return { votes, tallies, validVoteCount, invalidVoteCount, isTie, tiedLabels, anonymityFlagged: votes.filter((v) => v.anonymityBreach.length > 0).length };
}

/** The events of a stored /vote run. */
function voteEvents(id: string, question: string, r: VoteResult): unknown[] {
  const names = namesOf(r, [...r.stage1, ...(r.stage1Failed ?? []), ...(r.voteRound?.votes ?? [])]);
  const chairman = r.chairman ?? { model: r.tiebreaker?.model ?? "", display: r.tiebreaker?.model ?? "", modelKey: "chairman" };
  const events: unknown[] = [
    { event: "vote-start", data: { messageId: id, mode: "vote", question, participants: names.participants, chairman, simulated: r.simulated ?? false, timestamp: at } },
    ...firstAnswers("stage1-complete", "vote", names, r.stage1, r.stage1Failed),
  ];
  if (r.voteRound) {
    events.push({ event: "vote-round-start", data: { timestamp: at } });
    events.push({ event: "vote-round-complete", data: { data: { ...counted(names, r.voteRound), labelToModel: r.voteRound.labelToModel }, timestamp: at } });
  }
  const tb = r.tiebreaker;
  if (tb) {
    events.push({ event: "tiebreaker-start", data: { tiedLabels: tb.tiedLabels ?? r.voteRound?.tiedLabels ?? [], timestamp: at } });
    const { tiedLabels: _, ...result } = tb;
    events.push({ event: "tiebreaker-complete", data: { data: { ...result, attempts: 1, fallback: tb.fallback ?? false }, timestamp: at } });
  }
  if (r.winner) events.push(winnerDeclared(r.winner, names));
  return events;
}

/** The events of a stored /revise run. */
function reviseEvents(id: string, question: string, r: ReviseResult): unknown[] {
  const names = namesOf(r, [...r.round1, ...(r.round1Failed ?? [])]);
  const events: unknown[] = [
    { event: "debate-start", data: { messageId: id, mode: "debate", question, participants: names.participants, antiAnchoring: r.antiAnchoring ?? false, simulated: r.simulated ?? false, timestamp: at } },
    ...firstAnswers("round1-complete", "revise", names, r.round1, r.round1Failed),
  ];
  if (r.revisions.length > 0) {
    const revisions = r.revisions.map((v) => ({ ...v, display: names.who(v.modelKey ?? "", v.model).display, revisionText: v.revisionText ?? "" }));
    events.push({ event: "revision-start", data: { data: { labelMap: r.round1LabelMap ?? {} }, timestamp: at } });
    // A run stopped while the models revised: each revision as far as it had streamed, as the page showed it.
    if (r.revisions.every((v) => v.error === "cancelled")) {
      for (const v of revisions) if (v.revisionText) events.push({ event: "answer-delta", data: { mode: "revise", stage: "revision", ...names.who(v.modelKey ?? "", v.model), delta: v.revisionText, timestamp: at } });
    } else events.push({ event: "revision-complete", data: { data: { revisions, summary: r.revisionSummary }, timestamp: at } });
  }
  if (r.votes) {
    events.push({ event: "vote-start", data: { data: { revisedLabelMap: r.votes.revisedLabelToModel }, timestamp: at } });
    events.push({ event: "vote-complete", data: { data: { ...counted(names, r.votes), revisedLabelToModel: r.votes.revisedLabelToModel }, timestamp: at } });
  }
  if (r.winner) events.push(winnerDeclared(r.winner, names));
  return events;
}

const ARGUMENT_FIELDS = ["stance", "key_points", "counterpoints", "revision", "revised_position", "confidence"] as const;

/** The events of a stored /deep run. */
function deepEvents(id: string, question: string, r: DeepResult): unknown[] {
  const turns = r.rounds.flatMap((round) => round.arguments.map((a) => ({ ...a, modelKey: a.modelKey ?? "" })));
  const names = namesOf(r, [...r.stage1, ...(r.stage1Failed ?? []), ...turns]);
  const maxRounds = r.maxRounds ?? Math.max(1, ...r.rounds.map((x) => x.round));
  const events: unknown[] = [
    { event: "deep-start", data: { messageId: id, mode: "deep", question, participants: names.participants, minRounds: r.minRounds ?? 1, maxRounds, simulated: r.simulated ?? false, timestamp: at } },
    ...firstAnswers("stage1-complete", "deep", names, r.stage1, r.stage1Failed),
  ];
  for (const round of r.rounds) {
    const args = round.arguments.map((a) => {
      const { model, modelKey, label, status, responseTimeMs, error } = a;
      const argument = status === "ok" ? Object.fromEntries(ARGUMENT_FIELDS.map((f) => [f, a[f]])) : undefined;
      return { round: round.round, label, model, modelKey, display: names.who(modelKey ?? "", model).display, status, responseTimeMs, ...(argument ? { argument } : {}), ...(error ? { error } : {}) };
    });
    const debaters = Object.fromEntries(args.map((a) => [a.label, names.who(a.modelKey ?? "", a.model)]));
    events.push({ event: "deep-round-start", data: { round: round.round, debaters, timestamp: at } });
    const { assessment, moderatorError, stop, reason } = round;
    events.push({ event: "deep-round-complete", data: { round: round.round, arguments: args, assessment, ...(moderatorError ? { moderatorError } : {}), stop, reason, timestamp: at } });
  }
  if (r.output) events.push({ event: "deep-output", data: { data: r.output, timestamp: at } });
  if (r.synthesis) events.push({ event: "deep-synthesis-complete", data: { data: { synthesis: r.synthesis, ...standIn(r.synthesisError) }, timestamp: at } });
  return events;
}

/** The events of a stored /council run. */
function councilEvents(id: string, claim: string, r: CouncilResult): unknown[] {
  const verdicts = [...r.round1, ...r.round2];
  const names = namesOf(r, verdicts);
  const perspectiveOf = (key: string) => r.perspectives?.[key] ?? verdicts.find((v) => v.modelKey === key)?.perspective ?? "";
  const judges = names.participants.map((p) => ({ ...p, perspective: perspectiveOf(p.modelKey) }));
  const events: unknown[] = [
    { event: "council-start", data: { messageId: id, mode: "council", claim, judges, debate: r.debate ?? r.round2.length > 0, simulated: r.simulated ?? false, timestamp: at } },
    { event: "council-round-start", data: { round: 1, timestamp: at } },
    ...r.round1.map((v) => ({ event: "council-verdict", data: { ...v, timestamp: at } })),
  ];
  if (r.round2.length > 0) {
    events.push({ event: "council-round-start", data: { round: 2, ...(r.result?.branch ? { branch: r.result.branch } : {}), timestamp: at } });
    events.push(...r.round2.map((v) => ({ event: "council-verdict", data: { ...v, timestamp: at } })));
  }
  if (r.result) events.push({ event: "council-consolidation", data: { data: r.result, timestamp: at } });
  if (r.report) events.push({ event: "council-report-complete", data: { data: { report: r.report, ...standIn(r.reportError) }, timestamp: at } });
  return events;
}

/** The `winner-declared` event of a stored winner, named as its participant. */
function winnerDeclared({ winnerKey, ...winner }: StoredWinner, names: Names) {
  return { event: "winner-declared", data: { data: { ...winner, winnerDisplay: names.displayOf(winnerKey, winner.winnerModel) }, timestamp: at } };
}

/** A final text's `fallback` and `error`: whether its model failed and a computed text stands in. */
function standIn(error: string | undefined) {
  return { fallback: error !== undefined, ...(error !== undefined ? { error } : {}) };
}

/** The end of a stored deliberation run: its title (when it is the conversation's first) and `complete` when it finished. */
function ending(events: unknown[], finished: boolean, title: string | undefined): ClientEvent[] {
  if (title) events.push({ event: "title-complete", data: { data: { title }, timestamp: at } });
  if (finished) events.push({ event: "complete", data: { timestamp: at } });
  return events as ClientEvent[];
}

/** The question a stored run answered: its panel's, else (a run stored before it) the message without its command and options. */
function questionOf(result: Panel, message: string): string {
  const command = parseCommand(message);
  return result.question ?? (command.kind === "deliberation" ? command.question : message.replace(/^\s*\/\S+\s+/, "").trim());
}

/**
 * The events a stored run streamed, ending with `done`; undefined for a mode without a live view
 * of its own (chat) or a result that holds nothing to show. `title` is the conversation's title,
 * given with its first run (the run that made it).
 */
export function storedEvents(id: string, mode: string | undefined, result: unknown, question: string, title?: string): ClientEvent[] | undefined {
  if (!result) return undefined;
  const done = { event: "done", data: { timestamp: at } } as ClientEvent;
  const asked = questionOf(result as Panel, question);
  switch (mode) {
    case "chat": {
      // A follow-up to one participant: who answered, and the answer, as it was streamed.
      const r = result as { continuation?: { run_id: string; participant: { key: string; display: string; model: string } }; answer?: string };
      if (!r.continuation) return undefined;
      return [
        { event: "continue-start", data: { ...r.continuation, timestamp: at } } as ClientEvent,
        { event: "text-delta", data: { delta: r.answer ?? "", timestamp: at } } as ClientEvent,
        done,
      ];
    }
    case "debatt":
    case "dvoice":
      return (result as DebattResult).participants ? [...debattEvents(id, result as DebattResult), done] : undefined;
    case "compare":
      return (result as CompareResult).answers.length > 0 ? [...compareEvents(asked, result as CompareResult & Panel), done] : undefined;
    case "vote": {
      const r = result as VoteResult;
      return r.stage1.length + (r.stage1Failed?.length ?? 0) > 0 ? [...ending(voteEvents(id, asked, r), Boolean(r.winner), title), done] : undefined;
    }
    case "debate": {
      const r = result as ReviseResult;
      return r.round1.length + (r.round1Failed?.length ?? 0) > 0 ? [...ending(reviseEvents(id, asked, r), Boolean(r.winner), title), done] : undefined;
    }
    case "deep": {
      const r = result as DeepResult;
      return r.stage1.length + (r.stage1Failed?.length ?? 0) > 0 ? [...ending(deepEvents(id, asked, r), Boolean(r.synthesis), title), done] : undefined;
    }
    case "council": {
      const r = result as CouncilResult;
      return r.round1.length > 0 ? [...ending(councilEvents(id, asked, r), Boolean(r.report), title), done] : undefined;
    }
    default:
      return undefined;
  }
}
