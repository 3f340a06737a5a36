import type { BaseChatModelParams } from "@langchain/core/language_models/chat_models";
import { AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk } from "@langchain/core/outputs";
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import type { ModelFactory, ModelRequest } from "../ports/models.js";
import { detectLanguage, type Lang } from "../state/language.js";
import { hashText as hash, seededRandom } from "../state/random.js";
import { renderArgument } from "../state/replies/argument.js";
import { renderAssessment } from "../state/replies/assessment.js";
import { renderConvergence } from "../state/replies/convergence.js";
import { renderVote } from "../state/replies/debate-vote.js";
import { extractJsonObject } from "../state/replies/json.js";
import { renderLetterVote } from "../state/replies/letter-vote.js";
import { renderResearchCheck, renderResearchPlan } from "../state/replies/research.js";
import { renderRevision } from "../state/replies/revision.js";
import { renderTitle, shortTitle } from "../state/replies/title.js";
import { simulatedJson } from "./simulated-json.js";
import { renderVerdict, type VerdictBlock } from "../state/replies/verdict.js";
import { ChunkStreamingChatModel } from "./chunk-streaming-model.js";
import { sleep } from "../state/sleep.js";
import { parseTaskAnswer, solveTaskQuestion, wrongTaskAnswer, type TaskId } from "../state/eval-tasks.js";
import { estimateTokens } from "../state/usage.js";

/**
 * The offline provider used when no OPENAI_API_KEY is set: deterministic, varied and plausible
 * text in the topic's language (Swedish or English), streamed with a configurable latency. Every
 * answer is about the question: it uses the question's own words (`keywordsOf`), and has the
 * shape its phase asks for (written with the phase's renderer from state/replies). It is for trying
 * the product without keys, not a test double (tests use tests/support fakes).
 */
export interface SimulatedOptions {
  /** Milliseconds before the first chunk of every call. */
  latencyMs: number;
  /** Milliseconds between chunks. */
  chunkDelayMs: number;
  /** Word-tokens per streamed chunk. */
  chunkTokens: number;
  /** Fixed answer length in words (default: varies by round and speaker). */
  answerWords?: number;
  /** A debate turn's length in words, per round 1–3 (e.g. the rounds' word limits); wins over `answerWords` for turns. */
  roundWords?: readonly number[];
  /**
   * With a probability (0–1): a question of the evaluation's tasks is answered right with that
   * probability, else with a plausible wrong answer, independently per call (seeded by the call's
   * prompt and speaker), so that the harness's figures can be checked against known accuracies.
   */
  accuracy?: number;
}

/** A task question's answer value: right with probability `accuracy`, else plausibly wrong. */
function taskValue(task: { task: TaskId; answer: string }, accuracy: number, random: () => number): string {
  return random() < accuracy ? task.answer : wrongTaskAnswer(task.task, task.answer, random);
}

/** A reply giving a task answer, with the working a model would show. */
function taskReply(value: string, lang: Lang): string {
  const working = lang === "sv" ? "Jag räknar steg för steg och kontrollerar resultatet." : "Working it out step by step, and checking the result.";
  return `${working}\n\nANSWER: ${value}`;
}

/**
 * The task answers a prompt shows (the others' answers, earlier rounds), in order; the question's
 * own `ANSWER: <your answer>` is none. A quote or a backslash ends an answer (JSON strings).
 */
