/** The longest message, question or topic a person may send, in characters. */
export const MAX_MESSAGE_CHARS = 4_000;

/** Words in a text: runs of letters or digits (any script), so punctuation and markdown do not count. */
export function countWords(text: string): number {
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)?.length ?? 0;
}

/** A one-line preview of an answer, at most `max` characters. */
export function preview(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** Cuts a text to `max` characters (the context chain's per-answer truncation). */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** Control characters other than tab, line feed and carriage return: refused in messages and prompts. */
export const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * Bidirectional overrides, embeddings, isolates and marks, and invisible zero-width characters:
 * they can make a text read differently from what it is (a topic that shows one thing and asks
 * another, a title that reorders its neighbours on the page).
 */
const SPOOFING = /[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u180e]/g;
/** The joiners outside the places where scripts and emoji need them. */
const STRAY_ZWJ = /(?<!\p{Extended_Pictographic}\ufe0f?)\u200d|\u200d(?!\p{Extended_Pictographic})/gu;
const STRAY_ZWNJ = /(?<!\p{L}\p{M}*)\u200c|\u200c(?!\p{L})/gu;

/**
 * `text` without the characters that can spoof what a person reads. The zero-width joiner stays
 * between emoji (👩‍💻) and the non-joiner between letters (Persian, Indic scripts), where they
 * change only how a word is drawn.
 */
export function removeSpoofing(text: string): string {
  return text.replace(SPOOFING, "").replace(STRAY_ZWJ, "").replace(STRAY_ZWNJ, "");
}
