import type { BaseChatModelParams } from "@langchain/core/language_models/chat_models";
import { AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk } from "@langchain/core/outputs";
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import type { ModelFactory, ModelRequest } from "../ports/models.js";
import { detectLanguage } from "../state/language.js";
import { seededRandom } from "../state/random.js";
import { renderArgument } from "../state/replies/argument.js";
import { renderAssessment } from "../state/replies/assessment.js";
import { renderConvergence } from "../state/replies/convergence.js";
import { renderVote } from "../state/replies/debate-vote.js";
import { renderLetterVote } from "../state/replies/letter-vote.js";
import { renderResearchCheck, renderResearchPlan } from "../state/replies/research.js";
import { renderRevision } from "../state/replies/revision.js";
import { renderTitle } from "../state/replies/title.js";
import { renderVerdict } from "../state/replies/verdict.js";
import { ChunkStreamingChatModel } from "./chunk-streaming-model.js";

/**
 * The offline provider used when no OPENAI_API_KEY is set: deterministic, varied and plausible
 * debate text in the topic's language (Swedish or English), streamed with a configurable latency.
 * It is for trying the product without keys, not a test double (tests use tests/support fakes).
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
}

/** FNV-1a: a small, stable string hash for deterministic choices. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Positions on a yes/no question ("Should…?", "Bör…?"). */
const STANCES = {
  sv: ["ja, jag är för", "nej, jag är emot", "det beror på, och jag landar i en nyanserad hållning"],
  en: ["yes, I am in favour", "no, I am against it", "it depends, and I land on a nuanced position"],
} as const;

/** Positions on an open question ("Which…?", "How…?"), about its own words. */
const OPEN_STANCES = {
  sv: ["jag sätter {kw} först", "jag väger det praktiska kring {kw} tyngst", "det beror på, och jag väger {kw} mot alternativen"],
  en: ["I would put {kw} first", "I would weigh the practical side of {kw} most", "it depends, and I weigh {kw} against the alternatives"],
} as const;

/** A question that asks for yes or no: it opens with an auxiliary verb. */
const YES_NO = /^\s*(should|is|are|can|could|will|would|does|do|did|must|has|have|may|bör|borde|ska|skall|är|kan|måste|har|får|blir|finns)\b/i;

/** Words too common to say what a question is about. */
const STOPWORDS = new Set(
  "what which when where why how who whom whose that this these those with from into about than then them they their there have does should would could will best most more much many some your you for and the are is was were been being also just only very such like över under från till inte utan eller och att det som för med vad vilket vilken vilka varför när var hur bäst mest mer många några ditt din dina ska skall bör borde kan måste finns blir har är jag vi ni man sig sin sina".split(" "),
);

/**
 * The words a question is about, most telling first: names and acronyms (TypeScript, AI), then the
 * longest words, which in a question are mostly its nouns. At most three; function words are left out.
 */