function answersIn(task: TaskId, text: string): string[] {
  return [...text.matchAll(/ANSWER:[ \t]*\**[ \t]*([^\n*"\\]+)/g)].flatMap((m) => parseTaskAnswer(task, `ANSWER: ${m[1]}`) ?? []);
}

/**
 * What a simulated participant answers once it has read the others: the answer given most often
 * in what it read, or its own when its own is among the most given. (Real models often conform so;
 * it makes a simulated debate converge on the first round's plurality.)
 */
function conformed(own: string | undefined, read: string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const a of read) counts.set(a, (counts.get(a) ?? 0) + 1);
  const most = Math.max(0, ...counts.values());
  if (own !== undefined && (counts.get(own) ?? 0) === most) return own;
  return [...counts].find(([, n]) => n === most)?.[0] ?? own;
}

/** Words of the simulated replies to task questions, in each language. */
const TASK_WORDS = {
  en: { point: "I recomputed it step by step.", stand: "My answer holds when I recompute it.", revise: "Most answers reach a different result, and on checking it I agree." },
  sv: { point: "Jag räknade om det steg för steg.", stand: "Mitt svar håller när jag räknar om.", revise: "De flesta svar får ett annat resultat, och vid kontroll håller jag med." },
} as const;

/**
 * The reply of a phase to an evaluation's task question, or undefined for a phase that answers as
 * it always does. A first answer is right with probability `accuracy`, independently per call; a
 * later round, a revision or a debater's argument conforms to what it read (`conformed`); a
 * synthesis states the answer given most often in what it was handed.
 */
function taskPhaseReply(request: ModelRequest, task: { task: TaskId; answer: string }, prompt: string, me: string, lang: Lang, accuracy: number, plain: () => string): string | undefined {
  const random = (seed: string) => seededRandom(hash(seed));
  const words = TASK_WORDS[lang];
  const read = answersIn(task.task, prompt);
  switch (request.phase) {
    case "answer":
    case "compare":
      return taskReply(taskValue(task, accuracy, random(`${prompt}|${me}|${request.phase}`)), lang);
    case "turn": {
      // A debater's own answer is the same in every round it is asked for; from round 2 it has read the others.
      const own = taskValue(task, accuracy, random(`${request.topic}|${me}|turn`));
      return taskReply((request.round ?? 1) <= 1 ? own : (conformed(own, read) ?? own), lang);
    }
    case "debater": {
      // The prompt shows the debater's own answer first, then the others' (and the previous round).
      const value = conformed(read[0], read) ?? taskValue(task, accuracy, random(`${request.topic}|${me}|debater`));
      const kept = value === read[0];
      return renderArgument({
        stance: kept ? "maintain" : "concede",
        key_points: [words.point],
        counterpoints: [],
        revision: kept ? "no_change" : "major_revision",
        revised_position: taskReply(value, lang),
        confidence: kept ? 0.8 : 0.6,
      });
    }
    case "revision": {
      const original = originalIn(prompt);
      const own = original === null ? undefined : parseTaskAnswer(task.task, original);
      const value = conformed(own, read);
      if (value === undefined || original === null) return undefined;
      return value === own ? renderRevision("STAND", words.stand, original) : renderRevision("REVISE", words.revise, taskReply(value, lang));
    }
    case "synthesis":
    case "deep_synthesis": {
      const value = conformed(undefined, read);
      return value === undefined ? undefined : `${plain()}\n\nANSWER: ${value}`;
    }
    default:
      return undefined;
  }
}

/** A question that asks for yes or no: it opens with an auxiliary verb. */
const YES_NO = /^\s*(should|is|are|can|could|will|would|does|do|did|must|has|have|may|bör|borde|ska|skall|är|kan|måste|har|får|blir|finns)\b/i;

const wordSet = (list: string) => new Set(list.split(" "));

/** "Is", "är": what follows it is a predicate ("healthy", "regulated"), not a thing the question is about. */
const COPULAS = wordSet("is are was were be been being am är var vara varit bli blir blev blivit");
/** Auxiliaries and modals: opening a question, they are followed by its subject, then its verb ("Should cities ban…"). */
const AUXILIARIES = wordSet("should can could will would does do did must may might shall has have had bör borde ska skall kan kunde måste får fick vill ville har hade finns");
/** Question words followed by a noun ("Which language…", "Vilket språk…"). */
const WH_NOUN = wordSet("which what whose vilket vilken vilka vad");
/** Question words followed by an auxiliary ("How do I…"). */
const WH_OTHER = wordSet("how why when where who whom hur varför när vem vems");
/** Words that open a noun phrase; the phrase keeps them ("the naked eye", "den säkraste energikällan"). */
const DETERMINERS = wordSet(
  "the a an this these those my your our their his her its every each all some any no both another same many much few several en ett den det de denna detta dessa min mitt mina din ditt dina vår vårt våra er ert era sin sitt sina hans hennes deras varje alla samma några många flera",
);
/**
 * A determiner as the answerer says it: the asker's "my" is "your", someone else's "the"; a
 * quantifier is left out ("many people" → "people"), as is a Swedish possessive of a third person.
 */
const DETERMINER_AS_SAID: Record<string, string> = {
  my: "your", our: "your", their: "the", his: "the", her: "the", its: "the", this: "the", these: "the", those: "the", every: "the", each: "the", another: "the",
  all: "", some: "", any: "", no: "", both: "", many: "", much: "", few: "", several: "",
  min: "din", mitt: "ditt", mina: "dina", vår: "er", vårt: "ert", våra: "era", sin: "", sitt: "", sina: "", hans: "", hennes: "", deras: "",
  varje: "", alla: "", några: "", många: "", flera: "",
};
const PREPOSITIONS = wordSet(
  "of for from to in on at by with without into onto about than between against over under after before during through across toward towards via per like versus vs among within av för från till i på med utan om än mellan mot över under efter före inför genom hos vid åt bland inom",
);
const PRONOUNS = wordSet("i you we they he she it me us them someone anyone everyone something anything jag du vi ni han hon man mig dig oss dem sig någon något");
/** Adverbs, particles and degree words: they neither start nor end a noun phrase. */
const ADVERBS = wordSet(
  "not never always often usually really still also just only very too so ever already first again more most less least best worst better worse worth enough then there here now today else instead inte aldrig alltid ofta oftast verkligen fortfarande också bara redan först igen mer mest mindre minst bäst sämst bättre sämre mycket snabbast värt ut upp ner in fram bort där här då nu idag annars up out down off away next one two three four five six seven eight nine ten once twice två tre fyra fem sex sju åtta nio tio gånger times",
);
const CONJUNCTIONS = wordSet("and or but nor so if whether because while that although given considering och eller men samt så ifall eftersom medan att fast som");
/** Every word that is not a content word. */
const FUNCTION_WORDS = new Set([...COPULAS, ...AUXILIARIES, ...WH_NOUN, ...WH_OTHER, ...DETERMINERS, ...PREPOSITIONS, ...PRONOUNS, ...ADVERBS, ...CONJUNCTIONS, "there", "det", "den", "de"]);

/** Forms of an English verb: base, -s, -es, -ies, -d, -ed. */
function verbForms(list: string): Set<string> {
  const forms = new Set<string>();
  for (const v of list.split(" ")) {
    forms.add(v);
    forms.add(`${v}s`);
    forms.add(`${v}es`);
    forms.add(`${v}d`);
    forms.add(`${v}ed`);
    if (v.endsWith("y")) forms.add(`${v.slice(0, -1)}ies`).add(`${v.slice(0, -1)}ied`);
  }
  return forms;
}
/** English verbs that are rarely nouns: where one stands, the subject has ended ("Remote work makes…"). */
const VERBS = new Set([
  ...verbForms(
    "ban allow learn replace choose switch start stop keep invest adopt build require regulate limit cause improve reduce increase affect eat hire teach prefer want become make take give get pay buy sell go come drive fly spend lose win beat kill harm hurt protect prevent lead create destroy exist happen mean seem grow bring send leave join ask decide believe think know see say tell try let put abolish mandate subsidize subsidise legalize legalise outlaw prohibit restrict enforce reform privatize nationalize suit outperform explain develop write live last prepare avoid apply handle manage deserve include involve provide offer consider compare remain stay follow cover boost damage lower raise slow speed matter",
  ),
  ..."made took taken gave given got gotten went gone came ran bought sold spent lost won kept left built led held brought sent thought knew known saw seen said told became grew grown drove driven flew flown ate eaten wrote written".split(" "),
]);
/** English verbs that are often nouns too ("remote work", "screen use"): a verb only where no clearer one is found. */
const NOUN_VERBS = verbForms("work use fund cost rise fall play watch drink answer change need help run cut set tax vote share control look feel fix break show turn rent own save trust support study travel move open close design love hate care");
/** Verbs after which the object is one word and the rest says what becomes of it ("makes teams slower"). */
const RESULTATIVE = wordSet("make makes made keep keeps kept get gets got render renders");

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
  const words = [...question.matchAll(WORD)].map((m) => ({ w: m[0], at: m.index!, end: m.index! + m[0].length }));
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
    const kind = named(i) ? "name" : FUNCTION_WORDS.has(lower) ? "function" : "content";
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
  /** Ends of chunks that follow "Which/Vilket": an auxiliary after one opens the clause's subject ("Which language do beginners…"). */
  const whChunkEnds = new Set<number>();
  let subjectTaken = false;

  /** Adds the phrase of content words tokens[from..to], with the determiner `det` before it. */
  const add = (from: number, to: number, det: Token | null, subject = false) => {
    // A trailing "-ly" adverb is not part of a noun phrase ("regulated strictly").
    while (to > from && lang === "en" && /^\p{L}{3,}ly$/u.test(tokens[to].lower)) to--;
    if (to < from) return;
    let phrase = question.slice(tokens[from].at, tokens[to].end).replace(/\s+/g, " ");
    if (/^\p{N}+$/u.test(phrase) || [...phrase].length < 3) return;
    const first = tokens[from].at === tokens[0].at;
    // The question's first word has a capital because it is first: lowered in a phrase ("Nuclear power"
    // is "nuclear power"), kept on a single word, which may be a name ("Rust is…").
    if (first && from < to && /^\p{Lu}\p{Ll}*$/u.test(tokens[from].text) && /^\p{Ll}/u.test(tokens[from + 1].text)) phrase = phrase.charAt(0).toLowerCase() + phrase.slice(1);
    const said = det ? (DETERMINER_AS_SAID[det.lower] ?? det.lower) : "";
    // With its determiner a phrase reads as it does in the question ("the naked eye"); without one, a phrase
    // of several words, or the capitalised first word, is quoted as a term; another single word is as it is.
    const text = said ? `${said}${question.slice(det!.end, tokens[from].at).replace(/\s+/g, " ")}${phrase}` : from < to || (first && /^\p{Lu}/u.test(phrase)) ? quote(phrase) : phrase;
    terms.push({ core: phrase, text, rank: subject && !subjectTaken ? 1_000 : [...phrase].length });
    if (subject) subjectTaken = true;
  };

  for (let s = 0; s < tokens.length; s++) {
    if (tokens[s].kind === "name") {
      terms.push({ core: tokens[s].text, text: tokens[s].text, rank: 1_000 });
      if (s === 0) subjectTaken = true;
      continue;
    }
    if (tokens[s].kind !== "content") continue;
    const next = (i: number) => (tokens[i + 1] && !tokens[i + 1].clauseStart && /^ +$/.test(question.slice(tokens[i].end, tokens[i + 1].at)) ? tokens[i + 1] : null);
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
    const phraseEnds = !after || isFn(after, PREPOSITIONS, CONJUNCTIONS);

    /** The object after the verb at `v` ("ban cars"; "makes teams slower": "teams"). */
    const object = (v: number) => {
      if (v < e) add(v + 1, RESULTATIVE.has(tokens[v].lower) ? v + 1 : e, null);
    };
    /** A subject that may run on into its verb and object ("remote work makes teams slower", "cities ban cars"). */
    const subjectThenVerb = () => {
      if (len === 1) return add(start, e, det, true);
      let v = -1;
      if (lang === "en") {
        for (let k = start + 1; k <= e && v < 0; k++) if (VERBS.has(tokens[k].lower)) v = k;
        if (v < 0 && verbAfter) return add(start, e, det, true);
        for (let k = start + 1; k <= e && v < 0; k++) if (NOUN_VERBS.has(tokens[k].lower)) v = k;
      } else if (verbAfter) return add(start, e, det, true);
      // Otherwise the verb comes second (Swedish word order), or third after an adjective ("sociala medier skadar").
      if (v < 0) v = start + (lang === "sv" && len > 2 && attributive(tokens[start].lower) ? 2 : 1);
      add(start, v - 1, det, true);
      object(v);
    };

    const opensClause = isFn(gov, COPULAS, AUXILIARIES) && (gov!.clauseStart || isFn(beforeGov, WH_NOUN, WH_OTHER) || whChunkEnds.has(g - 1));
    if (gov === null || (isFn(gov, CONJUNCTIONS, PREPOSITIONS, WH_OTHER) && verbAfter && gov.lower !== "to") || (lang === "en" && isFn(gov, WH_OTHER))) {
      // A statement's subject ("Nuclear power is…", "Blixten slår…"), also after "that"/"om"/"How many…".
      subjectThenVerb();
    } else if (opensClause && isFn(gov, COPULAS)) {
      // "Is coffee healthy?", "Är kaffe nyttigt?": the subject, then its predicate.
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
    } else if (isFn(gov, WH_NOUN)) {
      // "Which programming language is…", "Vilket programmeringsspråk passar nybörjare…".
      whChunkEnds.add(e);
      if (verbAfter) add(start, e, det, true);
      else subjectThenVerb();
    } else if (isFn(gov, COPULAS)) {
      // A predicate says something about the subject ("…is healthy", "…be regulated", "…is the safest
      // energy source"): not another thing the question is about.
    } else if (gov!.kind === "name" || isFn(gov, PRONOUNS)) {
      // After the subject: "Will AI replace programmers", "How do I design…", "Hur väljer jag en elbil"; "Is AI
      // dangerous" has a predicate.
      const copula = tokens.slice(0, g).some((t) => isFn(t, COPULAS)) && !tokens.slice(0, g).some((t) => isFn(t, AUXILIARIES));
      if (!copula && det) add(start, e, det);
      else if (!copula) object(start);
    } else if (isFn(gov, AUXILIARIES) || (lang === "sv" && isFn(gov, WH_OTHER))) {
      // "…should ban cars": the verb, then its object; "Hur lär…": the verb.
      if (verbAfter && lang === "en") add(start, e, det);
      else object(start);
    } else if (gov!.lower === "to" || gov!.lower === "att") {
      // "to learn Rust", "att dricka kaffe": a verb and its object; "to school" is a noun.
      if (gov!.lower === "att" || VERBS.has(tokens[start].lower) || NOUN_VERBS.has(tokens[start].lower)) object(start);
      else add(start, e, det);
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

/** A sentence bank per language. */
type Bank = readonly string[];
type ByLang<T> = { sv: T; en: T };

/** Positions on a yes/no question ("Should…?", "Bör…?"): for, against, nuanced. */
const STANCES: ByLang<Bank> = {
  sv: ["ja, jag är för", "nej, jag är emot", "det beror på, och jag landar i en nyanserad hållning"],
  en: ["yes, I am in favour", "no, I am against it", "it depends, and I land on a nuanced position"],
};

/** Positions on an open question ("Which…?", "How…?"), about its own words. */
const OPEN_STANCES: ByLang<Bank> = {
  sv: ["jag sätter {t1} först", "jag utgår från vad som fungerar i praktiken för {t2}", "det beror på, och jag väger {t1} mot {t2}"],
  en: ["I would put {t1} first", "I would start from what works in practice for {t2}", "it depends, and I weigh {t1} against {t2}"],
};

/** The open positions for a question with one telling word. */
const OPEN_STANCES_ONE: ByLang<Bank> = {
  sv: ["jag sätter {t1} först", "jag väger det praktiska kring {t1} tyngst", "det beror på, och jag väger {t1} mot alternativen"],
  en: ["I would put {t1} first", "I would weigh the practical side of {t1} most", "it depends, and I weigh {t1} against the alternatives"],
};

/** An answer to a question (/compare, /vote, /revise): an opening, points about its words, a conclusion. */
const ANSWER = {
  sv: {
    open: ["Så här skulle jag besvara \"{topic}\":", "Kort svar på \"{topic}\" först, sedan detaljerna:", "\"{topic}\" har ett praktiskt svar:"],
    points: [
      "Börja med vad du vill få ut av {t1}, och låt det styra resten.",
      "Titta på hur {t1} används i praktiken: små, verkliga exempel lär mer än långa översikter.",
      "Jämför alternativen på det som spelar roll här: insats, kostnad och hur väl vart och ett motsvarar det du behöver av {t2}.",
      "Fråga dem som redan arbetar med {t1}; deras misstag är de billigaste lärdomarna.",
      "Ta ett steg i taget, kontrollera resultatet och justera före nästa steg.",
      "Var försiktig med råd som bortser från din situation: det som fungerar för andra när det gäller {t2} fungerar inte alltid för dig.",
    ],
    close: ["Kort sagt: var tydlig med målet för {t1}, börja i liten skala och bygg vidare.", "Mitt råd: välj det alternativ för {t1} som passar din situation bäst, och ompröva efter en tid."],
  },
  en: {
    open: ["Here is how I would answer \"{topic}\":", "A short answer to \"{topic}\" first, then the details:", "\"{topic}\" has a practical answer:"],
    points: [
      "Start with what you want from {t1}, and let that decide the rest.",
      "Look at {t1} in practice: small, real examples teach more than long overviews.",
      "Compare the options on what matters here: effort, cost, and how well each one matches what you need from {t2}.",
      "Ask people who already work with {t1}; their mistakes are the cheapest lessons.",
      "Take one step at a time, check the result, and adjust before the next step.",
      "Be wary of advice that ignores your own situation: what works for others when it comes to {t2} may not work for you.",
    ],
    close: ["In short: be clear about your goal with {t1}, start small and build from there.", "My advice: choose the option for {t1} that suits your situation best, and revisit the choice after a while."],
  },
} as const;

/** A /debatt turn: opening, reply to another participant, sentences about the topic's words, close. */
const TURN = {
  sv: {
    open: [
      "I frågan \"{topic}\" är mitt svar: {stance}.",
      "Jag vill börja med att ta ställning i frågan \"{topic}\": {stance}.",
      "När vi diskuterar \"{topic}\" behöver vi skilja på principer och praktik. Mitt svar: {stance}.",
    ],
    reply: [
      "{other} har en poäng, men argumentet bortser från hur {t1} ser ut i praktiken.",
      "Jag delar delvis {other}s analys av {t1}, men slutsatsen går längre än underlaget räcker till.",
      "Som {other} påpekade finns en målkonflikt kring {t1}, och den måste hanteras öppet.",
    ],
    deepen: [
      "Jag har lyssnat på motargumenten om {t1}, och min hållning har blivit skarpare snarare än annorlunda.",
      "Det starkaste motargumentet hittills gäller {t2}, och det förtjänar ett ärligt svar.",
    ],
    /** For, against and nuanced, on a yes/no question. */
    side: [
      ["Skälet för är vad {t1} skulle göra möjligt som inte är möjligt i dag.", "Ett ja är det bättre valet, eftersom vinsterna kring {t1} är konkreta och riskerna går att hantera."],
      ["Skälet emot är att kostnaderna kring {t1} är lätta att underskatta och svåra att backa från.", "Ett nej är det försiktigare valet, eftersom det vi skulle vinna kring {t1} fortfarande är osäkert."],
      ["Både ett ja och ett nej går för långt: svaret beror på hur vi hanterar {t1} i praktiken.", "Ett rakt ja eller nej missar att {t2} drar åt ett annat håll än {t1}."],
    ],
    body: [
      "Frågan om {tx} är lättare att bedöma utifrån konkreta fall än utifrån allmänna principer.",
      "Mycket av oenigheten om {tx} kommer av olika mål, inte olika fakta.",
      "När det gäller {tx} avgör detaljerna mer än rubriken.",
      "Ett bra test är att fråga vad som skulle ändras i praktiken om vi bedömde {tx} fel.",
      "Den som har arbetat med {tx} vet att det första valet sällan blir det sista.",
      "Vi måste också väga in {t2}, som drar åt ett annat håll än {t1}.",
      "Det starkaste argumentet om {tx} är det som klarar ett konkret motexempel.",
      "Det hjälper att skilja på vad vi vet om {tx} och vad vi bara förväntar oss.",
      "Erfarenheter av {t2} visar hur snabbt en rimlig plan möter praktiska gränser.",
      "Om vi ser på {t1} utifrån {t2} förändras bilden märkbart.",
      "Ett felaktigt val kring {tx} kostar oftast tid, och tid är det de flesta har minst av.",
      "Ingen bestrider att {tx} spelar roll; oenigheten gäller hur mycket, och för vem.",
      "Ett påstående om {tx} bör prövas mot exempel, inte bara mot magkänslan.",
      "Det som fungerar för en person när det gäller {t2} fungerar inte nödvändigtvis för nästa, så en och samma lösning passar inte alla.",
      "Jag vill hellre ha ungefär rätt om {tx} än exakt fel.",
      "Det enklaste alternativet är inte alltid det bästa, men när det gäller {tx} är det ofta rätt ställe att börja.",
      "Att också se på {t3} ger ett fylligare svar än att bara se på {t1}.",
      "Innan vi avgör frågan om {tx} bör vi enas om hur ett bra utfall ser ut.",
      "Små steg som går att ta tillbaka är det klokaste sättet att lära sig vad {tx} verkligen kräver.",
      "De exempel som får mest uppmärksamhet kring {tx} är sällan de typiska.",
    ],
    close: [
      "Sammantaget är det bästa svaret om {t1} det som håller mot verkliga exempel.",
      "Därför står jag fast vid min hållning: {t1} förtjänar ett konkret svar snarare än ett allmänt.",
      "Min slutsats är att frågan om {t1} förtjänar mer nyans än den brukar få.",
    ],
  },
  en: {
    open: [
      "On \"{topic}\" my answer is: {stance}.",
      "Let me take a clear position on \"{topic}\" first: {stance}.",
      "When we discuss \"{topic}\" we must separate principles from practice. My answer: {stance}.",
    ],
    reply: [
      "{other} makes a fair point, but the argument leaves out what {t1} looks like in practice.",
      "I partly share {other}'s analysis of {t1}, but the conclusion goes further than the evidence allows.",
      "As {other} noted, there is a trade-off around {t1}, and it must be handled openly.",
    ],
    deepen: [
      "I have listened to the counter-arguments about {t1}, and my position has become sharper rather than different.",
      "The strongest counter-argument so far concerns {t2}, and it deserves an honest answer.",
    ],
    side: [
      ["The case for it rests on what {t1} would make possible that is not possible today.", "Saying yes is the better bet, because the gains around {t1} are concrete and the risks can be managed."],
      ["The case against it is that the costs around {t1} are easy to underestimate and hard to undo.", "Saying no is the more careful choice, because what we would gain around {t1} is still uncertain."],
      ["Both a plain yes and a plain no go too far: the answer depends on the way we handle {t1} in practice.", "A flat yes or no misses that {t2} pulls in a different direction from {t1}."],
    ],
    body: [
      "The question of {tx} is easier to judge from concrete cases than from general principles.",
      "Much of the disagreement about {tx} comes from different goals, not different facts.",
      "When it comes to {tx}, the details decide more than the headline.",
      "A good test is to ask what would change in practice if we got {tx} wrong.",
      "Anyone who has worked with {tx} knows that the first choice is rarely the last one.",
      "We also have to weigh {t2}, which pulls in a different direction from {t1}.",
      "The strongest argument about {tx} is the one that survives a concrete counter-example.",
      "It helps to separate what we know about {tx} from what we merely expect.",
      "Experience with {t2} shows how quickly a sensible plan meets practical limits.",
      "If we look at {t1} from the point of view of {t2}, the picture changes noticeably.",
      "The cost of a wrong choice about {tx} is usually time, and time is what most people have least of.",
      "Nobody disputes the importance of {tx}; the disagreement is about how much it weighs, and for whom.",
      "A claim about {tx} should be checked against examples, not only against intuition.",
      "What works for one person when it comes to {t2} may not work for the next, so a single answer will not fit everyone.",
      "I would rather be roughly right about {tx} than precisely wrong about it.",
      "The simplest option is not always the best one, but with {tx} it is often the right place to start.",
      "Looking at {t3} as well gives a fuller answer than looking at {t1} alone.",
      "Before we settle the question of {tx}, we should agree on what a good outcome would look like.",
      "Small, reversible steps are the sensible way to learn what {tx} really demands.",
      "The examples that get the most attention around {tx} are rarely the typical ones.",
    ],
    close: [
      "All in all, the best answer about {t1} is the one that holds up against real examples.",
      "That is why I keep my position: {t1} deserves a concrete answer rather than a general one.",
      "My conclusion is that the question of {t1} deserves more nuance than it usually gets.",
    ],
  },
} as const;

/** /debatt's vote, convergence analysis and final synthesis, about the topic's words. */
const DEBATE = {
  sv: {
    motivation: [
      "Argumenterade tydligast om {t1} och bemötte motargumenten sakligt.",
      "Gav de mest konkreta exemplen kring {tx} och svarade på invändningarna.",
      "Höll en tydlig linje om {t1} och erkände de andras goda poänger.",
    ],
    bullets: ["Tydlig hållning om {t1}", "Konkreta exempel", "Bemötte andra deltagare"],
    merged: [
      "Deltagarna var i stort sett överens om vad {t1} kräver, men inte om hur {t2} ska vägas in.",
      "Debatten om {t1} rörde sig mot ett villkorat svar, men deltagarna drog gränsen på olika ställen.",
    ],
    comparative: [
      "Vissa deltagare argumenterade utifrån principer om {t1}, andra utifrån konkreta fall som rör {t2}.",
      "Skillnaden låg mindre i fakta om {t1} än i vilka mål deltagarna utgick från.",
    ],
    agreements: ["Ett bra svar om {t1} beror på sammanhanget", "Konkreta exempel väger tyngre än allmänna påståenden", "Frågan om {t1} förtjänar ett svar som går att ompröva"],
    disagreements: ["Hur stor vikt {t2} ska få", "Om ett och samma svar om {t1} passar de flesta", "Vilka exempel på {t1} som är typiska"],
    heads: ["## Sammanfattning", "## Starkaste argumenten", "## Samsyn och oenighet", "## Slutsats"],
    summary: [
      "Debatten om \"{topic}\" handlade mindre om fakta än om vad deltagarna ville att {t1} skulle åstadkomma.",
      "De flesta deltagare var överens om att {t1} spelar roll, men vägde det olika mot {t2}.",
      "Frågan om {t1} fick både principiella och praktiska svar, och de möttes bara delvis.",
    ],
    winnerLine: "{winner} vann omröstningen genom att kombinera en tydlig hållning om {t1} med konkreta exempel.",
    strongest: [
      "De starkaste argumenten var de som prövades mot konkreta fall av {t1}.",
      "Argument som pekade på en bestämd situation kring {t2} vägde tyngre än allmänna principer.",
    ],
    agreement: [
      "Det fanns en bred samsyn om att ett bra svar om {t1} beror på sammanhanget.",
      "Oenigheten gällde hur stor vikt {t2} ska få, och för vem.",
      "Ingen deltagare hävdade att ett enda svar om {t1} passar alla.",
    ],
    conclusion: [
      "Debatten lämnar ett villkorat svar: {t1} förtjänar ett konkret beslut som går att ompröva.",
      "Kort sagt är det bästa svaret om {t1} det som håller mot verkliga exempel.",
    ],
    researchNote: "De resultat som säger något konkret om {t1} behålls.",
  },
  en: {
    motivation: [
      "Argued most clearly about {t1} and answered counter-arguments fairly.",
      "Gave the most concrete examples around {tx} and answered the objections.",
      "Held a clear line on {t1} and acknowledged the others' good points.",
    ],
    bullets: ["Clear position on {t1}", "Concrete examples", "Engaged with other participants"],
    merged: [
      "The participants largely agreed on what {t1} requires, but not on how to weigh {t2}.",
      "The debate about {t1} moved towards a conditional answer, but the participants drew the line in different places.",
    ],
    comparative: [
      "Some participants argued from principles about {t1}, others from concrete cases involving {t2}.",
      "The difference lay less in facts about {t1} than in the goals the participants started from.",
    ],
    agreements: ["A good answer about {t1} depends on context", "Concrete examples weigh more than general claims", "The question of {t1} deserves an answer that can be revisited"],
    disagreements: ["How much weight {t2} should get", "Whether one answer about {t1} suits most people", "Which examples of {t1} are typical"],
    heads: ["## Summary", "## Strongest arguments", "## Agreement and disagreement", "## Conclusion"],
    summary: [
      "The debate on \"{topic}\" was less about facts than about what the participants wanted from {t1}.",
      "Most participants agreed on the importance of {t1}, but weighed it against {t2} differently.",
      "The question of {t1} got both principled and practical answers, and they met only partly.",
    ],
    winnerLine: "{winner} won the vote by combining a clear position on {t1} with concrete examples.",
    strongest: [
      "The strongest arguments were the ones tested against concrete cases of {t1}.",
      "Arguments that named a specific situation around {t2} carried more weight than general principles.",
    ],
    agreement: [
      "There was broad agreement that a good answer about {t1} depends on context.",
      "The disagreement was about how much weight {t2} should get, and for whom.",
      "No participant claimed that a single answer about {t1} suits everyone.",
    ],
    conclusion: [
      "The debate leaves a conditional answer: {t1} deserves a concrete decision that can be revisited.",
      "In short, the best answer about {t1} is the one that holds up against real examples.",
    ],
    researchNote: "The results that say something concrete about {t1} are kept.",
  },
} as const;

/** /deep: the debaters' arguments, the moderator's assessment and the final synthesis. */
const DEEP = {
  sv: {
    points: [
      "Ett bra svar om {tx} utgår från vad den som frågar faktiskt behöver.",
      "Allmänna rankningar av {tx} döljer hur mycket rätt val beror på sammanhanget.",
      "Konkreta exempel på {tx} avgör mer än abstrakta jämförelser.",
      "Svar som utelämnar {t2} missar halva frågan om {t1}.",
      "Ett fel kring {tx} kostar mest tid, så ett val som är lätt att ompröva slår ett perfekt.",
      "Påståenden om {tx} bör prövas mot verkliga fall, inte bara mot magkänslan.",
      "Flera svar behandlar {tx} som avgjort, men underlaget stöder ett mer villkorat svar.",
      "Den praktiska sidan av {tx} (insats, kostnad och stöd) avgör mer än ryktet.",
      "Att också se på {t3} ändrar vilket svar om {t1} som är mest användbart.",
      "Ett svar om {tx} bör säga när det skulle vara fel, inte bara när det är rätt.",
    ],
    counterPoint: ["Deras svar behandlar {t1} som om ett enda val passar alla.", "Deras svar säger för lite om {t2}.", "Deras svar rangordnar {t1} efter rykte snarare än användning."],
    counterEvidence: [
      "Vad som passar en person beror på mål och utgångsläge, och det frågar svaret inte efter.",
      "Utan {t2} kan svaret inte skilja ett bra val från ett populärt.",
      "Konkreta fall av {t1} pekar mot ett mer villkorat svar.",
    ],
    consensus: [
      "Debattörerna är överens om att ett bra svar på \"{topic}\" utgår från konkreta behov och exempel, och att {t1} bör bedömas i sitt sammanhang snarare än efter rykte.",
      "Debattörerna närmar sig ett villkorat svar: frågan om {t1} kommer först, men rätt val beror på {t2} och på vad den som frågar vill uppnå.",
    ],
    disagreements: ["Hur mycket vikt {t2} ska få jämfört med {t1}", "Om ett och samma svar om {t1} kan passa de flesta", "Vilka exempel på {t1} som är typiska snarare än undantag"],
    focus: ["Ge konkreta exempel på {t1}, och säg när ert svar skulle vara fel.", "Bemöt {t2} direkt, och jämför med {t1}."],
    heads: ["## Svar", "## Där debatten var enig", "## Det som fortfarande är omstritt", "## Slutsats"],
    answer: [
      "Det korta svaret på \"{topic}\": det beror på, men inte godtyckligt; frågan om {t1} bör avgöras av konkreta behov snarare än av rykte.",
      "Börja i vad svaret ska användas till: det bästa valet när det gäller {t1} är det som passar målet och går att ompröva.",
      "Väg in {t2} tillsammans med {t1}: debatten visade att svaret blir svagare om någon av dem utelämnas.",
    ],
    agreed: ["Alla debattörer landade i att behandla {t1} som en fråga om sammanhang snarare än om ett enda rätt svar."],
    conclusion: [
      "I praktiken: välj det som passar ditt mål när det gäller {t1} i dag, pröva det på ett litet, verkligt fall och ompröva när du vet mer.",
      "Det mest användbara svaret om {t1} är villkorat, konkret och lätt att revidera.",
    ],
  },
  en: {
    points: [
      "A good answer about {tx} starts from what the person asking actually needs.",
      "General rankings of {tx} hide how much the right choice depends on context.",
      "Concrete examples of {tx} settle more than abstract comparisons do.",
      "Answers that leave out {t2} miss half of the question about {t1}.",
      "A mistake about {tx} mostly costs time, so a choice that is easy to revisit beats a perfect one.",
      "Claims about {tx} should be checked against real cases, not only intuition.",
      "Several answers treat {tx} as settled, but the evidence supports a more conditional answer.",
      "The practical side of {tx} (effort, cost and support) decides more than its reputation.",
      "Looking at {t3} as well changes which answer about {t1} is the most useful.",
      "An answer about {tx} should say when it would be wrong, not only when it is right.",
    ],
    counterPoint: ["Their answer treats {t1} as if one choice fits everyone.", "Their answer says too little about {t2}.", "Their answer ranks {t1} by reputation rather than by use."],
    counterEvidence: [
      "What suits one person depends on goals and starting point, which the answer does not ask about.",
      "Without {t2} the answer cannot tell a good choice from a popular one.",
      "Concrete cases of {t1} point to a more conditional answer.",
    ],
    consensus: [
      "The debaters agree that a good answer to \"{topic}\" starts from concrete needs and examples, and that {t1} should be judged in context rather than by reputation.",
      "The debaters converge on a conditional answer: the question of {t1} comes first, but the right choice depends on {t2} and on what the person asking wants to achieve.",
    ],
    disagreements: ["How much weight {t2} should get compared with {t1}", "Whether one answer about {t1} can suit most people", "Which examples of {t1} are typical rather than exceptional"],
    focus: ["Give concrete examples of {t1}, and say when your answer would be wrong.", "Address {t2} directly, and compare it with {t1}."],
    heads: ["## Answer", "## Where the debate agreed", "## What remains disputed", "## Conclusion"],
    answer: [
      "The short answer to \"{topic}\": it depends, but not arbitrarily; the question of {t1} should be settled by concrete needs rather than by reputation.",
      "Start from what the answer is for: the best choice about {t1} is the one that fits the goal and can be revisited.",
      "Weigh {t2} alongside {t1}: the debate showed that leaving either out gives a weaker answer.",
    ],
    agreed: ["All debaters ended up treating {t1} as a question of context rather than of a single right answer."],
    conclusion: [
      "In practice: choose what fits your goal for {t1} today, test it on a small, real case, and revisit it once you know more.",
      "The most useful answer about {t1} is conditional, concrete and easy to revise.",
    ],
  },
} as const;

/** The perspectives of /council's judges (prompts/council.ts), as a judge writes about its own. */
type Perspective = { lead: Bank; insight: Bank; finding: Bank };
const PERSPECTIVES: ByLang<Record<string, Perspective>> = {
  sv: {
    correctness: {
      lead: ["Ur korrekthetsperspektivet läser jag {claim} som ett faktapåstående om {t1} och prövar om det håller som det är skrivet.", "Jag har bedömt om påståendet är sant som det står, och det är {t1} som bär det."],
      insight: [
        "Om påståendet är sant avgörs av {t1}: det framförs som ett rent faktum, utan de villkor under vilka det gäller.",
        "Påståendet om {t1} är starkare än vad som går att visa; som det är formulerat tillåter det inga undantag.",
        "Det påståendet säger om {t2} är det svagaste steget, och resten vilar på det.",
      ],
      finding: [
        "Påståendet om {t1} framförs som fakta, men ingen källa eller mätning anges.",
        "Formuleringen tillåter inga undantag, så ett enda motexempel som gäller {t2} gör det falskt.",
        "Påståendet blandar det som är observerat med det som antas om {t1}.",
      ],
    },
    risk: {
      lead: ["Ur riskperspektivet är frågan vad som händer med den som handlar utifrån {claim}.", "Jag har sett på vem som kan vilseledas av påståendet, och hur; det är kring {t1} det spelar störst roll."],
      insight: [
        "Den som litar på påståendet utan att kontrollera {t1} kan handla utifrån en felaktig premiss.",
        "Risken ligger mindre i påståendet självt än i att det som sägs om {t1} upprepas som fastslagen sanning.",
        "Den som tar delen om {t2} för given får ingen varning av påståendet.",
      ],
      finding: [
        "Inget i påståendet varnar läsaren för begränsningarna kring {t1}.",
        "Den som upprepar påståendet om {t2} kan föra ett misstag vidare.",
        "Påståendet ger inget sätt att kontrollera {t1} innan man förlitar sig på det.",
      ],
    },
    completeness: {
      lead: ["Ur fullständighetsperspektivet spelar det påståendet utelämnar lika stor roll som det det säger om {t1}.", "Jag har letat efter de villkor och alternativ som {claim} skulle behöva för att kunna prövas."],
      insight: [
        "Påståendet säger inget om villkoren kring {t1}, och utan dem går det inte att pröva fullt ut.",
        "Påståendet utelämnar hur {t2} har observerats eller mätts.",
        "En alternativ förklaring som rör {t1} tas inte upp alls.",
      ],
      finding: ["Påståendet utelämnar de villkor som {t1} beror på.", "Ingen alternativ förklaring som rör {t2} övervägs.", "Påståendet säger inte hur {t1} har fastställts."],
    },
    evidence: {
      lead: ["Ur beläggsperspektivet har jag letat efter källor, data eller egna observationer bakom {claim}.", "Jag har bedömt hur väl påståendet om {t1} är underbyggt, inte hur ofta det upprepas."],
      insight: [
        "Påståendet om {t1} är aldrig starkare än sina belägg, och det anger inga.",
        "Att ett påstående om {t2} upprepas ofta gör det inte till ett belägg.",
        "Slutsatsen om {t1} följer inte av något som påståendet visar.",
      ],
      finding: ["Ingen källa anges för påståendet om {t1}.", "Påståendet vilar på en allmän föreställning om {t2} snarare än på data.", "Det finns ingen observation eller mätning av {t1} att kontrollera."],
    },
    clarity: {
      lead: ["Ur tydlighetsperspektivet måste en läsare kunna avgöra exakt vad {claim} hävdar.", "Jag har läst påståendet som dess publik skulle göra och frågat vad det säger om {t1}."],
      insight: [
        "Påståendet kan läsas på mer än ett sätt, beroende på vad som menas med {t1}.",
        "Formuleringen om {t2} är målande, men målande är inte detsamma som precis.",
        "En läsare kan inte avgöra hur strikt delen om {t1} ska förstås.",
      ],
      finding: ["Vad {t1} betyder i påståendet är tvetydigt.", "Påståendet säger inte hur {t2} ska förstås.", "Formuleringen inbjuder till en starkare läsning av {t1} än vad som kanske avses."],
    },
    "devils-advocate": {
      lead: ["Som djävulens advokat driver jag det starkaste argumentet mot {claim} och bedömer sedan om det håller.", "Den bästa invändningen mot påståendet är att det gör ett specialfall som rör {t1} till en allmän sanning."],
      insight: [
        "Det starkaste argumentet mot påståendet är att det drar längre slutsatser om {t1} än fakta medger.",
        "Om påståendet är fel är det troligen fel om {t2}.",
        "Invändningen håller delvis: påståendet om {t1} kan stämma i vissa fall, men inte som det är formulerat.",
      ],
      finding: [
        "Den starkaste invändningen, att påståendet generaliserar för långt utifrån {t1}, bemöts inte.",
        "Påståendet faller om det visar sig att {t2} beror på villkor som det bortser från.",
        "Inget i påståendet utesluter det uppenbara motexemplet som rör {t1}.",
      ],
    },
  },
  en: {
    correctness: {
      lead: ["From the correctness perspective, I read {claim} as a factual statement about {t1} and checked whether it holds as written.", "I judged whether the claim is true as stated, with {t1} as the part that carries it."],
      insight: [
        "Whether the claim is true turns on {t1}: it is stated as a plain fact, without the conditions under which it holds.",
        "The claim about {t1} is stronger than what can be shown; as worded it allows no exceptions.",
        "What the claim says about {t2} is the weakest step, and the rest depends on it.",
      ],
      finding: [
        "The claim about {t1} is stated as fact, but no source or measurement is given.",
        "The wording allows no exceptions, so one counter-example involving {t2} would make it false.",
        "The claim mixes what is observed with what is assumed about {t1}.",
      ],
    },
    risk: {
      lead: ["From the risk perspective, the question is what happens to someone who acts on {claim}.", "I looked at who could be misled by the claim, and how; it matters most around {t1}."],
      insight: [
        "Someone who relies on the claim without checking {t1} could act on a false premise.",
        "The risk lies less in the claim itself than in repeating what it says about {t1} as settled fact.",
        "A reader who takes the part about {t2} at face value gets no warning from the claim.",
      ],
      finding: [
        "Nothing in the claim warns the reader about the limits of {t1}.",
        "A reader who repeats the claim about {t2} may pass on a mistake.",
        "The claim gives no way to check {t1} before relying on it.",
      ],
    },
    completeness: {
      lead: ["From the completeness perspective, what the claim leaves out matters as much as what it says about {t1}.", "I looked for the conditions and alternatives that {claim} would need in order to be checked."],
      insight: [
        "The claim says nothing about the conditions around {t1}, and without them it cannot be fully checked.",
        "The claim leaves out how {t2} was observed or measured.",
        "An alternative explanation involving {t1} is not considered at all.",
      ],
      finding: ["The claim omits the conditions that {t1} depends on.", "No alternative explanation involving {t2} is considered.", "The claim does not say how {t1} was established."],
    },
    evidence: {
      lead: ["From the evidence perspective, I looked for sources, data or first-hand observations behind {claim}.", "I judged how well the claim about {t1} is supported, not how often it is repeated."],
      insight: [
        "The claim about {t1} is only as strong as its evidence, and it cites none.",
        "Repeating a claim about {t2} often does not turn it into evidence.",
        "The conclusion about {t1} does not follow from anything the claim shows.",
      ],
      finding: ["No source is given for the claim about {t1}.", "The claim rests on common belief about {t2} rather than on data.", "There is no observation or measurement of {t1} to check."],
    },
    clarity: {
      lead: ["From the clarity perspective, a reader has to be able to tell exactly what {claim} asserts.", "I read the claim as its audience would, and asked what it says about {t1}."],
      insight: [
        "The claim can be read in more than one way, depending on what is meant by {t1}.",
        "The wording about {t2} is vivid, but vivid is not the same as precise.",
        "A reader cannot tell how strictly the part about {t1} is meant.",
      ],
      finding: ["The meaning of {t1} in the claim is ambiguous.", "The claim does not say how {t2} should be understood.", "The framing invites a stronger reading of {t1} than may be intended."],
    },
    "devils-advocate": {
      lead: ["As the devil's advocate, I argue the strongest case against {claim} and then judge whether it succeeds.", "The best objection to the claim is that it turns a special case involving {t1} into a general rule."],
      insight: [
        "The strongest case against the claim is that it generalises from {t1} further than the facts allow.",
        "If the claim is wrong, it is most likely wrong about {t2}.",
        "The objection succeeds only in part: the claim about {t1} may hold in some cases, but not as stated.",
      ],
      finding: [
        "The strongest objection, that the claim overgeneralises from {t1}, is not answered.",
        "The claim would fail if {t2} turned out to depend on conditions it ignores.",
        "Nothing in the claim rules out the obvious counter-example involving {t1}.",
      ],
    },
  },
};

type VerdictName = "PASS" | "WARN" | "FAIL";

/** What a judge says for each verdict, round 2's extra sentences, and the council's report. */
const COUNCIL = {
  sv: {
    verdictLead: {
      PASS: ["Sammantaget håller påståendet ur det här perspektivet.", "Jag hittade inget problem som är allvarligt nog att hindra en läsare från att lita på det."],
      WARN: ["Påståendet går att använda, men först när problemen nedan är åtgärdade.", "Delar av påståendet håller, men som det är skrivet lovar det mer än det kan visa."],
      FAIL: ["Som det är skrivet går det inte att lita på påståendet.", "Problemen är så allvarliga att en läsare inte bör förlita sig på påståendet."],
    },
    /** A passing judge's key insight: what holds, not a criticism. */
    passInsight: ["Ur det här perspektivet håller påståendet om {t1}: inget i det behöver rättas.", "Det som sägs om {t1} klarar den här prövningen, även om en källa skulle stärka det."],
    recommendation: {
      PASS: ["Behåll påståendet och ange en källa för {t1} så att läsaren kan kontrollera det.", "Behåll det som det är, men ange var uppgiften om {t1} kommer ifrån."],
      WARN: ["Precisera påståendet: ange villkoren för {t1} och en källa.", "Skriv om påståendet så att delen om {t1} säger det som faktiskt går att visa."],
      FAIL: ["Förlita dig inte på påståendet som det står; kontrollera {t1} mot en primärkälla och formulera om det.", "Dra tillbaka påståendet tills uppgiften om {t1} har stöd i belägg."],
    },
    steelman: [
      "Det starkaste utlåtandet som skiljer sig från mitt vilar på {t2}; jag har vägt det, men det ändrar inte mitt, eftersom ingen domare pekade på en konkret detalj jag missade.",
      "Om jag ger motsidan dess starkaste form: gällde {t1} i varje fall vore ett annat utlåtande rätt, men inget som de andra domarna anför visar det.",
    ],
    restated: "I runda 1 var mitt utlåtande {verdict}.",
    meaning: {
      PASS: "Påståendet håller som det är formulerat.",
      WARN: "Påståendet går att använda först när problemen nedan är åtgärdade.",
      FAIL: "Påståendet bör inte användas som det är skrivet.",
    },
    verdictLine: "Rådets utlåtande om {claim} är **{verdict}** ({counts}).",
    unanimous: "Alla domare kom fram till samma utlåtande, så den viktigaste reservationen är en möjlig gemensam blind fläck.",
    divided: "Domarna var oeniga: {groups}.",
    gave: "{judges} gav {verdict}",
    and: "och",
    severity: { critical: "kritiskt", significant: "betydande", minor: "mindre" } as Record<string, string>,
    perspective: { correctness: "korrekthet", risk: "risk", completeness: "fullständighet", evidence: "belägg", clarity: "tydlighet", "devils-advocate": "djävulens advokat" } as Record<string, string>,
    heads: ["## Utlåtande", "## Fynd", "## Där domarna skiljer sig", "## Rekommendation"],
    notes: {
      failed: "Alla domare misslyckades i runda 2, så rapporten bygger på runda 1.",
      partial: "Några domare blev inte klara med runda 2; deras utlåtanden från runda 1 används.",
      skipped: "Runda 2 hoppades över eftersom färre än två domare gav ett utlåtande i runda 1.",
    },
  },
  en: {
    verdictLead: {
      PASS: ["On balance, the claim holds up from this perspective.", "I found no problem serious enough to stop a reader from relying on it."],
      WARN: ["The claim is usable, but only once the problems below are fixed.", "Parts of the claim hold, but as written it promises more than it can show."],
      FAIL: ["As written, the claim cannot be relied on.", "The problems are serious enough that a reader should not rely on the claim."],
    },
    /** A passing judge's key insight: what holds, not a criticism. */
    passInsight: ["From this perspective the claim about {t1} holds: nothing in it needs correcting.", "What the claim says about {t1} passes this check, though a source would make it stronger."],
    recommendation: {
      PASS: ["Keep the claim, and add a source for {t1} so that readers can check it.", "Keep it as it is, but say where the statement about {t1} comes from."],
      WARN: ["Qualify the claim: state the conditions for {t1}, and cite a source.", "Rewrite the claim so that the part about {t1} says what can actually be shown."],
      FAIL: ["Do not rely on the claim as written; check {t1} against a primary source and restate it.", "Withdraw the claim until the statement about {t1} is backed by evidence."],
    },
    steelman: [
      "The strongest verdict that differs from mine rests on {t2}; I have weighed it, and it does not change mine, because no judge pointed to a specific detail I missed.",
      "Steel-manning the other side: if {t1} held in every case, a different verdict would be right, but nothing the other judges cite shows that.",
    ],
    restated: "In round 1 my verdict was {verdict}.",
    meaning: {
      PASS: "The claim holds up as stated.",
      WARN: "The claim is usable only with the problems below fixed.",
      FAIL: "The claim should not be relied on as written.",
    },
    verdictLine: "The council's verdict on {claim} is **{verdict}** ({counts}).",
    unanimous: "All judges reached the same verdict, so the main caveat is a possible shared blind spot.",
    divided: "The judges were divided: {groups}.",
    gave: "{judges} gave {verdict}",
    and: "and",
    severity: { critical: "critical", significant: "significant", minor: "minor" } as Record<string, string>,
    perspective: { correctness: "correctness", risk: "risk", completeness: "completeness", evidence: "evidence", clarity: "clarity", "devils-advocate": "devil's advocate" } as Record<string, string>,
    heads: ["## Verdict", "## Findings", "## Where the judges differ", "## Recommendation"],
    notes: {
      failed: "Every judge failed round 2: this report rests on round 1.",
      partial: "Some judges did not finish round 2; their round-1 verdicts are used.",
      skipped: "Round 2 was skipped: fewer than two judges gave a round-1 verdict.",
    },
  },
} as const;

/** /vote and /revise: ballot reasons (about answers, not debate turns), revisions and restatements. */
const DELIBERATION = {
  sv: {
    ballot: [
      "{label} ger det mest användbara svaret på \"{topic}\": det är konkret om {t1} och lätt att följa.",
      "{label} är det tydligaste och mest fullständiga svaret: det tar upp {t1} och {t2} utan utfyllnad.",
      "{label} svarar mest direkt på frågan och ger praktiska steg för {t1}.",
    ],
    reason: {
      STAND: ["Mitt svar täcker redan {t1}, och de andra svaren tillför inget faktum som ändrar det.", "De andra svaren säger samma sak om {t1} som mitt, bara med andra ord, så jag står fast vid mitt svar."],
      REVISE: ["Ett annat svar visade att mitt svar om {t1} sa för lite om {t2}, så jag har lagt till det.", "Ett annat svar visade att mitt svar utelämnade ett praktiskt steg kring {t1}, så jag har lagt till det."],
      MERGE: ["De andra svaren tog upp {t2} bättre än mitt, så jag har förenat deras bästa poänger om {t1} med mina egna.", "Vart och ett av svaren hade en del av bilden av {t1}, så jag har förenat dem till ett."],
    },
    /** What a REVISE adds, for each of its reasons in order: the part about {t2}, the practical step. */
    added: [
      ["Väg också in {t2}: det avgör vilket val kring {t1} som är rätt, så kontrollera det innan du bestämmer dig.", "Ta reda på vad {t2} betyder för dig innan du bestämmer dig; det bästa valet kring {t1} beror på det."],
      ["Ett praktiskt första steg: pröva {t1} på en liten, verklig uppgift den här veckan och notera vad som var svårare än väntat.", "Innan du bestämmer dig, testa {t1} på ett litet, verkligt fall och jämför resultatet med vad du väntade dig."],
    ],
    restate: [
      "Mitt svar på \"{topic}\" var att utgå från vad du vill få ut av {t1} och ta ett prövat steg i taget. Det viktigaste belägget är att konkreta exempel på {t1} lär mer än allmänna översikter.",
      "Jag besvarade \"{topic}\" med praktiska steg kring {t1}: var tydlig med målet, jämför alternativen och ompröva valet. Det vilar på erfarenheter från dem som redan arbetar med {t1}.",
    ],
  },
  en: {
    ballot: [
      "{label} gives the most useful answer to \"{topic}\": it is concrete about {t1} and easy to follow.",
      "{label} is the clearest and most complete answer: it covers {t1} and {t2} without padding.",
      "{label} answers the question most directly and gives practical steps for {t1}.",
    ],
    reason: {
      STAND: ["My answer already covers {t1}, and the other responses add no fact that would change it.", "The other responses say the same about {t1} as mine, in other words, so I stand by my answer."],
      REVISE: ["Another response showed that my answer about {t1} said too little about {t2}, so I have added it.", "Another response showed that my answer left out a practical step for {t1}, so I have added it."],
      MERGE: ["The other responses covered {t2} better than mine, so I have combined their best points about {t1} with my own.", "Each response had part of the picture of {t1}, so I have combined them into one."],
    },
    /** What a REVISE adds, for each of its reasons in order: the part about {t2}, the practical step. */
    added: [
      ["Take {t2} into account as well: the right choice about {t1} depends on that, so look into that before you decide.", "Check what difference {t2} makes in your case before you decide; the best choice about {t1} depends on that."],
      ["A practical first step: try {t1} on one small, real task this week, and note what was harder than expected.", "Before you commit, test {t1} on a small, real case and compare the result with what you expected."],
    ],
    restate: [
      "My answer to \"{topic}\" was to start from what you want from {t1} and to take one tested step at a time. The key evidence is that concrete examples of {t1} teach more than general overviews.",
      "I answered \"{topic}\" with practical steps about {t1}: be clear about the goal, compare the options, and revisit the choice. That rests on the experience of people who already work with {t1}.",
    ],
  },
} as const;

const SUPERVISOR = {
  sv: "Det här är ett simulerat svar eftersom ingen modellnyckel är konfigurerad. Skriv \"/debatt <ämne>\" för att låta åtta AI-modeller debattera, eller \"/dvoice <ämne>\" för en röstdebatt.",
  en: "This is a simulated answer because no model key is configured. Type \"/debatt <topic>\" to let eight AI models debate, or \"/dvoice <topic>\" for a spoken debate.",
} as const;

/** Display names that have spoken in a context chain (`[Name]: …` lines). */
function speakersIn(text: string): string[] {
  return [...new Set([...text.matchAll(/^\[([^\]\n]+)\]:/gm)].map((m) => m[1]))];
}

const countWords = (text: string) => text.split(/\s+/).filter(Boolean).length;

/**
 * Writes one answer from sentence banks: fills the placeholders, draws in a seeded order, and never
 * uses a sentence twice in the same answer. A template that would name the same keyword twice
 * ("weigh “x” against “x”", when the question has one keyword) is skipped. Sentences in `soft`
 * (e.g. a judge's round-1 reply) are used only when nothing else is left.
 */
class Writer {
  readonly used = new Set<string>();
  constructor(
    private readonly rnd: () => number,
    private readonly vars: Record<string, string>,
    private readonly soft: ReadonlySet<string> = new Set(),
  ) {}

  fill(template: string, extra: Record<string, string> = {}): string {
    return template.replace(/\{(\w+)\}/g, (_m, k: string) => extra[k] ?? (k === "tx" ? this.anyTerm() : this.vars[k]) ?? "");
  }

  /** `{tx}`: one of the question's words, most often the first (for sentences that name only one). */
  private anyTerm(): string {
    const r = this.rnd();
    return r < 0.55 ? this.vars.t1 : r < 0.85 ? this.vars.t2 : this.vars.t3;
  }

  /** A number in [0, n). */
  index(n: number): number {
    return Math.floor(this.rnd() * n);
  }

  private usable(template: string): boolean {
    const terms = [...new Set([...template.matchAll(/\{(t[123])\}/g)].map((m) => m[1]))].map((k) => this.vars[k]);
    return new Set(terms).size === terms.length;
  }

  /** Up to `n` sentences of the bank, in a seeded order, none used before in this answer. */
  draw(bank: Bank, n: number, extra: Record<string, string> = {}): string[] {
    const order = [...bank];
    for (let i = order.length - 1; i > 0; i--) {
      const j = this.index(i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    const filled = order.filter((t) => this.usable(t)).map((t) => this.fill(t, extra)).filter((s) => !this.used.has(s));
    const ranked = [...filled.filter((s) => !this.soft.has(s)), ...filled.filter((s) => this.soft.has(s))];
    const out = ranked.slice(0, n);
    for (const s of out) this.used.add(s);
    return out;
  }

  /** One sentence of the bank (a used one only if the bank has nothing else). */
  one(bank: Bank, extra: Record<string, string> = {}): string {
    return this.draw(bank, 1, extra)[0] ?? this.fill(bank.find((t) => this.usable(t)) ?? bank[0], extra);
  }
}

/** The other debaters a /deep debater sees (`### Debater X` before the previous round's arguments). */
function otherDebaters(prompt: string): string[] {
  const others = prompt.split(/^## Previous Round Arguments/m)[0];
  return [...new Set([...others.matchAll(/^### (Debater \S+)/gm)].map((m) => m[1]))];
}

/** The consolidation a /council report prompt holds, when it can be read. */
interface Consolidation {
  verdicts: {
    judge: string;
    /** The judge's display name (Grok, Claude…), as the verdict table shows it. */
    display?: string;
    perspective?: string;
    verdict: VerdictName;
    key_insight?: string;
    findings?: { severity: string; description: string }[];
    recommendation?: string;
  }[];
  counts: Record<VerdictName, number>;
  consensus: VerdictName;
  unanimous?: boolean;
  round2?: string;
  note?: string;
}

function consolidationIn(prompt: string): Consolidation | null {
  const json = extractJsonObject(prompt);
  if (!json || !Array.isArray(json.verdicts) || typeof json.consensus !== "string" || !json.counts) return null;
  return json as unknown as Consolidation;
}

/** The answers a ballot or tiebreak prompt shows, by label (`--- Response A ---` or `--- Response A (2 votes) ---`, then the text). */
function responsesIn(prompt: string): Map<string, string> {
  const parts = prompt.split(/^--- (Response [A-Z])(?: \(\d+ votes?\))? ---[ \t]*$/m);
  const shown = new Map<string, string>();
  // Each answer is followed by a blank line, the last one then by the rest of the prompt (after a second blank line).
  for (let i = 1; i + 1 < parts.length; i += 2) shown.set(parts[i], parts[i + 1].split(/\n[ \t]*\n[ \t]*\n/)[0].trim());
  return shown;
}

/**
 * The answer a simulated voter prefers: each answer has a quality for the question (the same for
 * every voter) and each voter its own taste, so votes split, with now and then a tie, as real
 * voters' do. Both are seeded by the answer's text (by its label when the text is not shown), so a
 * question gets the same votes whatever the labels' order.
 */
function bestOf(labels: string[], keyOf: (label: string) => string, topic: string, voter: string): string | undefined {
  const unit = (text: string) => seededRandom(hash(text))();
  // Quality and taste weigh the same: with seven voters about one question in five ties, and the rest split.
  const score = (label: string) => unit(`quality|${topic}|${keyOf(label)}`) + unit(`taste|${voter}|${topic}|${keyOf(label)}`);
  return labels.reduce<string | undefined>((best, l) => (best === undefined || score(l) > score(best) ? l : best), undefined);
}

/** The original answer a /revise revision prompt shows (`YOUR ORIGINAL RESPONSE:`), when it can be found. */
function originalIn(prompt: string): string | null {
  const m = /YOUR ORIGINAL RESPONSE:[ \t]*\n([\s\S]*?)\n\s*\n(?:OTHER RESPONSES:|In 2-3 sentences)/.exec(prompt);
  return m?.[1].trim() || null;
}

/** The bullet points of the other answers a /revise revision prompt shows (`OTHER RESPONSES:`). */
function otherPointsIn(prompt: string): string[] {
  const others = /OTHER RESPONSES:\s*\n([\s\S]*?)(?:\nInstructions:|$)/.exec(prompt)?.[1] ?? "";
  return [...others.matchAll(/^\s*[-*•]\s+(.+?)\s*$/gm)].map((m) => m[1]);
}

/** An answer with points added after its last bullet point (at its end when it has none). */
function withPoints(answer: string, points: string[]): string {
  const lines = answer.split("\n");
  const last = lines.findLastIndex((l) => /^\s*[-*•]\s+/.test(l));
  const added = points.map((p) => `- ${p}`);
  if (last < 0) return [answer, "", ...added].join("\n");
  return [...lines.slice(0, last + 1), ...added, ...lines.slice(last + 1)].join("\n");
}

/** A judge's reply in parts: the analysis, the verdict block, and every sentence it used. */
interface JudgeReply {
  analysis: string;
  block: VerdictBlock;
  sentences: string[];
}

const SEVERITY_ORDER: Record<string, number> = { critical: 0, significant: 1, minor: 2 };

/** Builds the full simulated answer for a request. */
export function simulatedAnswer(request: ModelRequest, messages: BaseMessage[], opts: Pick<SimulatedOptions, "answerWords" | "roundWords" | "accuracy">): string {
  const prompt = messages.map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");
  const topic = request.topic ?? "";
  const lang = detectLanguage(topic || prompt);
  const me = request.participant?.display ?? "OneSeek";
  const round = request.round ?? 0;
  // An evaluation's task question (with SIMULATED_ACCURACY): the reply gives an answer to it.
  const task = opts.accuracy !== undefined ? solveTaskQuestion(topic || prompt) : undefined;
  if (task) {
    const reply = taskPhaseReply(request, task, prompt, me, lang, opts.accuracy!, () => simulatedAnswer(request, messages, { ...opts, accuracy: undefined }));
    if (reply !== undefined) return reply;
  }
  const rnd = seededRandom(hash(`${request.phase}|${me}|${round}|${topic}`));
  const quote = (s: string) => (lang === "sv" ? `”${s}”` : `“${s}”`);
  const terms = termsOf(topic);
  // The second and third phrases are used only when they say something on their own (a name, several words, a long word).
  const telling = (t: Term | undefined) => (t && ([...t.core].length >= 7 || /[\p{Lu}\s]/u.test(t.core)) ? t.text : undefined);
  const t1 = terms[0]?.text ?? (topic.trim() ? quote(shortTitle(topic, 40)) : lang === "sv" ? "frågan" : "the question");
  const t2 = telling(terms[1]) ?? t1;
  const t3 = telling(terms[2]) ?? t2;
  const vars = {
    t1,
    t2,
    t3,
    topic: topic || "…",
    claim: quote(shortTitle(topic, 90) || "…"),
  };
  const yesNo = YES_NO.test(topic);
  const stanceIndex = (who: string) => hash(who + topic) % 3;
  const stanceOf = (w: Writer, who: string) => w.fill((yesNo ? STANCES : vars.t2 === vars.t1 ? OPEN_STANCES_ONE : OPEN_STANCES)[lang][stanceIndex(who)]);
  const writer = (soft?: ReadonlySet<string>, seed = rnd) => new Writer(seed, vars, soft);

  /** A /debatt turn (also a /deep debater's position): about the topic's words, no sentence twice. */
  const turnText = (w: Writer, words: number, others: string[], turnRound: number): string => {
    const t = TURN[lang];
    const parts = [w.one(t.open, { stance: stanceOf(w, me) })];
    if (others.length > 0) parts.push(w.one(t.reply, { other: others[w.index(others.length)] }));
    if (turnRound >= 3) parts.push(w.one(t.deepen));
    if (yesNo) parts.push(w.one(t.side[stanceIndex(me)]));
    const close = w.one(t.close);
    let count = countWords(parts.join(" ")) + countWords(close);
    // A long answer goes round the body's sentences again.
    const body = w.draw(t.body, t.body.length);
    for (let i = 0; count < words && body.length > 0; i++) {
      parts.push(body[i % body.length]);
      count += countWords(body[i % body.length]);
    }
    parts.push(close);
    return parts.join(" ");
  };

  /** A /vote, /revise or /compare answer. */
  const answerText = (w: Writer): string => {
    const a = ANSWER[lang];
    const points = w.draw(a.points, 3 + w.index(2));
    return [w.one(a.open), "", ...points.map((p) => `- ${p}`), "", w.one(a.close)].join("\n");
  };

  /** A judge's verdict block and analysis for a round; round 2 restates round 1 and steel-mans the other side. */
  const judgeReply = (judgeRound: number): JudgeReply => {
    // Round 2 restates round 1's key insight, and prefers sentences round 1 did not use.
    const r1 = judgeRound === 2 ? judgeReply(1) : undefined;
    const w = writer(new Set(r1?.sentences ?? []), seededRandom(hash(`judge|${me}|${judgeRound}|${topic}`)));
    if (r1) w.used.add(r1.block.key_insight);
    const c = COUNCIL[lang];
    const verdict = (["PASS", "WARN", "WARN", "FAIL"] as const)[hash(`${me}|${topic}`) % 4];
    const judge = /You are (judge-\d+ \([^)]+\))/.exec(prompt)?.[1] ?? /"judge": "([^"]+)"/.exec(prompt)?.[1] ?? me;
    const named = /Your perspective: ([\w-]+)/.exec(prompt)?.[1] ?? /\(([\w-]+)\)/.exec(judge)?.[1] ?? "";
    const p = PERSPECTIVES[lang][named.toLowerCase()] ?? PERSPECTIVES[lang].correctness;
    const analysis = [w.one(p.lead), w.one(c.verdictLead[verdict])];
    if (r1) analysis.push(w.one(c.steelman));
    // A pass says what holds; the perspective's insights are its criticisms.
    const keyInsight = w.one(verdict === "PASS" ? c.passInsight : p.insight);
    const severities = verdict === "FAIL" ? (["significant", "significant"] as const) : verdict === "WARN" ? (["significant", "minor"] as const) : (["minor"] as const);
    const findings = w.draw(p.finding, verdict === "WARN" ? 1 + w.index(2) : severities.length).map((description, i) => ({ severity: severities[i], description }));
    const recommendation = w.one(c.recommendation[verdict]);
    const block: VerdictBlock = {
      judge,
      verdict,
      confidence: (["HIGH", "MEDIUM"] as const)[hash(me) % 2],
      key_insight: keyInsight,
      findings,
      recommendation,
      ...(r1 ? { r1_restatement: `${w.fill(c.restated, { verdict: r1.block.verdict })} ${r1.block.key_insight}`, change_justification: "" } : {}),
    };
    return { analysis: analysis.join(" "), block, sentences: [...analysis, keyInsight, ...findings.map((f) => f.description), recommendation] };
  };

  switch (request.phase) {
    case "vote": {
      const candidates = (request.candidates ?? speakersIn(prompt)).filter((c) => c !== me);
      // A topic-wide favourite gets most votes, so simulated debates usually have a clear winner.
      const favourite = candidates[hash(topic) % Math.max(1, candidates.length)];
      const choice = rnd() < 0.6 ? favourite : candidates[Math.floor(rnd() * candidates.length)];
      const w = writer();
      const d = DEBATE[lang];
      return renderVote({ voted_for: choice ?? "", short_motivation: w.one(d.motivation), three_bullets: d.bullets.map((b) => w.fill(b)) });
    }
    case "convergence": {
      const w = writer();
      const d = DEBATE[lang];
      return renderConvergence({
        merged_summary: w.one(d.merged),
        overlap_score: Math.round((0.4 + rnd() * 0.4) * 100) / 100,
        agreements: w.draw(d.agreements, 2),
        disagreements: w.draw(d.disagreements, 2),
        conflicts: [],
        comparative_summary: w.one(d.comparative),
      });
    }
    case "synthesis": {
      const winner = /\b(?:Vinnare enligt omröstningen|Winner):\s*([^\s(]+)/.exec(prompt)?.[1] ?? me;
      const w = writer();
      const d = DEBATE[lang];
      const sections = [
        w.draw(d.summary, 2),
        [w.fill(d.winnerLine, { winner }), w.one(d.strongest)],
        w.draw(d.agreement, 2),
        [w.one(d.conclusion)],
      ];
      return d.heads.map((h, i) => `${h}\n\n${sections[i].join(" ")}`).join("\n\n");
    }
    case "supervisor":
      return SUPERVISOR[lang];
    case "research_plan":
      return renderResearchPlan([topic].filter(Boolean));
    case "research_check":
      return renderResearchCheck([0, 1, 2], writer().fill(DEBATE[lang].researchNote));
    case "ballot":
    case "tiebreaker": {
      const labels = request.candidates ?? [];
      const shown = responsesIn(prompt);
      // An evaluation's task question: the voter backs the final answer most of the answers reach.
      const task = opts.accuracy !== undefined ? solveTaskQuestion(topic) : undefined;
      if (task) {
        const valueOf = (l: string) => parseTaskAnswer(task.task, shown.get(l) ?? "");
        const counts = new Map<string, number>();
        for (const l of labels) if (valueOf(l) !== undefined) counts.set(valueOf(l)!, (counts.get(valueOf(l)!) ?? 0) + 1);
        const common = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
        const backed = labels.find((l) => valueOf(l) === common) ?? labels[0] ?? "Response A";
        return renderLetterVote(backed, request.phase === "ballot" ? writer().one(DELIBERATION[lang].ballot, { label: backed }) : undefined);
      }
      // A voter recognises its own answer (every line of what it answered) and votes for another.
      const mine = simulatedAnswer({ ...request, phase: "answer", round: undefined }, [], opts).split("\n").filter((l) => l.trim());
      const own = (label: string) => request.phase === "ballot" && mine.every((l) => shown.get(label)?.includes(l));
      const choice = bestOf(labels.filter((l) => !own(l)), (l) => shown.get(l) ?? l, topic, me) ?? labels[0] ?? "Response A";
      // A ballot judges answers, so its reason is about the answer's content; the tiebreak is the vote line only.
      return renderLetterVote(choice, request.phase === "ballot" ? writer().one(DELIBERATION[lang].ballot, { label: choice }) : undefined);
    }
    case "restate":
      return writer().one(DELIBERATION[lang].restate);
    case "revision": {
      const decision = (["REVISE", "STAND", "MERGE"] as const)[hash(`${me}|${topic}`) % 3];
      const original = originalIn(prompt) ?? simulatedAnswer({ ...request, phase: "answer", round: undefined }, [], opts);
      const d = DELIBERATION[lang];
      const w = writer();
      // A STAND keeps the original answer: the revised response repeats it word for word.
      if (decision === "STAND") return renderRevision(decision, w.one(d.reason.STAND), original);
      // REVISE and MERGE keep the original and add what the reason says was missing, so the revised answer
      // is never shorter than the one it revises.
      const have = new Set(original.split("\n").map((l) => l.replace(/^\s*[-*•]\s*/, "").trim()));
      for (const line of have) w.used.add(line);
      if (decision === "REVISE") {
        const which = vars.t2 === vars.t1 ? 1 : w.index(2);
        return renderRevision(decision, w.fill(d.reason.REVISE[which]), withPoints(original, [w.one(d.added[which])]));
      }
      // A merge takes the others' points it lacks (from the prompt), else points of its own it had left out.
      const theirs = w.draw([...new Set(otherPointsIn(prompt).filter((p) => !have.has(p)))], 2);
      const points = theirs.length > 0 ? theirs : w.draw(ANSWER[lang].points, 2);
      return renderRevision(decision, w.one(d.reason.MERGE), withPoints(original, points.length > 0 ? points : [w.one(d.added[1])]));
    }
    case "answer":
    case "compare":
    case "continue":
      // An answer to the question, in the shape an answer has: not a debate position.
      return answerText(writer());
    case "debater": {
      const debateRound = request.round ?? 1;
      const h = hash(`${me}|${topic}|${debateRound}`);
      const w = writer();
      const d = DEEP[lang];
      const targets = otherDebaters(prompt);
      const keyPoints = w.draw(d.points, 2 + (h % 2));
      return renderArgument({
        stance: debateRound === 1 ? "maintain" : (["maintain", "partial_concede", "concede"] as const)[h % 3],
        key_points: keyPoints,
        counterpoints: [{ target: targets[h % Math.max(1, targets.length)] ?? "Debater A", point: w.one(d.counterPoint), evidence: w.one(d.counterEvidence) }],
        revision: debateRound === 1 ? "minor_update" : (["no_change", "minor_update"] as const)[h % 2],
        revised_position: turnText(w, 60, [], 2),
        confidence: Math.round((0.6 + rnd() * 0.35) * 100) / 100,
      });
    }
    case "moderator": {
      const modRound = request.round ?? 1;
      const w = writer();
      const d = DEEP[lang];
      return renderAssessment({
        should_stop: modRound >= 2,
        agreement_score: Math.min(0.95, Math.round((0.5 + 0.2 * modRound) * 100) / 100),
        new_points_ratio: Math.round((0.45 / Math.max(1, modRound)) * 100) / 100,
        consensus_answer: modRound >= 2 ? w.one(d.consensus) : null,
        remaining_disagreements: w.draw(d.disagreements, 2),
        next_round_focus: modRound >= 2 ? null : w.one(d.focus),
      });
    }
    case "deep_synthesis": {
      const w = writer();
      const d = DEEP[lang];
      const status = (extractJsonObject(prompt)?.convergence_status ?? {}) as { consensus_answer?: unknown; remaining_disagreements?: unknown };
      const consensus = typeof status.consensus_answer === "string" && status.consensus_answer.trim() ? status.consensus_answer.trim() : w.one(d.agreed);
      w.used.add(consensus);
      const given = Array.isArray(status.remaining_disagreements) ? status.remaining_disagreements.filter((s): s is string => typeof s === "string" && s.trim() !== "") : [];
      const disputed = [...new Set(given.length > 0 ? given : w.draw(d.disagreements, 2))];
      const sections = [w.draw(d.answer, 2).join(" "), consensus, disputed.map((s) => `- ${s}`).join("\n"), w.one(d.conclusion)];
      return d.heads.map((h, i) => `${h}\n\n${sections[i]}`).join("\n\n");
    }
    case "judge": {
      const { analysis, block } = judgeReply(request.round === 2 ? 2 : 1);
      return renderVerdict(analysis, block);
    }
    case "council_report": {
      const c = COUNCIL[lang];
      const w = writer();
      const result = consolidationIn(prompt);
      if (!result) {
        // No readable consolidation (e.g. an edited prompt): a report from the claim's words alone.
        const p = PERSPECTIVES[lang];
        return c.heads
          .map((h, i) => `${h}\n\n${[w.one(p.correctness.lead), w.one(p.evidence.finding), w.one(p.completeness.insight), w.one(c.recommendation.WARN)][i]}`)
          .join("\n\n");
      }
      const consensus = (["PASS", "WARN", "FAIL"] as const).includes(result.consensus) ? result.consensus : "WARN";
      const counts = (["PASS", "WARN", "FAIL"] as const).map((v) => `${v} ${result.counts[v] ?? 0}`).join(" · ");
      const list = (items: string[]) => (items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} ${c.and} ${items.at(-1)}`);
      // Judges by the names the verdict table shows, not the council's `judge-1 (correctness)`, whose
      // perspective is English; the perspective is said in the claim's language.
      const nameOf = (v: Consolidation["verdicts"][number]) => v.display?.trim() || v.judge;
      const perspectiveOf = (v: Consolidation["verdicts"][number]) => {
        const key = v.perspective ?? /\(([^)]+)\)$/.exec(v.judge)?.[1] ?? "";
        return c.perspective[key] ?? "";
      };
      const groups = (["PASS", "WARN", "FAIL"] as const)
        .map((v) => ({ v, judges: result.verdicts.filter((x) => x.verdict === v).map(nameOf) }))
        .filter((g) => g.judges.length > 0)
        .map((g) => w.fill(c.gave, { judges: list(g.judges), verdict: g.v }));
      const split = groups.length <= 1 ? c.unanimous : w.fill(c.divided, { groups: groups.join("; ") });
      const seen = new Set<string>();
      const fresh = (s: string | undefined) => (s && s.trim() && !seen.has(s.trim()) ? (seen.add(s.trim()), true) : false);
      const findings = result.verdicts
        .flatMap((v) => (v.findings ?? []).map((f) => ({ ...f, judge: nameOf(v) })))
        .sort((a, b) => (SEVERITY_ORDER[a.severity] ?? 3) - (SEVERITY_ORDER[b.severity] ?? 3))
        .filter((f) => fresh(f.description))
        .map((f) => `- **${c.severity[f.severity] ?? f.severity}** — ${f.description.trim()} (${f.judge})`);
      const insights = result.verdicts
        .filter((v) => fresh(v.key_insight))
        .map((v) => `- ${nameOf(v)} (${[perspectiveOf(v), v.verdict].filter(Boolean).join(", ")}): ${v.key_insight!.trim()}`);
      const lead = result.verdicts.find((v) => v.verdict === consensus && fresh(v.recommendation)) ?? result.verdicts.find((v) => fresh(v.recommendation));
      const recommendation = lead?.recommendation?.trim() || w.one(c.recommendation[consensus]);
      const note = result.round2 === "failed" || result.round2 === "partial" ? c.notes[result.round2] : result.note ? c.notes.skipped : "";
      const sections = [
        [w.fill(c.verdictLine, { verdict: consensus, counts }), c.meaning[consensus], split].join(" "),
        findings.length > 0 ? findings.join("\n") : w.one(PERSPECTIVES[lang].completeness.finding),
        insights.join("\n") || w.one(PERSPECTIVES[lang].evidence.insight),
        [recommendation, note].filter(Boolean).join(" "),
      ];
      return c.heads.map((h, i) => `${h}\n\n${sections[i]}`).join("\n\n");
    }
    case "title":
    case "client_task":
      return renderTitle(topic);
    case "json_result":
      return simulatedJson(prompt);
    case "turn": {
      const others = speakersIn(prompt).filter((s) => s !== me);
      const words = opts.roundWords?.[(request.round ?? 1) - 1] ?? opts.answerWords ?? (request.round === 1 ? 110 : 170) + Math.floor(rnd() * 60);
      return turnText(writer(), words, others, round);
    }
  }
}

/** A chat model that streams `simulatedAnswer` in word-token chunks, honouring the abort signal. */
export class SimulatedChatModel extends ChunkStreamingChatModel {
  constructor(
    private readonly request: ModelRequest,
    private readonly options: SimulatedOptions,
    params: BaseChatModelParams = {},
  ) {
    super(params);
  }

  _llmType(): string {
    return "simulated";
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const text = simulatedAnswer(this.request, messages, this.options);
    const tokens = text.match(/\S+\s*/g) ?? [];
    await sleep(this.options.latencyMs, options.signal);
    for (let i = 0; i < tokens.length; i += this.options.chunkTokens) {
      if (i > 0) await sleep(this.options.chunkDelayMs, options.signal);
      if (options.signal?.aborted) throw options.signal.reason;
      const piece = tokens.slice(i, i + this.options.chunkTokens).join("");
      yield new ChatGenerationChunk({ text: piece, message: new AIMessageChunk({ content: piece }) });
      await runManager?.handleLLMNewToken(piece);
    }
    // As a provider does in its last chunk: what the call used (estimated from the text; no cost).
    const input_tokens = messages.reduce((n, m) => n + estimateTokens(m.text), 0);
    const output_tokens = estimateTokens(text);
    yield new ChatGenerationChunk({ text: "", message: new AIMessageChunk({ content: "", usage_metadata: { input_tokens, output_tokens, total_tokens: input_tokens + output_tokens } }) });
  }
}

/** The ModelFactory of the offline provider. */
export class SimulatedModelFactory implements ModelFactory {
  readonly simulated = true;
  constructor(private readonly options: SimulatedOptions) {}
  create(request: ModelRequest): SimulatedChatModel {
    return new SimulatedChatModel(request, this.options);
  }
}
