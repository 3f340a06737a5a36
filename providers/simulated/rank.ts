import { parseTaskAnswer, solveTaskQuestion, type TaskId } from "../../state/evaluation/tasks.js";
import { hashText as hash, seededRandom } from "../../state/random.js";
import { renderRanking } from "../../state/replies/ranking.js";
import type { PhaseAnswers, Simulation } from "./context.js";
import { ANSWER } from "./prose.js";

/** /rank: what a ranker says of each answer, and the chairman's final answer. */
const RANK = {
  sv: {
    good: [
      "den är konkret om {t1} och lätt att följa",
      "den svarar direkt på frågan och ger praktiska steg för {t1}",
      "den väger {t1} mot {t2} i stället för att ta svaret för givet",
      "den är kort och tydlig, utan utfyllnad",
      "den utgår från vad den som frågar behöver av {t1}",
      "den ger ett exempel på {t1} som gör rådet begripligt",
    ],
    poor: [
      "den säger för lite om {t2}",
      "den ger inget exempel på {t1} i praktiken",
      "dess råd om {t1} är allmänna och svåra att följa",
      "den säger inte när svaret skulle vara fel",
      "den upprepar sig i stället för att fördjupa {t1}",
      "den tar inte upp vad {t1} kostar i tid och insats",
    ],
    does: "Gör bra",
    lacks: "Gör sämre",
    heads: ["## Svar", "## Det rådet var enigt om", "## Det som är osäkert"],
    open: [
      'Rådets samlade svar på "{topic}": utgå från vad du vill uppnå med {t1}, och ta ett prövat steg i taget.',
      'Kort svar på "{topic}": det bästa valet kring {t1} är det som passar ditt mål och går att ompröva.',
    ],
    uncertain: [
      "Hur mycket {t2} väger jämfört med {t1} beror på din situation, och där skilde sig svaren åt.",
      "Svaren var inte eniga om hur väl ett och samma råd om {t1} passar alla.",
    ],
  },
  en: {
    good: [
      "it is concrete about {t1} and easy to follow",
      "it answers the question directly and gives practical steps for {t1}",
      "it weighs {t1} against {t2} instead of taking the answer for granted",
      "it is short and clear, without padding",
      "it starts from what the person asking needs from {t1}",
      "it gives an example of {t1} that makes the advice concrete",
    ],
    poor: [
      "it says too little about {t2}",
      "it gives no example of {t1} in practice",
      "its advice on {t1} is general and hard to act on",
      "it does not say when its answer would be wrong",
      "it repeats itself instead of going deeper into {t1}",
      "it leaves out what {t1} costs in time and effort",
    ],
    does: "Does well",
    lacks: "Does less well",
    heads: ["## Answer", "## What the council agreed on", "## What remains uncertain"],
    open: [
      'The council\'s answer to "{topic}": start from what you want from {t1}, and take one tested step at a time.',
      'A short answer to "{topic}": the best choice about {t1} is the one that fits your goal and can be revisited.',
    ],
    uncertain: [
      "How much {t2} weighs against {t1} depends on your situation, and there the answers differed.",
      "The answers did not agree on how well one piece of advice about {t1} suits everyone.",
    ],
  },
} as const;

/** The answers a ranking or chairman prompt shows, by label (`--- Response A ---`, then the text, then a blank line). */
function responsesIn(prompt: string): Map<string, string> {
  const parts = prompt.split(/^--- (Response [A-Z]) ---[ \t]*$/m);
  const shown = new Map<string, string>();
  // Each answer is followed by a blank line, the last one then by the rest of the prompt (after a second blank line).
  for (let i = 1; i + 1 < parts.length; i += 2) shown.set(parts[i], parts[i + 1].split(/\n[ \t]*\n[ \t]*\n/)[0].trim());
  return shown;
}

/** A number in [0, 1) seeded by a text. */
const unit = (text: string) => seededRandom(hash(text))();

/**
 * The order a simulated ranker puts the answers in, best first: each answer has a quality for the
 * question (the same for every ranker) and each ranker its own taste, both seeded by the answer's
 * text, so rankings agree at the top more often than not, as real rankers' do. On an evaluation's
 * task question, the answers that reach the most given result come first.
 */
function rankedOrder({ request, prompt, topic, me, opts }: Simulation): string[] {
  const labels = request.candidates ?? [];
  const shown = responsesIn(prompt);
  const task = opts.accuracy !== undefined ? solveTaskQuestion(topic) : undefined;
  const common = task ? mostGiven(task.task, [...shown.values()]) : undefined;
  const score = (label: string) => {
    const text = shown.get(label) ?? label;
    const agrees = task && common !== undefined && parseTaskAnswer(task.task, text) === common ? 2 : 0;
    return agrees + unit(`quality|${topic}|${text}`) + unit(`taste|${me}|${topic}|${text}`);
  };
  return [...labels].sort((a, b) => score(b) - score(a) || a.localeCompare(b));
}

/** The task answer given most often in the texts (the first of those tied), if any. */
function mostGiven(task: TaskId, texts: string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const t of texts) {
    const value = parseTaskAnswer(task, t);
    if (value !== undefined) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** A ranker's reply: what each answer does well and less well, in the order shown, then the ranking. */
function ranking(s: Simulation): string {
  const { request, writer, lang } = s;
  const r = RANK[lang];
  const w = writer();
  const evaluation = (request.candidates ?? []).map((label) => `**${label}**\n- ${r.does}: ${w.one(r.good)}.\n- ${r.lacks}: ${w.one(r.poor)}.`).join("\n\n");
  return renderRanking(rankedOrder(s), evaluation);
}

/** The chairman's answer: built on the council's top answer's points, with one more from the others, and what stays uncertain. */
function chairman(s: Simulation): string {
  const { prompt, topic, opts, writer, lang } = s;
  const r = RANK[lang];
  const w = writer();
  const shown = responsesIn(prompt.split(/^## The rankings/m)[0]);
  const top = /^1\. (Response [A-Z])\b/m.exec(prompt.split(/^## The council's ranking/m)[1] ?? "")?.[1] ?? [...shown.keys()][0];
  const pointsOf = (text: string) => [...text.matchAll(/^\s*[-*•]\s+(.+?)\s*$/gm)].map((m) => m[1]);
  const own = pointsOf(shown.get(top ?? "") ?? "").slice(0, 3);
  const others = [...shown]
    .filter(([l]) => l !== top)
    .flatMap(([, text]) => pointsOf(text))
    .filter((p) => !own.includes(p));
  const points = [...own, ...others.slice(0, 1)];
  const listed = points.length > 0 ? points : w.draw(ANSWER[lang].points, 3);
  const sections = [w.one(r.open), listed.map((p) => `- ${p}`).join("\n"), w.one(r.uncertain)];
  const text = r.heads.map((h, i) => `${h}\n\n${sections[i]}`).join("\n\n");
  // An evaluation's task question: the council's answer states the top answer's result, else the most given one.
  const task = opts.accuracy !== undefined ? solveTaskQuestion(topic) : undefined;
  if (!task) return text;
  const value = parseTaskAnswer(task.task, shown.get(top ?? "") ?? "") ?? mostGiven(task.task, [...shown.values()]);
  return value === undefined ? text : `${text}\n\nANSWER: ${value}`;
}

/** /rank's simulated rankings and chairman's answers (its first answers and title are the deliberation formats'). */
export const rankAnswers = { ranking, chairman } satisfies PhaseAnswers;
