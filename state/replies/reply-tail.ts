/**
 * The longest part of a reply a reader parses: a longer one is read from its last
 * `MAX_REPLY_CHARS` characters, where the reply's own vote, ranking, verdict or object stands.
 * Bounds the work one reply can cause, however long a model made it.
 */
export const MAX_REPLY_CHARS = 20_000;

/** The part of a model's reply its reader reads: all of it, or its last `MAX_REPLY_CHARS` characters. */
export function replyTail(text: string): string {
  return text.length > MAX_REPLY_CHARS ? text.slice(-MAX_REPLY_CHARS) : text;
}
