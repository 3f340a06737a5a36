import { VoteSchema, type Vote } from "../debate.js";
import type { Participant } from "../participants.js";
import { readLastObject, schemaIssues } from "./json.js";

/**
 * The reply of /debatt's vote (round 4): one JSON object. `DEBATE_VOTE_REPLY` is the part of the
 * voting prompts that asks for it (in Swedish, like the /debatt prompts), `parseVote` reads it and
 * `renderVote` writes it (the offline provider and the test fake answer with it).
 */
export const DEBATE_VOTE_REPLY = `Svara ENDAST med JSON:
{"voted_for": "namn", "short_motivation": "högst 200 tecken", "three_bullets": ["skäl 1", "skäl 2", "skäl 3"]}`;

/** A vote as a model should write it. */
export function renderVote(vote: Vote): string {
  return JSON.stringify(vote);
}

/** A parsed vote, with `voted_for` mapped onto a participant's display name. */
export interface ParsedVote {
  voted_for: string;
  motivation: string;
  bullets: string[];
}

/** The outcome of parsing one model's vote: the vote, or why it is invalid. */
export type VoteParse = { ok: true; vote: ParsedVote } | { ok: false; reason: string };

/** Maps a name to a participant's display name: key or display name, case-insensitive, quotes and punctuation trimmed. */
export function matchParticipant(name: string, participants: Participant[]): string | null {
  const wanted = name
    .trim()
    .replace(/^["'`*\s]+|["'`*.!\s]+$/g, "")
    .toLowerCase();
  if (!wanted) return null;
  const hit = participants.find((p) => p.display.toLowerCase() === wanted || p.key === wanted);
  return hit?.display ?? null;
}

/**
 * Parses a vote from a model's text (plain JSON, a fenced block or JSON inside prose) and checks
 * it against the vote schema. Two repairs are made rather than losing the vote: a motivation over
 * 200 characters is cut, and bullets beyond three are dropped. The last object of the reply that
 * reads as a vote counts: a ballot a voter quotes (planted in a debater's answer) before its own does not.
 */
export function parseVote(text: string, participants: Participant[]): VoteParse {
  if (!text.trim()) return { ok: false, reason: "empty answer" };
  return readLastObject(
    text,
    (json): VoteParse => {
      const repaired = {
        ...json,
        short_motivation: typeof json.short_motivation === "string" ? cut(json.short_motivation, 200) : json.short_motivation,
        three_bullets: Array.isArray(json.three_bullets) ? json.three_bullets.slice(0, 3) : json.three_bullets,
      };
      const parsed = VoteSchema.safeParse(repaired);
      if (!parsed.success) {
        return { ok: false, reason: schemaIssues(parsed.error, "vote") };
      }
      const votedFor = matchParticipant(parsed.data.voted_for, participants);
      if (!votedFor) return { ok: false, reason: `voted_for "${parsed.data.voted_for}" names no participant` };
      return { ok: true, vote: { voted_for: votedFor, motivation: parsed.data.short_motivation, bullets: parsed.data.three_bullets } };
    },
    { ok: false, reason: "no JSON object in the answer" },
  );
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
