import { notesFields } from "../../state/answer.js";
import { AnswerNotesShape } from "../../state/answer-schema.js";
import type { VotingFormat } from "../../state/leaderboard/ballots.js";
import type { Ballot, Candidate } from "../../state/leaderboard/ballots.js";
import { DebateResultsSchema, TOTAL_ROUNDS } from "../../state/debate.js";
import type { State } from "../../state/graph-state.js";
import { countWords } from "../../state/text.js";
import { z } from "zod";
import type { HistoryCodec } from "../codec.js";
import { participantKeyOf, type Rows, type RunFacts } from "../row-kit.js";
import { all, data, find, RecordSchema } from "../stage-read.js";
import { stageData, type RunStage, type StageRow } from "../stage.js";

/** A debate's first row: its topic, whether it was spoken, its rounds and who sat in it (the person's seat marked). */
const DebattPanelSchema = z.object({
  topic: z.string(),
  voiceMode: z.boolean(),
  totalRounds: z.number(),
  participants: z.array(z.object({ key: z.string(), display: z.string(), model: z.string(), person: z.boolean().optional() })),
  simulated: z.boolean().optional(),
});

type Data = Record<string, unknown>;

/** A turn's row data: where it spoke, how it went, its notes (the text is the row's content). */
const TurnRowSchema = z.object({
  round: z.number().int(),
  position: z.number().int(),
  modelKey: z.string(),
  display: z.string(),
  status: z.enum(["ok", "error"]),
  wordCount: z.number().int(),
  latencyMs: z.number(),
  error: z.string().optional(),
  ...AnswerNotesShape,
});

/** A vote's row data: the ballot as it was counted. */
const VoteRowSchema = z.object({
  voter: z.string(),
  /** Null for a ballot that named nobody or did not parse. */
  votedFor: z.string().nullable(),
  motivation: z.string(),
  bullets: z.array(z.string()),
  valid: z.boolean(),
  invalidReason: z.string().optional(),
});

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
      parsedData: {
        round: t.round,
        position: t.position,
        modelKey: t.key,
        display: t.display,
        status: t.status,
        wordCount: t.word_count,
        latencyMs: t.latency_ms,
        ...(t.error ? { error: t.error } : {}),
        ...notesFields(t),
      },
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
        parsedData: {
          voter: b.voter,
          votedFor: b.voted_for,
          motivation: b.motivation,
          bullets: b.bullets,
          valid: b.valid,
          ...(b.invalid_reason ? { invalidReason: b.invalid_reason } : {}),
        },
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

function debattResultOf(stages: StageRow[]) {
  const answers = all(stages, "debatt_answer");
  const synthesis = find(stages, "debatt_synthesis");
  return {
    ...data(DebattPanelSchema, find(stages, "debatt_participants")),
    rounds: [1, 2, 3].map((round) => ({
      round,
      answers: answers
        .filter((s) => s.stageOrder === round)
        .flatMap((s) => {
          const turn = data(TurnRowSchema, s);
          return turn ? [{ model: s.model, text: s.content, ...turn }] : [];
        }),
    })),
    votes: all(stages, "debatt_vote").flatMap((s) => {
      const vote = data(VoteRowSchema, s);
      return vote ? [{ model: s.model, ...vote }] : [];
    }),
    results: data(DebateResultsSchema, find(stages, "debatt_results")),
    convergence: data(RecordSchema, find(stages, "debatt_convergence")),
    synthesis: synthesis?.content,
  };
}

/**
 * /debatt's and /dvoice's valid votes: every other participant that spoke is a candidate. Their
 * order is the speaking order of the last round each spoke in (the last round, unless a turn
 * failed), which is what the voters heard last. A person who joined the debate is no model: the
 * board leaves out their vote, a vote for them, and them as a candidate.
 */
function debattBallots(rows: RunStage[], panel: Data, simulated: boolean): Ballot[] {
  const seated = DebattPanelSchema.shape.participants.catch([]).parse(panel.participants);
  const participants = seated.filter((p) => p.person !== true);
  const turns = rows.filter((r) => r.stageType === "debatt_answer").map(stageData);
  const spoke = (key: string) => turns.filter((t) => t.modelKey === key && t.status === "ok");
  // Each speaker's place: by the last round it spoke in, then its place in that round.
  const lastTurn = (key: string) => spoke(key).reduce((a, t) => (Number(t.round) > Number(a.round) ? t : a));
  const speakers = participants
    .filter((p) => spoke(p.key).length > 0)
    .sort((a, b) => Number(lastTurn(a.key).round) - Number(lastTurn(b.key).round) || Number(lastTurn(a.key).position) - Number(lastTurn(b.key).position));
  const place = new Map(speakers.map((p, i) => [p.key, i]));
  const candidateOf = (p: (typeof participants)[number]): Candidate => ({
    model: p.model,
    position: place.get(p.key)!,
    words: spoke(p.key).reduce((a, t) => a + Number(t.wordCount ?? 0), 0),
  });
  const format: VotingFormat = panel.voiceMode === true ? "dvoice" : "debatt";
  return rows
    .filter((r) => r.stageType === "debatt_vote")
    .flatMap((r) => {
      const vote = stageData(r);
      const key = participantKeyOf(r);
      const voter = participants.find((p) => p.key === key);
      const chosen = participants.find((p) => p.display === vote.votedFor);
      if (vote.valid !== true || !voter || !chosen || chosen.key === voter.key || !place.has(chosen.key)) return [];
      const candidates = speakers.filter((p) => p.key !== voter.key).map(candidateOf);
      return [
        {
          format,
          runId: r.messageId,
          at: r.runAt.toISOString(),
          voter: voter.model,
          chosen: chosen.model,
          chosenPosition: place.get(chosen.key)!,
          candidates,
          namesKnown: true,
          simulated,
        },
      ];
    });
}

/**
 * /debatt in the history: its participants row, every turn, the votes, the results, the
 * convergence and the synthesis. /dvoice writes the same rows (`voiceMode` in the first tells them apart).
 */
export const debattHistory = {
  stageTypes: ["debatt_participants", "debatt_answer", "debatt_vote", "debatt_results", "debatt_convergence", "debatt_synthesis"],
  ownsPanel: (panel) => panel.voiceMode !== true,
  rows: (state: State, rows: Rows, facts: RunFacts) => debattRows(state, rows, facts),
  result: debattResultOf,
  ballots: { stageTypes: ["debatt_participants", "debatt_answer", "debatt_vote"], of: debattBallots },
} satisfies HistoryCodec;

/** /dvoice in the history: /debatt's rows, with `voiceMode` set. */
export const dvoiceHistory = { ...debattHistory, ownsPanel: (panel) => panel.voiceMode === true } satisfies HistoryCodec;