export function keywordsOf(question: string): string[] {
  const words = question.match(/[\p{L}\p{N}][\p{L}\p{N}'’+#.-]*[\p{L}\p{N}+#]|[\p{L}\p{N}]/gu) ?? [];
  const seen = new Set<string>();
  const candidates: { word: string; rank: number }[] = [];
  words.forEach((w, i) => {
    const lower = w.toLowerCase();
    const named = [...w].length >= 2 && ((i > 0 && /\p{Lu}/u.test(w)) || /^\p{Lu}{2,}$/u.test(w));
    if ((!named && [...w].length < 4) || STOPWORDS.has(lower) || seen.has(lower)) return;
    seen.add(lower);
    candidates.push({ word: w, rank: named ? 1_000 : [...w].length });
  });
  return candidates.sort((a, b) => b.rank - a.rank).slice(0, 3).map((c) => c.word);
}

/** An answer to a question (/compare, /vote, /revise): an opening, points about its words, a conclusion. */
const ANSWER = {
  sv: {
    open: ["Så här skulle jag besvara \"{topic}\":", "Kort svar på \"{topic}\" först, sedan detaljerna:", "\"{topic}\" har ett praktiskt svar:"],
    points: [
      "Börja med vad du vill att {kw} ska ge dig, och låt det styra resten.",
      "Titta på hur {kw} används i praktiken: små, verkliga exempel lär mer än långa översikter.",
      "Jämför alternativen på det som spelar roll här: insats, kostnad och hur väl de passar {kw2}.",
      "Fråga dem som redan arbetar med {kw}; deras misstag är de billigaste lärdomarna.",
      "Ta ett steg i taget, kontrollera resultatet och justera före nästa steg.",
      "Var försiktig med råd som bortser från din situation: det som fungerar för andra passar inte alltid {kw2}.",
    ],
    close: ["Kort sagt: var tydlig med målet för {kw}, börja i liten skala och bygg vidare.", "Mitt råd: välj det som passar {kw} bäst i din situation, och ompröva efter en tid."],
  },
  en: {
    open: ["Here is how I would answer \"{topic}\":", "A short answer to \"{topic}\" first, then the details:", "\"{topic}\" has a practical answer:"],
    points: [
      "Start with what you want {kw} to do for you, and let that decide the rest.",
      "Look at how {kw} is used in practice: small, real examples teach more than long overviews.",
      "Compare the options on what matters here: effort, cost, and how well they fit {kw2}.",
      "Ask people who already work with {kw}; their mistakes are the cheapest lessons.",
      "Take one step at a time, check the result, and adjust before the next step.",
      "Be wary of advice that ignores your own situation: what works for others may not suit {kw2}.",
    ],
    close: ["In short: be clear about your goal with {kw}, start small and build from there.", "My advice: choose what suits {kw} best in your situation, and revisit the choice after a while."],
  },
} as const;

/** Sentences of a debate turn about the topic's own words. */
const TOPICAL = {
  sv: ["När det gäller {kw} avgör detaljerna mer än rubriken.", "Mycket av oenigheten om {kw} kommer av olika mål, inte olika fakta."],
  en: ["When it comes to {kw}, the details decide more than the headline.", "Much of the disagreement about {kw} comes from different goals, not different facts."],
} as const;

const TEXT = {
  sv: {
    open: [
      "I frågan \"{topic}\" är mitt svar: {stance}.",
      "Jag vill börja med att ta ställning i frågan \"{topic}\": {stance}.",
      "När vi diskuterar \"{topic}\" behöver vi skilja på principer och praktik. Mitt svar: {stance}.",
    ],
    body: [
      "Det avgörande är vilka konsekvenser ett beslut får för människor i vardagen, inte bara hur det ser ut på papperet.",
      "Erfarenheter från andra länder visar att tydliga regler kan skapa förtroende utan att kväva utvecklingen.",
      "Samtidigt finns en verklig risk att vi överskattar hur väl vi kan förutse effekterna på lång sikt.",
      "Forskningen pekar inte åt ett enda håll, och det talar för att vi bör vara ödmjuka inför osäkerheten.",
      "Kostnaderna hamnar ofta hos dem som har minst inflytande, och det måste vägas in.",
      "Ett rimligt mellanläge är att börja med tydliga mål, följa upp resultaten och justera efter hand.",
      "Öppenhet och möjligheten att granska besluten är lika viktiga som själva innehållet.",
      "Det är lätt att peka på risker, men att avstå från att agera är också ett val med konsekvenser.",
      "Vi bör fråga oss vem som bär ansvaret när något går fel, och hur den som drabbas kan få upprättelse.",
      "Här är frågan om proportionalitet central: åtgärden måste stå i rimlig relation till problemet.",
    ],
    reply: [
      "{other} har en poäng, men jag tror att argumentet bortser från hur reglerna faktiskt efterlevs.",
      "Jag delar delvis {other}s analys, men slutsatsen går längre än underlaget räcker till.",
      "Som {other} påpekade finns en målkonflikt här, och den måste hanteras öppet.",
    ],
    close: [
      "Sammantaget står jag fast vid att vi behöver en balanserad och uppföljningsbar väg framåt.",
      "Därför menar jag att vi bör agera, men med tydliga avstämningspunkter.",
      "Min slutsats är att frågan förtjänar mer nyans än den ofta får.",
    ],
    motivation: "Argumenterade tydligast och bemötte motargumenten sakligt.",
    revisionReason: "De andra svaren lyfte kostnaderna och uppföljningen, som mitt svar tog för lätt på.",
    bullets: ["Tydlig ståndpunkt", "Konkreta exempel", "Bemötte andra deltagare"],
    supervisor: "Det här är ett simulerat svar eftersom ingen modellnyckel är konfigurerad. Skriv \"/debatt <ämne>\" för att låta åtta AI-modeller debattera, eller \"/dvoice <ämne>\" för en röstdebatt.",
    summary: "Deltagarna var överens om att frågan kräver balans, men oense om hur långt åtgärderna ska gå.",
    agreements: ["Frågan kräver uppföljning", "Konsekvenserna för människor är centrala"],
    disagreements: ["Hur snabbt man bör agera", "Hur stora riskerna är"],
    heads: ["## Sammanfattning", "## Starkaste argumenten", "## Samsyn och oenighet", "## Slutsats"],
    winnerLine: "{winner} vann omröstningen genom att kombinera en tydlig ståndpunkt med konkreta exempel.",
  },
  en: {
    open: [
      "On \"{topic}\" my answer is: {stance}.",
      "Let me take a clear position on \"{topic}\" first: {stance}.",
      "When we discuss \"{topic}\" we must separate principles from practice. My answer: {stance}.",
    ],
    body: [
      "What matters most is how a decision affects people in their daily lives, not only how it looks on paper.",
      "Experience from other countries shows that clear rules can build trust without stifling progress.",
      "At the same time there is a real risk that we overestimate how well we can predict long-term effects.",
      "The research does not point in one direction, which argues for humility in the face of uncertainty.",
      "The costs often land on those with the least influence, and that has to be weighed in.",
      "A reasonable middle ground is to set clear goals, follow up the results and adjust along the way.",
      "Transparency and the ability to scrutinise decisions are as important as their content.",
      "It is easy to point at risks, but choosing not to act is also a choice with consequences.",
      "We should ask who is accountable when something goes wrong, and how those affected can get redress.",
      "Proportionality is central here: the measure must stand in reasonable relation to the problem.",
    ],
    reply: [
      "{other} makes a fair point, but the argument ignores how rules are actually followed.",
      "I partly share {other}'s analysis, but the conclusion goes further than the evidence allows.",
      "As {other} noted, there is a trade-off here, and it must be handled openly.",
    ],
    close: [
      "All in all, I maintain that we need a balanced path forward that can be evaluated.",
      "That is why I think we should act, but with clear checkpoints.",
      "My conclusion is that this question deserves more nuance than it usually gets.",
    ],
    motivation: "Argued most clearly and answered counter-arguments fairly.",
    revisionReason: "The other responses raised costs and follow-up, which my answer took too lightly.",
    bullets: ["Clear position", "Concrete examples", "Engaged with other participants"],
    supervisor: "This is a simulated answer because no model key is configured. Type \"/debatt <topic>\" to let eight AI models debate, or \"/dvoice <topic>\" for a spoken debate.",
    summary: "The participants agreed that the question needs balance, but disagreed on how far measures should go.",
    agreements: ["The question needs follow-up", "Effects on people are central"],
    disagreements: ["How fast to act", "How large the risks are"],
    heads: ["## Summary", "## Strongest arguments", "## Agreement and disagreement", "## Conclusion"],
    winnerLine: "{winner} won the vote by combining a clear position with concrete examples.",
  },
} as const;

const pick = <T>(items: readonly T[], rnd: () => number): T => items[Math.floor(rnd() * items.length)];

/** Display names that have spoken in a context chain (`[Name]: …` lines). */
function speakersIn(text: string): string[] {
  return [...new Set([...text.matchAll(/^\[([^\]\n]+)\]:/gm)].map((m) => m[1]))];
}

/** Builds the full simulated answer for a request. */
export function simulatedAnswer(request: ModelRequest, messages: BaseMessage[], opts: Pick<SimulatedOptions, "answerWords">): string {
  const prompt = messages.map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");
  const topic = request.topic ?? "";
  const lang = detectLanguage(topic || prompt);
  const t = TEXT[lang];
  const me = request.participant?.display ?? "OneSeek";
  const rnd = seededRandom(hash(`${request.phase}|${me}|${request.round ?? 0}|${topic}`));
  const keywords = keywordsOf(topic);
  // The second word is used only when it says something on its own (a name, or a long word).
  const second = keywords[1] && ([...keywords[1]].length >= 7 || /\p{Lu}/u.test(keywords[1])) ? keywords[1] : undefined;
  const about = { kw: keywords[0] ?? topic, kw2: second ?? keywords[0] ?? topic };
  const fill = (s: string, vars: Record<string, string>) => s.replace(/\{(\w+)\}/g, (_m, k: string) => vars[k] ?? about[k as keyof typeof about] ?? "");
  // A yes/no question gets positions for and against; an open one, positions about its own words.
  const stanceOf = (who: string) => fill(YES_NO.test(topic) ? STANCES[lang][hash(who + topic) % 3] : OPEN_STANCES[lang][hash(who + topic) % 3], {});

  switch (request.phase) {
    case "vote": {
      const candidates = (request.candidates ?? speakersIn(prompt)).filter((c) => c !== me);
      // A topic-wide favourite gets most votes, so simulated debates usually have a clear winner.
      const favourite = candidates[hash(topic) % Math.max(1, candidates.length)];
      const choice = rnd() < 0.6 ? favourite : pick(candidates, rnd);
      return renderVote({ voted_for: choice ?? "", short_motivation: t.motivation, three_bullets: [...t.bullets] });
    }
    case "convergence":
      return renderConvergence({
        merged_summary: t.summary,
        overlap_score: Math.round((0.4 + rnd() * 0.4) * 100) / 100,
        agreements: [...t.agreements],
        disagreements: [...t.disagreements],
        conflicts: [],
        comparative_summary: t.summary,
      });
    case "synthesis": {
      const winner = /\b(?:Vinnare enligt omröstningen|Winner):\s*([^\s(]+)/.exec(prompt)?.[1] ?? me;
      return t.heads
        .map((h, i) => `${h}\n\n${i === 1 ? fill(t.winnerLine, { winner }) : `${pick(t.body, rnd)} ${pick(t.body, rnd)}`}`)
        .join("\n\n");
    }
    case "supervisor":
      return t.supervisor;
    case "research_plan":
      return renderResearchPlan([topic].filter(Boolean));
    case "research_check":
      return renderResearchCheck([0, 1, 2], t.summary);
    case "ballot":
    case "tiebreaker": {
      const labels = request.candidates ?? [];
      const favourite = labels[hash(topic) % Math.max(1, labels.length)];
      const choice = request.phase === "ballot" && rnd() >= 0.6 ? pick(labels, rnd) : favourite;
      return renderLetterVote(choice ?? "Response A", request.phase === "ballot" ? t.motivation : undefined);
    }
    case "restate":
      return fill(pick(t.open, rnd), { topic: topic || "…", stance: stanceOf(me) });
    case "revision": {
      const decision = (["REVISE", "STAND", "MERGE"] as const)[hash(`${me}|${topic}`) % 3];
      const body = simulatedAnswer({ ...request, phase: "answer", round: 2 }, messages, opts);
      return renderRevision(decision, t.revisionReason, body);
    }
    case "answer":
    case "compare": {
      // An answer to the question, in the shape an answer has: not a debate position.
      const a = ANSWER[lang];
      const points = [...a.points].sort(() => rnd() - 0.5).slice(0, 3 + Math.floor(rnd() * 2));
      return [fill(pick(a.open, rnd), { topic: topic || "…" }), "", ...points.map((p) => `- ${fill(p, {})}`), "", fill(pick(a.close, rnd), {})].join("\n");
    }
    case "debater": {
      const round = request.round ?? 1;
      const h = hash(`${me}|${topic}|${round}`);
      return renderArgument({
        stance: round === 1 ? "maintain" : (["maintain", "partial_concede", "concede"] as const)[h % 3],
        key_points: [pick(t.body, rnd), pick(t.body, rnd)],
        counterpoints: [{ target: "Debater A", point: pick(t.disagreements, rnd), evidence: pick(t.body, rnd) }],
        revision: round === 1 ? "minor_update" : (["no_change", "minor_update"] as const)[h % 2],
        revised_position: simulatedAnswer({ ...request, phase: "turn", round: 2 }, messages, { answerWords: 60 }),
        confidence: Math.round((0.6 + rnd() * 0.35) * 100) / 100,
      });
    }
    case "moderator": {
      const round = request.round ?? 1;
      return renderAssessment({
        should_stop: round >= 2,
        agreement_score: Math.min(0.95, Math.round((0.5 + 0.2 * round) * 100) / 100),
        new_points_ratio: Math.round((0.45 / round) * 100) / 100,
        consensus_answer: round >= 2 ? t.summary : null,
        remaining_disagreements: [...t.disagreements],
        next_round_focus: round >= 2 ? null : t.disagreements[0],
      });
    }
    case "judge": {
      const verdict = (["PASS", "WARN", "WARN", "FAIL"] as const)[hash(`${me}|${topic}`) % 4];
      const judge = /"judge": "([^"]+)"/.exec(prompt)?.[1] ?? me;
      return renderVerdict(pick(t.body, rnd), {
        judge,
        verdict,
        confidence: (["HIGH", "MEDIUM"] as const)[hash(me) % 2],
        key_insight: pick(t.body, rnd),
        findings: [{ severity: verdict === "FAIL" ? "significant" : "minor", description: pick(t.disagreements, rnd) }],
        recommendation: pick(t.close, rnd),
        ...(request.round === 2 ? { r1_restatement: fill(pick(t.open, rnd), { topic, stance: stanceOf(me) }), change_justification: "" } : {}),
      });
    }
    case "council_report":
    case "deep_synthesis":
      return t.heads.map((h) => `${h}\n\n${pick(t.body, rnd)} ${pick(t.body, rnd)}`).join("\n\n");
    case "title":
      return renderTitle(topic);
    case "turn": {
      const others = speakersIn(prompt).filter((s) => s !== me);
      const words = opts.answerWords ?? (request.round === 1 ? 110 : 170) + Math.floor(rnd() * 60);
      const parts: string[] = [fill(pick(t.open, rnd), { topic: topic || "…", stance: stanceOf(me) })];
      if (others.length > 0) parts.push(fill(pick(t.reply, rnd), { other: pick(others, rnd) }));
      if (keywords.length > 0) parts.push(fill(pick(TOPICAL[lang], rnd), {}));
      const close = pick(t.close, rnd);
      let count = parts.join(" ").split(/\s+/).length + close.split(/\s+/).length;
      // Walk the sentence bank in a shuffled order so that no sentence repeats before all are used.
      const bank = [...t.body].sort(() => rnd() - 0.5);
      for (let i = 0; count < words; i++) {
        const sentence = bank[i % bank.length];
        parts.push(sentence);
        count += sentence.split(/\s+/).length;
      }
      parts.push(close);
      return parts.join(" ");
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return signal?.aborted ? Promise.reject(signal.reason) : Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
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
