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

/** A title as a model should write it: the first five words of `text`, without end punctuation. */
export function renderTitle(text: string): string {
  return text.replace(/[?!.]+$/, "").split(/\s+/).slice(0, 5).join(" ");
}
