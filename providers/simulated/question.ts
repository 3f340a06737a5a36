import { detectLanguage } from "../../state/language.js";
import { renderTitle } from "../../state/replies/title.js";
import {
  COPULAS,
  AUXILIARIES,
  WH_NOUN,
  WH_OTHER,
  DETERMINERS,
  DETERMINER_AS_SAID,
  PREPOSITIONS,
  PRONOUNS,
  ADVERBS,
  CONJUNCTIONS,
  FUNCTION_WORDS,
  VERBS,
  NOUN_VERBS,
  IMPERATIVES,
  MAIN_VERB_AUXILIARIES,
  ADJECTIVES,
  RESULTATIVE,
} from "./words.js";

// The question parser: the noun phrases a question is about, which every simulated answer writes about.

/** Nouns that only lead to what is asked about ("the best way to…", "bästa sättet att…"). */
const GENERIC_HEADS = new Set(["way", "ways", "approach", "method", "time", "place", "sätt", "sättet", "tid", "tiden"]);

/** How far a verb's object ranks above a phrase of another kind, in characters ("ban cars" before "from their centres"). */
const OBJECT_RANK = 10;

/** A question that asks for yes or no: it opens with an auxiliary verb. */
export const YES_NO = /^\s*(should|is|are|can|could|will|would|does|do|did|must|has|have|may|bör|borde|ska|skall|är|kan|måste|har|får|blir|finns)\b/i;

interface Token {
  text: string;
  lower: string;
  at: number;
  end: number;
  kind: "name" | "function" | "content";
  /** First of its clause: the question's first word, or after punctuation. */
  clauseStart: boolean;
}

