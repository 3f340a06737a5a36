import { replyTail } from "./reply-tail.js";

/** The most `}` a reader matches in one reply, from its last: bounds the work a hostile reply can cause. */
const MAX_OBJECTS = 64;

/**
 * The JSON objects in a model's reply, the last first: the whole text, a fenced block, or a
 * balanced `{…}` in prose that parses (nested braces and braces inside strings, escaped quotes
 * included), an object inside one that does not parse among them; a long reply from its end
 * (`replyTail`). At most `MAX_OBJECTS` closing
 * braces are tried, so the work stays linear in the reply's length however its braces and quotes are laid out.
 */
export function* jsonObjectsLastFirst(text: string): Generator<Record<string, unknown>> {
  const tail = replyTail(text);
  for (const [start, end] of braceSpans(tail)) {
    const parsed = tryParseObject(tail.slice(start, end + 1));
    if (parsed) yield parsed;
  }
}

/** The last JSON object in a model's reply, or null when there is none. */
export function extractJsonObject(text: string): Record<string, unknown> | null {
  for (const json of jsonObjectsLastFirst(text)) return json;
  return null;
}

/**
 * What `read` makes of the last JSON object in a reply it accepts (`ok`): a reply's own ballot
 * counts, not one it quotes before it. When it accepts none, its verdict on the last object;
 * `none` when the reply has no object at all.
 */
export function readLastObject<R extends { ok: boolean }>(text: string, read: (json: Record<string, unknown>) => R, none: R): R {
  let last: R | undefined;
  for (const json of jsonObjectsLastFirst(text)) {
    const result = read(json);
    if (result.ok) return result;
    last ??= result;
  }
  return last ?? none;
}

function tryParseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The `[start, end]` of each balanced `{…}` in `text`, the one that ends last first (an outer object
 * before the objects inside it). Each is matched backwards from its `}`, skipping braces inside JSON
 * strings: from the end of a reply's own object to its start, only its own text is read, so no
 * brace or quote in the prose before it can hide it.
 */
function* braceSpans(text: string): Generator<[number, number]> {
  let tried = 0;
  for (let end = text.lastIndexOf("}"); end !== -1 && tried++ < MAX_OBJECTS; end = end > 0 ? text.lastIndexOf("}", end - 1) : -1) {
    const start = openingBrace(text, end);
    if (start !== -1) yield [start, end];
  }
}

/** Index of the `{` that opens the `}` at `end`, reading backwards; -1 if none. */
function openingBrace(text: string, end: number): number {
  let depth = 0;
  let inString = false;
  for (let i = end; i >= 0; i--) {
    const ch = text[i];
    if (ch === '"' && !escaped(text, i)) inString = !inString;
    else if (inString) continue;
    else if (ch === "}") depth++;
    else if (ch === "{" && --depth === 0) return i;
  }
  return -1;
}

/** Whether the character at `i` follows an odd run of backslashes. */
function escaped(text: string, i: number): boolean {
  let run = 0;
  while (i - run > 0 && text[i - run - 1] === "\\") run++;
  return run % 2 === 1;
}

/** A schema's complaints about a reply as one line: `path: message; …` (`root` names the whole reply). */
export function schemaIssues(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }, root: string): string {
  return error.issues.map((i) => `${i.path.map(String).join(".") || root}: ${i.message}`).join("; ");
}
