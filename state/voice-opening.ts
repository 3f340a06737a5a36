// What a spoken debate speaks of each answer, in a module without zod, so the page can import it cheaply.

/** What of an answer a spoken debate speaks. */
export const SPOKEN_PARTS = ["whole", "opening"] as const;
export type SpokenPart = (typeof SPOKEN_PARTS)[number];
/** About how many words of an answer its opening is: its first sentences up to this many (at least one). */
export const OPENING_WORDS = 40;

/** The sentences of an answer that are spoken: all, or its opening (the first ones, about OPENING_WORDS words). */
export function spokenSentences(sentences: string[], part: SpokenPart): string[] {
  if (part === "whole") return sentences;
  let words = 0;
  const opening: string[] = [];
  for (const s of sentences) {
    words += s.split(/\s+/).length;
    if (opening.length > 0 && words > OPENING_WORDS) break;
    opening.push(s);
  }
  return opening;
}
