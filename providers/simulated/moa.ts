import { parseTaskAnswer, solveTaskQuestion, type TaskId } from "../../state/evaluation/tasks.js";
import type { PhaseAnswers, Simulation } from "./context.js";
import { ANSWER } from "./prose.js";

/** /moa: how a later layer's proposer and the aggregator open, and what they add to the points they read. */
const MOA = {
  sv: {
    open: [
      'Ett samlat svar på "{topic}", byggt på det som håller i de tidigare svaren:',
      'Det bästa av svaren på "{topic}", rättat och samlat:',
      '"{topic}": svaren pekar åt samma håll, med några förbehåll.',
    ],
    added: [
      "Det svaren förbisåg: pröva {t1} i liten skala innan du bestämmer dig.",
      "Ett förbehåll som saknades: det som passar andra kring {t2} passar inte alltid dig.",
      "Det som höll i alla svar: utgå från målet med {t1}.",
    ],
    close: ["Sammanfattat: börja med målet för {t1}, ta ett steg i taget och ompröva.", "Kort sagt: väg {t1} mot {t2} utifrån din egen situation."],
  },
  en: {
    open: [
      'A combined answer to "{topic}", built on what holds up in the earlier answers:',
      'The best of the answers to "{topic}", corrected and brought together:',
      '"{topic}": the answers point the same way, with a few caveats.',
    ],
    added: [
      "What the answers overlooked: try {t1} on a small scale before you decide.",
      "A caveat they missed: what suits others about {t2} does not always suit you.",
      "What held in every answer: start from your goal with {t1}.",
    ],
    close: ["In sum: start from your goal with {t1}, take one step at a time and revisit.", "In short: weigh {t1} against {t2} for your own situation."],
  },
} as const;

/** The references a prompt shows after `Answers from models:`, numbered `1.`, `2.`, …, split apart. */
function referencesIn(prompt: string): string[] {
  const after = prompt.split(/^Answers from models:[ \t]*$/m)[1] ?? "";
  return after
    .split(/^\d+\.\s/m)
    .map((t) => t.trim())
    .filter((t) => t !== "");
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

/**
 * A synthesis of the references: the points they made (each once, three at most), one the writer
 * adds, a close. On an evaluation's task question it states the answer given most often in them.
 */
function synthesis(s: Simulation): string {
  const { prompt, topic, opts, writer, lang } = s;
  const m = MOA[lang];
  const w = writer();
  const references = referencesIn(prompt);
  const points = [...new Set(references.flatMap((text) => [...text.matchAll(/^\s*[-*•]\s+(.+?)\s*$/gm)].map((p) => p[1])))].slice(0, 3);
  const listed = [...(points.length > 0 ? points : w.draw(ANSWER[lang].points, 3)), w.one(m.added)];
  const text = [w.one(m.open), "", ...listed.map((p) => `- ${p}`), "", w.one(m.close)].join("\n");
  const task = opts.accuracy !== undefined ? solveTaskQuestion(topic) : undefined;
  const value = task && mostGiven(task.task, references);
  return value === undefined ? text : `${text}\n\nANSWER: ${value}`;
}

/** /moa's simulated answers of a later layer and of the aggregator (its first answers and title are the deliberation formats'). */
export const moaAnswers = { proposal: synthesis, aggregate: synthesis } satisfies PhaseAnswers;
