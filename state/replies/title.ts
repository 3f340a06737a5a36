import { removeSpoofing } from "../text.js";

/**
 * The reply of the title step of the deliberation formats: the title alone. `TITLE_REPLY` is the
 * part of the prompt that asks for it, `cleanTitle` reads it, `renderTitle` writes it.
 */
export const TITLE_REPLY = "Reply with ONLY the title, in the language of the question. No quotes, no punctuation, no explanation.";

/** Longest title kept. */
const MAX_TITLE_CHARS = 80;

/**
 * A model's title reply made into a title: first line, no quotes, end punctuation or spoofing
 * characters, at most 80 characters.
 */
export function cleanTitle(reply: string): string {
  const line = removeSpoofing(reply).trim().split("\n")[0] ?? "";
  const bare = line.replace(/^(?:title:\s*)/i, "").replace(/["'“”‘’«»`*#]/g, "").replace(/[.!?:;,]+$/, "").replace(/\s+/g, " ").trim();
  return bare.length <= MAX_TITLE_CHARS ? bare : `${bare.slice(0, MAX_TITLE_CHARS - 1).trimEnd()}…`;
}

/** How long a title made from the question itself may be. */
const SHORT_TITLE_CHARS = 48;

/**
 * The question made into a title when no model writes one: one line without its end
 * punctuation, cut at a word boundary with an ellipsis when longer than `max` characters.
 */
export function shortTitle(text: string, max = SHORT_TITLE_CHARS): string {
  const line = removeSpoofing(text).replace(/\s+/g, " ").trim().replace(/[?!.:;,]+$/, "");
  const chars = [...line];
  if (chars.length <= max) return line;
  const cut = chars.slice(0, max - 1).join("");
  const space = cut.lastIndexOf(" ");
  // A single very long word is cut where it must be.
  return `${(space > cut.length / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:–-]+$/, "")}…`;
}

/** A title as a model should write it: a short title (here the question, shortened). */
export function renderTitle(text: string): string {
  return shortTitle(text);
}
