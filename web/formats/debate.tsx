import type { DebateResults } from "../../state/debate.js";
import type { AnswerNotes } from "../../state/answer.js";
import { notesFields } from "../../state/answer.js";
import type { ClientEvent } from "../../state/events.js";
import { ROUND_TYPES } from "../../state/formats.js";
import { skipReasonOf } from "../../state/person.js";
import { Arena } from "../arena.js";
import type { ArenaState } from "../arena-state.js";
import type { RunViewProps, StoredRun } from "./format-view.js";
import { ev, stopped } from "./replay.js";

/** What /debatt and /dvoice share, which is everything but the voice: their stored result, its replay and the arena. */

/** A /debatt or /dvoice result as the history stores it (`history/formats/debatt.ts`). */
export interface StoredDebate {
  topic?: string;
  voiceMode?: boolean;
  simulated?: boolean;
  participants?: { key: string; display: string; model: string }[];
  rounds: {
    round: number;
    answers: ({
      modelKey: string;
      display: string;
      text: string;
      position: number;
      status: "ok" | "error";
      wordCount: number;
      latencyMs: number;
      error?: string;
    } & AnswerNotes)[];
  }[];
  /** Every ballot; an invalid one (`valid: false`) may name nobody. */
  votes: { voter: string; votedFor: string | null; motivation: string; bullets: string[]; valid: boolean }[];
  results?: DebateResults;
  synthesis?: string;
}

/** The events of a stored /debatt or /dvoice run; undefined for one stored before its participants were. */
export function replayDebate({ id, result, stopped: stoppedRun = false }: StoredRun): ClientEvent[] | undefined {
  const r = result as StoredDebate;
  if (!r.participants) return undefined;
  const participants = r.participants.map((p) => ({ ...p, oneseek: false }));
  const events = [
    ev("debate-init", {
      participants,
      topic: r.topic ?? "",
      total_rounds: 4,
      voice_mode: r.voiceMode ?? false,
      debate_id: id,
      simulated: r.simulated ?? false,
    }),
  ];
  for (const { round, answers } of r.rounds) {
    // A stored debate began its first round, if only just (a stop before its first word stores no turn).
    if (answers.length === 0 && round !== 1) continue;
    const spoken = [...answers].sort((a, b) => a.position - b.position);
    const order = spoken.length > 0 ? spoken.map((a) => a.display) : participants.map((p) => p.display);
    events.push(ev("debate-round-start", { round, type: ROUND_TYPES[round - 1], order }));
    for (const a of spoken) {
      const who = { model: a.display, model_key: a.modelKey, round };
      // The person's seat, skipped: said as it was live.
      const skip = skipReasonOf(a.error);
      if (skip) {
        events.push(ev("debate-input-skipped", { kind: "turn", round, participant: a.display, reason: skip }));
        continue;
      }
      events.push(ev("debate-participant-start", { ...who, position: a.position }));
      if (a.text) events.push(ev("debate-participant-delta", { ...who, delta: a.text }));
      // A turn the stop cut short ends there, as it did live: no end, and its round does not end either.
      if (stopped(a)) continue;
      events.push(
        ev("debate-participant-end", {
          ...who,
          position: a.position,
          word_count: a.wordCount,
          latency_ms: a.latencyMs,
          response_preview: "",
          status: a.status,
          ...(a.error ? { error: a.error } : {}),
          ...notesFields(a),
        }),
      );
    }
    // A round ended, as live, only when every participant had its turn: a stop between two turns leaves it unfinished.
    if (!answers.some(stopped) && answers.length >= participants.length)
      events.push(ev("debate-round-end", { round, participant_count: answers.filter((a) => a.status === "ok").length }));
  }
  // Stopped between two rounds, it had begun the next one: live, that round's start came as the one
  // before ended. (A round's own turns are stored as they end, so an empty round tells no more.)
  const spokenIn = r.rounds.filter((x) => x.answers.length > 0).map((x) => x.round);
  const last = Math.max(1, ...spokenIn);
  const lastEnded = events.some((e) => e.event === "debate-round-end" && e.data.round === last);
  if (stoppedRun && lastEnded && last < 3 && r.votes.length === 0 && !r.results) {
    const order = participants.map((p) => p.display);
    events.push(ev("debate-round-start", { round: last + 1, type: ROUND_TYPES[last], order }));
  }
  if (r.votes.length > 0 || r.results) {
    events.push(ev("debate-round-start", { round: 4, type: "voting", order: r.participants.map((p) => p.display) }));
    for (const v of r.votes)
      if (v.valid && v.votedFor !== null)
        events.push(ev("debate-vote-result", { voter: v.voter, voted_for: v.votedFor, motivation: v.motivation, bullets: v.bullets }));
  }
  if (r.results) events.push(ev("debate-results", r.results));
  if (r.synthesis) events.push(ev("text-delta", { delta: r.synthesis }));
  return events;
}

/** A debate's participants, as its arena has them. */
export const debaters = (a: ArenaState) => a.participants;

/** The debate's arena: the rounds, the cards, the vote and the synthesis; the reader's seat asks for their turn or vote. */
export function DebateView({ a, voice, send }: RunViewProps) {
  return <Arena s={a} voiceSpeaker={voice?.speaker} send={send} />;
}