/** A noun phrase of a question. */
export interface Term {
  /** The phrase as the question has it, without a determiner ("naked eye", "Great Wall of China"). */
  core: string;
  /** The phrase as a sentence says it: a name as is, with its determiner, or quoted. */
  text: string;
  rank: number;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’+#.-]*[\p{L}\p{N}+#]|[\p{L}\p{N}]/gu;
/** Small words that may join the parts of a name ("Great Wall of China", "Sveriges av…"). */
const NAME_JOINERS = new Set(["of", "av", "de", "la", "van", "von", "der"]);

function tokensOf(question: string): Token[] {
  const words = [...question.matchAll(WORD)].map((m) => ({ w: m[0], at: m.index, end: m.index + m[0].length }));
  const named = (i: number) => {
    const w = words[i]?.w;
    if (!w || [...w].length < 2 || FUNCTION_WORDS.has(w.toLowerCase())) return false;
    return (i > 0 && /\p{Lu}/u.test(w)) || /^\p{Lu}{2,}$/u.test(w) || /^.+\p{Lu}/u.test(w);
  };
  const adjacent = (i: number) => /^ +$/.test(question.slice(words[i].end, words[i + 1].at));
  const tokens: Token[] = [];
  for (let i = 0; i < words.length; i++) {
    const clauseStart = i === 0 || /[,;:()[\]{}.!?–—]/.test(question.slice(words[i - 1].end, words[i].at));
    let j = i;
    if (named(i)) {
      // A run of capitalised words, possibly joined by "of"/"av", is one name.
      for (;;) {
        if (j + 1 < words.length && named(j + 1) && adjacent(j)) j += 1;
        else if (j + 2 < words.length && NAME_JOINERS.has(words[j + 1].w) && named(j + 2) && adjacent(j) && adjacent(j + 1)) j += 2;
        else break;
      }
    }
    const text = question.slice(words[i].at, words[j].end);
    const lower = text.toLowerCase();
    // A request's opening verb ("Explain…", "Förklara…", also after "Please") is no thing it is about.
    const request = j === i && IMPERATIVES.has(lower) && (i === 0 || (i === 1 && /^(please|snälla)$/i.test(words[0].w)));
    const kind = request ? "function" : named(i) ? "name" : FUNCTION_WORDS.has(lower) ? "function" : "content";
    tokens.push({ text, lower, at: words[i].at, end: words[j].end, kind, clauseStart });
    i = j;
  }
  return tokens;
}

/** A Swedish word that looks like an adjective before its noun ("sociala medier", "svenska skolor"). */
const attributive = (w: string) => /(?:a|ig|isk|sk)$/.test(w);

/**
 * The noun phrases a question is about, most telling first: its subject and names ("nuclear
 * power", "TypeScript", "Great Wall of China"), then the longest other phrases ("the naked eye",
 * "beginners"). A rough parse of English and Swedish word order, with no dictionary beyond the
 * function words and some common English verbs: verbs and predicates ("ban", "regulated",
 * "healthy") are left out, as are function words.
 */
export function termsOf(question: string): Term[] {
  const lang = detectLanguage(question);
  const tokens = tokensOf(question);
  const terms: Term[] = [];
  const quote = (s: string) => (lang === "sv" ? `”${s}”` : `“${s}”`);
  const isFn = (t: Token | null | undefined, ...sets: Set<string>[]) => Boolean(t && t.kind === "function" && sets.some((set) => set.has(t.lower)));
  /** Whether the auxiliary at `g` is a main verb: after "to", or after another auxiliary or copula of its clause. */
  const mainVerb = (g: number) => {
    if (tokens[g - 1]?.lower === "to" && !tokens[g].clauseStart) return true;
    for (let k = g - 1; k >= 0 && !tokens[k + 1].clauseStart; k--) if (isFn(tokens[k], AUXILIARIES, COPULAS)) return true;
    return false;
  };
  /**
   * Whether "What"/"Vad" at `gov` asks with a verb ("What makes…", "Vad gör…") rather than a noun
   * ("What language…"): Swedish "vad" always; English "what" before a known verb, or before a word
   * that a determiner, pronoun or adjective follows ("What drives a…").
   */
  const whatDoes = (gov: Token, start: number, after: Token | null) =>
    gov.lower === "vad" ||
    (gov.lower === "what" && (VERBS.has(tokens[start].lower) || isFn(after, DETERMINERS, PRONOUNS) || Boolean(after && ADJECTIVES.has(after.lower))));
  /** Ends of chunks that follow "Which/Vilket": an auxiliary after one opens the clause's subject ("Which language do beginners…"). */
  const whChunkEnds = new Set<number>();
  let subjectTaken = false;

  /**
   * Adds the phrase of content words tokens[from..to], with the determiner `det` before it: the
   * subject first, then a verb's object, then the longest phrases.
   */
  const add = (from: number, to: number, det: Token | null, subject = false, object = false) => {
    // A trailing "-ly" adverb is not part of a noun phrase ("regulated strictly").
    while (to > from && lang === "en" && /^\p{L}{3,}ly$/u.test(tokens[to].lower)) to--;
    // So is a trailing adjective of a longer one ("kärnkraft enkelt", "nuclear power good"): it says how, not what.
    while (to > from && ADJECTIVES.has(tokens[to].lower)) to--;
    if (to < from) return;
    let phrase = question.slice(tokens[from].at, tokens[to].end).replace(/\s+/g, " ");
    if (/^\p{N}+$/u.test(phrase) || [...phrase].length < 3) return;
    // An adjective without its noun is no thing a question is about ("a big one", "How small…").
    if (ADJECTIVES.has(tokens[to].lower)) return;
    const first = tokens[from].at === tokens[0].at;
    // The question's first word has a capital because it is first: lowered in a phrase ("Nuclear power"
    // is "nuclear power"), kept on a single word, which may be a name ("Rust is…").
    if (first && from < to && /^\p{Lu}\p{Ll}*$/u.test(tokens[from].text) && /^\p{Ll}/u.test(tokens[from + 1].text))
      phrase = phrase.charAt(0).toLowerCase() + phrase.slice(1);
    const said = det ? (DETERMINER_AS_SAID[det.lower] ?? det.lower) : "";
    // With its determiner a phrase reads as it does in the question ("the naked eye"); without one, a phrase
    // of several words, or the capitalised first word, is quoted as a term; another single word is as it is.
    const text = said
      ? `${said}${question.slice(det!.end, tokens[from].at).replace(/\s+/g, " ")}${phrase}`
      : from < to || (first && /^\p{Lu}/u.test(phrase))
        ? quote(phrase)
        : phrase;
    terms.push({ core: phrase, text, rank: subject && !subjectTaken ? 1_000 : (object ? OBJECT_RANK : 0) + [...phrase].length });
    if (subject) subjectTaken = true;
  };

  for (let s = 0; s < tokens.length; s++) {
    if (tokens[s].kind === "name") {
      terms.push({ core: tokens[s].text, text: tokens[s].text, rank: 1_000 });
      if (s === 0) subjectTaken = true;
      continue;
    }
    if (tokens[s].kind !== "content") continue;
    const next = (i: number) =>
      tokens[i + 1] && !tokens[i + 1].clauseStart && /^ +$/.test(question.slice(tokens[i].end, tokens[i + 1].at)) ? tokens[i + 1] : null;
    let e = s;
    for (;;) {
      if (next(e)?.kind === "content") e++;
      // "the meaning of life", "the future of work": one phrase.
      else if (lang === "en" && next(e)?.lower === "of" && next(e + 1)?.kind === "content") e += 2;
      else break;
    }
    const start = s;
    s = e;
    const len = e - start + 1;
    const after = tokens[e + 1] && !tokens[e + 1].clauseStart ? tokens[e + 1] : null;
    // The word that governs the chunk, behind its determiner and adverbs ("for the most popular…" → "for").
    let det: Token | null = null;
    let g = start - 1;
    if (tokens[start].clauseStart) g = -1;
    while (g >= 0) {
      const t = tokens[g];
      if (isFn(t, DETERMINERS) && !det) det = t;
      else if (!isFn(t, ADVERBS)) break;
      g = t.clauseStart ? -1 : g - 1;
    }
    const gov = g >= 0 ? tokens[g] : null;
    const beforeGov = gov && !gov.clauseStart ? tokens[g - 1] : null;
    const verbAfter = isFn(after, COPULAS, AUXILIARIES);
    // Before a degree word ("nuclear power so popular", "öppen källkod så populärt") the phrase goes on to its predicate.
    const phraseEnds = !after || (isFn(after, PREPOSITIONS, CONJUNCTIONS) && !/^(so|så|too)$/.test(after.lower));

    /** The object after the verb at `v` ("ban cars"; "makes teams slower": "teams"). */
    const object = (v: number) => {
      if (v < e) add(v + 1, RESULTATIVE.has(tokens[v].lower) ? v + 1 : e, null, false, true);
    };
    /** A subject that may run on into its verb and object ("remote work makes teams slower", "cities ban cars"). */
    const subjectThenVerb = () => {
      if (len === 1) return add(start, e, det, true);
      let v = -1;
      if (lang === "en") {
        for (let k = start + 1; k <= e && v < 0; k++) if (VERBS.has(tokens[k].lower)) v = k;
        if (v < 0 && verbAfter) return add(start, e, det, true);
        // Not after "of": "the pros and cons of remote work" is one phrase, its "work" a noun.
        // The last such word before any "of": "remote work works" has its verb last, not in "remote work".
        const of = tokens.slice(start + 1, e + 1).findIndex((t) => t.lower === "of");
        for (let k = of < 0 ? e : start + of; k > start && v < 0; k--) if (NOUN_VERBS.has(tokens[k].lower)) v = k;
        // Last, after a determiner and before nothing more, such a word is the phrase's noun ("a road bike or…").
        if (v === e && det && (!after || isFn(after, CONJUNCTIONS))) return add(start, e, det, true);
      } else if (verbAfter) return add(start, e, det, true);
      // Otherwise the verb comes second (Swedish word order), or third after an adjective ("sociala medier skadar");
      // an English subject runs past its adjectives to its noun ("small teams skip…", "a small team ships…").
      if (v < 0) v = start + (lang === "sv" && len > 2 && attributive(tokens[start].lower) ? 2 : 1);
      while (lang === "en" && v < e && ADJECTIVES.has(tokens[v - 1].lower)) v++;
      // No verb where "of" stands: the chunk is one phrase ("cons of remote work").
      if (tokens[v].kind === "function") return add(start, e, det, true);
      add(start, v - 1, det, true);
      object(v);
    };

    // A gerund is a verb, its object what the question is about: "worth learning X", "a plan for adopting X".
    // A statement that opens with a gerund and its object ("Drinking eight glasses of water…") is about the object.
    if (lang === "en" && len === 1 && tokens[start].clauseStart && /\p{L}{3,}ing$/u.test(tokens[start].lower) && after && !verbAfter) continue;
    // So after "when", "while" or a conjunction, without a determiner: "when working night shifts".
    const clauseGerund = len > 1 && !det && isFn(gov, PREPOSITIONS, CONJUNCTIONS, WH_OTHER) && !gov!.clauseStart;
    if (lang === "en" && /ing$/.test(tokens[start].lower) && (tokens[start - 1]?.lower === "worth" || (len > 1 && isFn(gov, PREPOSITIONS)) || clauseGerund)) {
      object(start);
      continue;
    }
    const opensClause = isFn(gov, COPULAS, AUXILIARIES) && (gov!.clauseStart || isFn(beforeGov, WH_NOUN, WH_OTHER) || whChunkEnds.has(g - 1));
    if (gov === null || (isFn(gov, CONJUNCTIONS, PREPOSITIONS, WH_OTHER) && verbAfter && gov.lower !== "to") || (lang === "en" && isFn(gov, WH_OTHER))) {
      // A statement's subject ("Nuclear power is…", "Blixten slår…"), also after "that"/"om"/"How many…".
      subjectThenVerb();
    } else if (opensClause && isFn(gov, COPULAS) && isFn(beforeGov, WH_NOUN)) {
      // "What is the best sorting algorithm…", "Vilken är den säkraste…": what is asked about, whole;
      // but "the best way to learn X" is about X, which the verb after it takes.
      if (!(len === 1 && GENERIC_HEADS.has(tokens[start].lower) && (after?.lower === "to" || after?.lower === "att"))) add(start, e, det, true);
    } else if (opensClause && isFn(gov, COPULAS)) {
      // "Is coffee healthy?", "Är kaffe nyttigt?", "Why is the sky blue?": the subject, then its predicate.
      add(start, len > 1 && phraseEnds && tokens[e - 1].kind === "content" ? e - 1 : e, det, true);
    } else if (opensClause) {
      // "Should cities ban cars?", "Bör skolor förbjuda mobiltelefoner?": the subject, the verb, its object.
      if (lang === "sv") {
        let v = -1;
        for (let k = start + 1; k <= e && v < 0; k++) if (/(?:a|as)$/.test(tokens[k].lower)) v = k;
        if (v < 0) add(start, e, det, true);
        else {
          add(start, v - 1, det, true);
          object(v);
        }
      } else subjectThenVerb();
    } else if (isFn(gov, WH_NOUN) && whatDoes(gov, start, after)) {
      // "What makes a good project?", "What causes inflation?", "Vad gör…": the question's verb, then its object.
      if (len > 1) add(start + 1, e, null);
    } else if (isFn(gov, WH_NOUN)) {
      // "Which programming language is…", "Vilket programmeringsspråk passar nybörjare…".
      whChunkEnds.add(e);
      if (verbAfter) add(start, e, det, true);
      else subjectThenVerb();
    } else if (isFn(gov, COPULAS)) {
      // A predicate says something about the subject ("…is healthy", "…be regulated", "…is the safest
      // energy source"): not another thing the question is about.
    } else if (gov.kind === "name" || isFn(gov, PRONOUNS)) {
      // After the subject: "Will AI replace programmers", "How do I design…", "Hur väljer jag en elbil"; "Is AI
      // dangerous" has a predicate.
      const copula = tokens.slice(0, g).some((t) => isFn(t, COPULAS)) && !tokens.slice(0, g).some((t) => isFn(t, AUXILIARIES));
      if (!copula && det) add(start, e, det);
      else if (!copula) object(start);
    } else if (lang === "sv" && isFn(gov, WH_OTHER) && !gov.clauseStart) {
      // An embedded question ("Förklara hur kärnkraft fungerar", "…hur öppen källkod fungerar"): its subject, then its verb, last.
      add(start, len > 1 && /r$/.test(tokens[e].lower) ? e - 1 : e, det, true);
    } else if (isFn(gov, AUXILIARIES) || (lang === "sv" && isFn(gov, WH_OTHER))) {
      // "…should ban cars": the verb, then its object; "Hur lär…": the verb. "…should a team do code review",
      // "…to have tests": "do" and "have" are the verb, and all of the phrase its object.
      if (lang === "en" && MAIN_VERB_AUXILIARIES.has(gov.lower) && mainVerb(g)) add(start, e, det);
      else if (verbAfter && lang === "en") add(start, e, det);
      else object(start);
    } else if (gov.lower === "to" || gov.lower === "att") {
      // "to learn Rust", "att dricka kaffe": a verb and its object; "to school" is a noun.
      // After a verb ("learn to cook") what follows "to" is a verb too.
      const infinitive = VERBS.has(tokens[start].lower) || NOUN_VERBS.has(tokens[start].lower) || VERBS.has(beforeGov?.lower ?? "");
      if (gov.lower === "att" || infinitive) object(start);
      else add(start, e, det);
    } else if (gov.lower === "som" && !verbAfter) {
      // "…som vuxen": a role the asker speaks from, not what the question is about.
      add(start, e, det);
    } else if (isFn(gov, CONJUNCTIONS)) {
      // A clause of its own, with its subject and verb ("…true that coffee causes cancer"), or one more noun ("…and trucks").
      subjectThenVerb();
    } else add(start, e, det);
  }
  const unique = terms.filter((t, i) => terms.findIndex((u) => u.core.toLowerCase() === t.core.toLowerCase()) === i);
  return unique.sort((a, b) => b.rank - a.rank).slice(0, 3);
}

/**
 * The words a question is about, most telling first (see `termsOf`): its subject and names, then
 * its other noun phrases, as a simulated answer writes them. At most three.
 */
export function keywordsOf(question: string): string[] {
  return termsOf(question).map((t) => t.core);
}

/** The most words of a question that is its own title (about 60 characters, which the history shows whole). */
export const WHOLE_TITLE_WORDS = 10;

/**
 * The offline title of a question, whole: a short question as it stands ("Is coffee healthy"); a
 * longer one as the noun phrases it is about ("Database, small shop and orders"), never a question
 * cut in the middle; the question's first words when it has no phrase to name (`renderTitle`).
 */
export function simulatedTitle(question: string): string {
  const sentence = (/^(.+?[?!.])(?:\s|$)/.exec(question.replace(/\s+/g, " ").trim())?.[1] ?? question).replace(/[?!.:;,\s]+$/, "").trim();
  // Each phrase as the question has it, without its article or quotes ("the best way" is "best way", not "way").
  const phrases = [
    ...new Set(
      termsOf(question)
        .map((t) => t.text.replace(/[“”"]/g, "").replace(/^(?:a|an|the|en|ett|den|det|de)\s+/i, ""))
        .filter((k) => [...k].length > 1),
    ),
  ];
  const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  if (sentence.split(" ").length <= WHOLE_TITLE_WORDS) return capitalised(sentence);
  if (phrases.length === 0) return renderTitle(sentence, phrases);
  const and = detectLanguage(question) === "sv" ? "och" : "and";
  const listed = phrases.length === 1 ? phrases[0] : `${phrases.slice(0, -1).join(", ")} ${and} ${phrases.at(-1)}`;
  return capitalised(listed);
}
