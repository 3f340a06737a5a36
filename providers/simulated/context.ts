import { headline } from "../../state/text.js";
import type { BaseMessage } from "@langchain/core/messages";
import type { ModelPhase, ModelRequest } from "../../ports/models.js";
import { detectLanguage, type Lang } from "../../state/language.js";
import { hashText as hash, seededRandom } from "../../state/random.js";
import { shortTitle } from "../../state/replies/title.js";
import { termsOf, YES_NO, type Term } from "./question.js";
import { Writer } from "./writer.js";

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

/** The options a simulated answer depends on (the others pace its streaming). */
export type AnswerOptions = Pick<SimulatedOptions, "answerWords" | "roundWords" | "accuracy">;

/** What the sentence banks' placeholders are filled with: the question's words, the topic, the topic quoted as a claim. */
export type Vars = { t1: string; t2: string; t3: string; topic: string; claim: string };

/** One call of the simulated provider: its request, what it reads, and its seeded means of writing. */
export interface Simulation {
  request: ModelRequest;
  messages: BaseMessage[];
  opts: AnswerOptions;
  /** The messages' text, one after the other. */
  prompt: string;
  /** The request's topic, or "". */
  topic: string;
  /** The topic's language (the prompt's without a topic). */
  lang: Lang;
  /** Who speaks: the participant's display name, "OneSeek" for the internal model. */
  me: string;
  /** The request's round, 0 without one. */
  round: number;
  /** The call's random numbers, seeded by its phase, speaker, round and topic; its writers draw from them too. */
  rnd: () => number;
  vars: Vars;
  /** Whether the topic asks for yes or no. */
  yesNo: boolean;
  /** A writer of this call's sentences (drawing from `rnd` unless given another seed). */
  writer(soft?: ReadonlySet<string>, seed?: () => number): Writer;
  /**
   * The simulated answer to another request (e.g. a voter's own first answer): the dispatcher,
   * handed in so that the formats' modules need not import it (no import cycle).
   */
  simulate(request: ModelRequest, messages: BaseMessage[], opts: AnswerOptions): string;
}

/** A phase's simulated answer. */
export type PhaseAnswer = (s: Simulation) => string;
/** Every phase's simulated answer: the core phases' and each format's (its definition's `simulated`). */
export type PhaseTable = Record<ModelPhase, PhaseAnswer>;
/** A format's simulated answers, by the phases it answers. */
export type PhaseAnswers = Partial<Record<ModelPhase, PhaseAnswer>>;

/** The simulation of one call: what every phase's answer reads from the request and its messages. */
export function simulationOf(request: ModelRequest, messages: BaseMessage[], opts: AnswerOptions, simulate: Simulation["simulate"]): Simulation {
  const prompt = messages.map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");
  const topic = request.topic ?? "";
  const lang = detectLanguage(topic || prompt);
  const me = request.participant?.display ?? "OneSeek";
  const round = request.round ?? 0;
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
    // Quoted as a heading quotes it: a long question is not written out again in every answer.
    topic: headline(topic) || "…",
    claim: quote(shortTitle(topic, 90) || "…"),
  };
  const writer = (soft?: ReadonlySet<string>, seed = rnd) => new Writer(seed, vars, soft);
  return { request, messages, opts, prompt, topic, lang, me, round, rnd, vars, yesNo: YES_NO.test(topic), writer, simulate };
}
