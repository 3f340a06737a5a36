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
/** Fewest words a cut title keeps, where the question has them. */
const MIN_TITLE_WORDS = 3;

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

/** Words that open what comes after a phrase (besides the `DANGLING` ones): a title may end before them ("…web APIs | best for…"). */
const AFTER_PHRASE = new Set(
  (
    "best worst better worse first last most least more less never always often still really today now " +
    "bäst sämst bättre sämre först sist mest minst mer mindre aldrig alltid ofta fortfarande verkligen idag nu"
  ).split(" "),
);

/**
 * A title as the title prompt asks a model for one, written from the question itself: its first
 * words, as the question has them (none left out, so that it reads as the question does), on one
 * line, without end punctuation or an ellipsis; never more than 80 characters. A question of up to
 * six words is kept whole. A longer one is cut after three to six words where a phrase ends: on a
 * word that carries meaning rather than "for"/"the"/"och", before a word that opens what follows
 * ("for", "is", "best"), and never inside one of `phrases` (the noun phrases the question is about,
 * as the offline provider's parser finds them: "code review" is not cut to "code"); best of all
 * right after one of them, whatever follows. Without such a place, the longest cut that ends on a
 * word that carries meaning.
 */
export function renderTitle(text: string, phrases: readonly string[] = []): string {
  const line = removeSpoofing(text).replace(/\s+/g, " ").trim();
  // The first sentence is what a title is about; the rest is detail.
  const sentence = /^(.+?[?!.])(?:\s|$)/.exec(line)?.[1] ?? line;
  const words = sentence
    .replace(/[?!.:;,]+$/, "")
    .split(" ")
    .filter(Boolean);
  const bare = (w: string) => w.replace(/[,;:–-]+$/, "");
  const lower = words.map((w) => bare(w).toLowerCase());
  const kept = words.length <= TITLE_WORDS ? words : words.slice(0, cutAt(words, lower, phrases));
  const title = kept.map((w, i) => (i === kept.length - 1 ? bare(w) : w)).join(" ");
  const capitalised = title.charAt(0).toUpperCase() + title.slice(1);
  return [...capitalised].length <= MAX_TITLE_CHARS ? capitalised : shortTitle(capitalised, MAX_TITLE_CHARS);
}

/** How many of a long question's words its title keeps (see `renderTitle`). */
function cutAt(words: readonly string[], lower: readonly string[], phrases: readonly string[]): number {
  // Where each phrase stands among the words: [first, last] word.
  const spans: [number, number][] = [];
  for (const phrase of phrases) {
    const parts = phrase.toLowerCase().split(/\s+/).filter(Boolean);
    for (let i = 0; parts.length > 0 && i + parts.length <= lower.length; i++) {
      if (parts.every((p, k) => lower[i + k] === p)) spans.push([i, i + parts.length - 1]);
    }
  }
  /** Keeping `n` words ends on a word that carries meaning, and splits no phrase. */
  const ends = (n: number) => !DANGLING.has(lower[n - 1]) && !spans.some(([a, b]) => a < n && n <= b);
  /** …and what follows opens something else: a small word, a phrase, or after a comma. */
  const endsPhrase = (n: number) =>
    ends(n) && (DANGLING.has(lower[n]) || AFTER_PHRASE.has(lower[n]) || spans.some(([a]) => a === n) || /[,;:–]$/.test(words[n - 1]));
  /** Best of all, it ends right after one of the phrases, whatever follows ("How can a new manager", not "…a new manager build"). */
  const endsOnPhrase = (n: number) => ends(n) && spans.some(([, b]) => b === n - 1);
  const sizes = Array.from({ length: TITLE_WORDS - MIN_TITLE_WORDS + 1 }, (_, i) => TITLE_WORDS - i);
  return sizes.find(endsOnPhrase) ?? sizes.find(endsPhrase) ?? sizes.find(ends) ?? TITLE_WORDS;
}
