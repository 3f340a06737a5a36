import { hashText as hash } from "../../state/random.js";
import { renderConvergence } from "../../state/replies/convergence.js";
import { renderVote } from "../../state/replies/debate-vote.js";
import { renderResearchCheck, renderResearchPlan } from "../../state/replies/research.js";
import { FORMAT_IDS, FORMATS } from "../../state/formats.js";
import { translate, type Translate } from "../../state/messages/index.js";
import type { PhaseAnswers } from "./context.js";
import { answerText, turnText } from "./prose.js";

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
    agreements: [
      "Ett bra svar om {t1} beror på sammanhanget",
      "Konkreta exempel väger tyngre än allmänna påståenden",
      "Frågan om {t1} förtjänar ett svar som går att ompröva",
    ],
    disagreements: ["Hur stor vikt {t2} ska få", "Om ett och samma svar om {t1} passar de flesta", "Vilka exempel på {t1} som är typiska"],
    heads: ["## Sammanfattning", "## Starkaste argumenten", "## Samsyn och oenighet", "## Slutsats"],
    summary: [
      'Debatten om "{topic}" handlade mindre om fakta än om vad deltagarna ville att {t1} skulle åstadkomma.',
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
    agreements: [
      "A good answer about {t1} depends on context",
      "Concrete examples weigh more than general claims",
      "The question of {t1} deserves an answer that can be revisited",
    ],
    disagreements: ["How much weight {t2} should get", "Whether one answer about {t1} suits most people", "Which examples of {t1} are typical"],
    heads: ["## Summary", "## Strongest arguments", "## Agreement and disagreement", "## Conclusion"],
    summary: [
      'The debate on "{topic}" was less about facts than about what the participants wanted from {t1}.',
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

/** A message that greets rather than asks ("Hello, what can you do?", "Hej!"). */
const GREETING = /^\s*(hi|hello|hey|hej|hejsan|hallå|tjena|god (morgon|dag|kväll)|good (morning|afternoon|evening))\b/i;

/** The supervisor's word after its answer to a message that is no command: that it was simulated, and every format there is to try. */
function supervisorNote(lang: "en" | "sv"): string {
  const t: Translate = (key, values) => translate(lang, key, values);
  const formats = FORMAT_IDS.map((id) => `- \`${FORMATS[id].command} <${t(`composer.${FORMATS[id].takes}`)}>\`: ${t(`format.what.${id}`)}`);
  return `${t("simulated.chatReply")}\n\n${formats.join("\n")}`;
}

/** Display names that have spoken in a context chain (`[Name]: …` lines). */
function speakersIn(text: string): string[] {
  return [...new Set([...text.matchAll(/^\[([^\]\n]+)\]:/gm)].map((m) => m[1]))];
}

/** /debatt's simulated answers: the turns, the votes, the convergence analysis, the synthesis, and the supervisor's and the research step's replies. */
export const debattAnswers = {
  turn: (sim) => {
    const { request, prompt, me, opts, rnd, writer, round } = sim;
    const others = speakersIn(prompt).filter((s) => s !== me);
    const words = opts.roundWords?.[(request.round ?? 1) - 1] ?? opts.answerWords ?? (request.round === 1 ? 110 : 170) + Math.floor(rnd() * 60);
    return turnText(sim, writer(), words, others, round);
  },
  vote: ({ request, prompt, me, topic, rnd, writer, lang }) => {
    const candidates = (request.candidates ?? speakersIn(prompt)).filter((c) => c !== me);
    // A topic-wide favourite gets most votes, so simulated debates usually have a clear winner.
    const favourite = candidates[hash(topic) % Math.max(1, candidates.length)];
    const choice = rnd() < 0.6 ? favourite : candidates[Math.floor(rnd() * candidates.length)];
    const w = writer();
    const d = DEBATE[lang];
    return renderVote({ voted_for: choice ?? "", short_motivation: w.one(d.motivation), three_bullets: d.bullets.map((b) => w.fill(b)) });
  },
  convergence: ({ rnd, writer, lang }) => {
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
  },
  synthesis: ({ prompt, me, writer, lang }) => {
    const winner = /\b(?:Vinnare enligt omröstningen|Winner):\s*([^\s(]+)/.exec(prompt)?.[1] ?? me;
    const w = writer();
    const d = DEBATE[lang];
    const sections = [w.draw(d.summary, 2), [w.fill(d.winnerLine, { winner }), w.one(d.strongest)], w.draw(d.agreement, 2), [w.one(d.conclusion)]];
    return d.heads.map((h, i) => `${h}\n\n${sections[i].join(" ")}`).join("\n\n");
  },
  // An answer built on the message's own words, as a model's would be, then what there is to try;
  // a greeting gets only the latter.
  supervisor: (sim) => (GREETING.test(sim.topic) ? supervisorNote(sim.lang) : `${answerText(sim, sim.writer())}\n\n${supervisorNote(sim.lang)}`),
  research_plan: ({ topic }) => renderResearchPlan([topic].filter(Boolean)),
  research_check: ({ writer, lang }) => renderResearchCheck([0, 1, 2], writer().fill(DEBATE[lang].researchNote)),
} satisfies PhaseAnswers;
