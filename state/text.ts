import { z } from "zod";
import { DebattError } from "./errors.js";

/**
 * The longest message, question or topic a person may send, in characters: a question with a
 * pasted document (tens of thousands of characters) fits; the estimate and the budget guard what
 * it costs.
 */
export const MAX_MESSAGE_CHARS = 50_000;

/**
 * A name or a title as plain text in Markdown: its punctuation escaped (`\<`, `\*`, `\[`, `\|`…),
 * so that a name such as `<script>…` or `**x**` reads as written, and never becomes HTML, a link
 * or a broken table; line breaks and other control characters become spaces.
 */
export const markdownPlain = (text: string) => text.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, " ").replace(/[\\`*_[\]<>|~&]/g, (c) => `\\${c}`);

/** Code in Markdown: fenced blocks (``` or ~~~, to their close or the end of the text) and inline spans. */
const MARKDOWN_CODE = /(```[\s\S]*?(?:```|$)|~~~[\s\S]*?(?:~~~|$)|`[^`\n]*`)/;

/**
 * Markdown that holds no HTML: every `<` outside code that could open a tag or a comment is
 * escaped (`\<`, which Markdown shows as `<`), so that a renderer that passes HTML through runs
 * none of a model's markup; code keeps its text as written.
 */
export function markdownWithoutHtml(text: string): string {
  return text
    .split(MARKDOWN_CODE)
    .map((part, i) => (i % 2 === 0 ? part.replace(/<(?=[a-z/!?])/gi, "\\<") : part))
    .join("");
}

/** A /debatt synthesis as people read it: without the `debate-arena-data` block it opens with (data for the arena page). */
export const withoutArenaData = (text: string) => text.replace(/^```debate-arena-data\n[\s\S]*?\n```\n*/, "");

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/**
 * Words in a text: runs of letters or digits (any script), so punctuation and markdown do not
 * count; an apostrophe or a hyphen inside a word keeps it one (`don't`, `co-op`). The matches of
 * `[\p{L}\p{N}][\p{L}\p{N}'’-]*` (Unicode, global), counted in one pass without making a string
 * per word (every answer is counted as it ends): ASCII by its code, the rest by the pattern.
 */
export function countWords(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let starts: boolean;
    let goesOn: boolean;
    if (c < 0x80) {
      const lower = c | 0x20;
      starts = (c >= 0x30 && c <= 0x39) || (lower >= 0x61 && lower <= 0x7a);
      goesOn = starts || c === 0x27 || c === 0x2d;
    } else {
      const code = text.codePointAt(i)!;
      if (code > 0xffff) i++;
      starts = LETTER_OR_DIGIT.test(String.fromCodePoint(code));
      goesOn = starts || code === 0x2019;
    }
    if (inWord) inWord = goesOn;
    else if (starts) {
      words++;
      inWord = true;
    }
  }
  return words;
}

/**
 * A one-line preview of an answer, at most `max` characters: its whitespace runs made one space.
 * Only as much of the text is flattened as the preview needs (every answer is previewed as it ends):
 * a part's flattening begins the whole's, and one over `max + 1` long decides the cut.
 */
export function preview(text: string, max = 200): string {
  const start = text.trimStart();
  for (let chars = 2 * max; chars > 0 && chars < start.length; chars *= 4) {
    const flat = start.slice(0, chars).replace(/\s+/g, " ");
    if (flat.length > max + 1) return `${flat.slice(0, max - 1)}…`;
  }
  const flat = start.replace(/\s+/g, " ").trimEnd();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** The longest a heading quotes of a question, in characters. */
export const HEADLINE_CHARS = 120;

/**
 * A question as a heading quotes it: its first line that has text, cut at a word before `max`
 * characters (with `…`) when longer, or when the question goes on after that line.
 */
export function headline(question: string, max = HEADLINE_CHARS): string {
  const text = question.trim();
  const line = (/^[^\n]*/.exec(text)?.[0] ?? "").trim();
  if (line.length <= max) return line.length < text.length ? `${line} …` : line;
  const cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Cuts a text to `max` characters (the context chain's per-answer truncation). */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/**
 * Control characters other than tab, line feed and carriage return (C0, DEL and C1: U+0085, the
 * "next line", included): refused in messages and prompts.
 */
export const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/**
 * Bidirectional overrides, embeddings and isolates, and invisible zero-width characters: they can
 * make a text read differently from what it is (a topic that shows one thing and asks another, a
 * title that reorders its neighbours on the page). The marks (LRM, RLM, ALM) stay: they only help
 * mixed right-to-left text display as written.
 */
const SPOOFING = /[\u200b\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u180e]/g;
const JOINERS = /[\u200c\u200d]/g;
/** A letter, mark or digit of a script that needs joiners (not Latin, not ASCII). */
const JOINING_SCRIPT = /^(?![\p{Script=Latin}\p{ASCII}])[\p{L}\p{M}\p{N}]$/u;
const EMOJI = /^[\p{Extended_Pictographic}\p{Emoji_Modifier}\ufe0f]$/u;
const PICTOGRAPH = /^\p{Extended_Pictographic}$/u;

/**
 * Whether the joiner at `i` does a job: the zero-width joiner between emoji (👩‍💻, 🧑🏽‍💻), and
 * either joiner after a letter or mark of a script that shapes with them (Persian, Sinhala ශ්‍රී,
 * Malayalam chillus). Elsewhere it is only invisible.
 */
function joinerNeeded(text: string, i: number): boolean {
  const before = String.fromCodePoint(text.codePointAt(i - 1) ?? 0);
  const previous = /[\udc00-\udfff]/.test(before) && i >= 2 ? String.fromCodePoint(text.codePointAt(i - 2)!) : before;
  const next = String.fromCodePoint(text.codePointAt(i + 1) ?? 0);
  if (text[i] === "\u200d" && EMOJI.test(previous) && PICTOGRAPH.test(next)) return true;
  return JOINING_SCRIPT.test(previous);
}

/**
 * `text` without the characters that can spoof what a person reads: bidi overrides and isolates,
 * and zero-width characters where they do no job (see `joinerNeeded`).
 */
export function removeSpoofing(text: string): string {
  return text.replace(SPOOFING, "").replace(JOINERS, (joiner, i: number, all: string) => (joinerNeeded(all, i) ? joiner : ""));
}

/**
 * A user's text field: well-formed Unicode, at most `maxChars`, no control characters; what could
 * spoof a reader (bidi overrides, zero-width characters) is removed, and what remains is not empty.
 * Every surface (the chat and deliberate streams, `/v1`, MCP, the terminal) checks its text with
 * it, and the run service checks every run's question again, so none accepts what another refuses.
 */
export function userText(field: string, maxChars = MAX_MESSAGE_CHARS) {
  return z
    .string({ error: `${field} must be a string` })
    .refine((m) => m.isWellFormed(), `${field} is not valid Unicode (it contains a lone surrogate)`)
    .refine((m) => [...m].length <= maxChars, `${field} is longer than ${maxChars} characters`)
    .refine((m) => !CONTROL_CHARS.test(m), `${field} contains control characters`)
    .transform(removeSpoofing)
    .refine((m) => m.trim() !== "", `${field} is empty`);
}

/** `text` checked as `userText` (spoofing characters removed), or `invalid_body` naming what is wrong. */
export function checkedUserText(field: string, text: string, maxChars = MAX_MESSAGE_CHARS): string {
  const parsed = userText(field, maxChars).safeParse(text);
  if (!parsed.success) throw new DebattError("invalid_body", parsed.error.issues.map((i) => i.message).join("; "));
  return parsed.data;
}
