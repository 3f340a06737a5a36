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
