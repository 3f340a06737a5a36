import { removeSpoofing } from "../text.js";

/**
 * The reply of the title step of the deliberation formats: the title alone. `TITLE_REPLY` is the
 * part of the prompt that asks for it, `cleanTitle` reads it, `renderTitle` writes it (the offline
 * provider's title).
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
  const bare = line
    .replace(/^(?:title:\s*)/i, "")
    .replace(/["'“”‘’«»`*#]/g, "")
    .replace(/[.!?:;,]+$/, "")
    .replace(/\s+/g, " ")
    .trim();
  return bare.length <= MAX_TITLE_CHARS ? bare : `${bare.slice(0, MAX_TITLE_CHARS - 1).trimEnd()}…`;
}

/** How long a title made from the question itself may be. */
const SHORT_TITLE_CHARS = 48;

/**
 * The question made into a title when no model writes one: one line without its end
 * punctuation, cut at a word boundary with an ellipsis when longer than `max` characters.
 */
export function shortTitle(text: string, max = SHORT_TITLE_CHARS): string {
  const line = removeSpoofing(text)
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[?!.:;,]+$/, "");
  const chars = [...line];
  if (chars.length <= max) return line;
  const cut = chars.slice(0, max - 1).join("");
  const space = cut.lastIndexOf(" ");
  // A single very long word is cut where it must be.
  return `${(space > cut.length / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:–-]+$/, "")}…`;
}

/**
 * Most words in a title made from the question. The title prompt asks a model for 3–5; one more
 * keeps a six-word question whole ("Ska företag införa fyra dagars arbetsvecka", not "…fyra dagars").
 */
const TITLE_WORDS = 6;

/** Words a title should not end on: articles, prepositions, conjunctions, pronouns, auxiliaries. */
const DANGLING = new Set(
  (
    "a an the of for to in on at by with from about into than as and or but nor so if whether that which what who whom whose how why when where " +
    "is are was were be been being do does did should can could will would may might must shall has have had not " +
    "my your our their his her its this these those i you we they it me us them same all any some every most more very also just " +
    "en ett den det de denna detta dessa av för till i på med från om än åt vid hos mot utan under över och eller men så att som " +
    "vilket vilken vilka vad hur varför när var är vara bör borde ska skall kan kunde måste har hade blir får inte " +
    "min mitt mina din ditt dina vår vårt våra er ert era sin sitt sina jag du vi ni man samma alla varje några någon något mest mer mycket också bara"
  ).split(" "),
);

/** Words a long title leaves out, as headlines do ("Should cities ban cars from centres"). */
const ARTICLES = new Set("a an the my your our their his her its en ett".split(" "));

/**
 * A title as the title prompt asks a model for one, written from the question itself: its first
 * words (at most six; a longer question first loses its articles, as a headline does), on one line,
 * without end punctuation or an ellipsis, ending on a word that carries meaning rather than
 * "for"/"the"/"och"; never more than 80 characters.
 */
export function renderTitle(text: string): string {
  const line = removeSpoofing(text).replace(/\s+/g, " ").trim();
  // The first sentence is what a title is about; the rest is detail.
  const sentence = /^(.+?[?!.])(?:\s|$)/.exec(line)?.[1] ?? line;
  const all = sentence
    .replace(/[?!.:;,]+$/, "")
    .split(" ")
    .filter(Boolean);
  const headline = all.filter((w) => !ARTICLES.has(w.toLowerCase()));
  const words = all.length > TITLE_WORDS && headline.length > 0 ? headline : all;
  const bare = (w: string) => w.replace(/[,;:–-]+$/, "");
  const kept = words.slice(0, TITLE_WORDS);
  // A cut title ends on a content word ("Which programming language is best", not "…best for").
  if (words.length > TITLE_WORDS) while (kept.length > 3 && DANGLING.has(bare(kept.at(-1)!).toLowerCase())) kept.pop();
  const title = kept.map((w, i) => (i === kept.length - 1 ? bare(w) : w)).join(" ");
  const capitalised = title.charAt(0).toUpperCase() + title.slice(1);
  return [...capitalised].length <= MAX_TITLE_CHARS ? capitalised : shortTitle(capitalised, MAX_TITLE_CHARS);
}
