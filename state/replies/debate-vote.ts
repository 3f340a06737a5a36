import { VoteSchema } from "../debate.js";
import type { Participant } from "../participants.js";
import { extractJsonObject } from "./json.js";

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
  const wanted = name.trim().replace(/^["'`*\s]+|["'`*.!\s]+$/g, "").toLowerCase();
  if (!wanted) return null;
  const hit = participants.find((p) => p.display.toLowerCase() === wanted || p.key === wanted);
  return hit?.display ?? null;
}

/**
 * Parses a vote from a model's text (plain JSON, a fenced block or JSON inside prose) and checks
 * it against the vote schema. Two repairs are made rather than losing the vote: a motivation over
 * 200 characters is cut, and bullets beyond three are dropped.
 */
export function parseVote(text: string, participants: Participant[]): VoteParse {
  if (!text.trim()) return { ok: false, reason: "empty answer" };
  const json = extractJsonObject(text);
  if (!json) return { ok: false, reason: "no JSON object in the answer" };
  const repaired = {
    ...json,
    short_motivation: typeof json.short_motivation === "string" ? cut(json.short_motivation, 200) : json.short_motivation,
    three_bullets: Array.isArray(json.three_bullets) ? json.three_bullets.slice(0, 3) : json.three_bullets,
  };
  const parsed = VoteSchema.safeParse(repaired);
  if (!parsed.success) {
    return { ok: false, reason: parsed.error.issues.map((i) => `${i.path.join(".") || "vote"}: ${i.message}`).join("; ") };
  }
  const votedFor = matchParticipant(parsed.data.voted_for, participants);
  if (!votedFor) return { ok: false, reason: `voted_for "${parsed.data.voted_for}" names no participant` };
  return { ok: true, vote: { voted_for: votedFor, motivation: parsed.data.short_motivation, bullets: parsed.data.three_bullets } };
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
