import type { ModelPhase } from "../../ports/models.js";
import type { Lang } from "../../state/language.js";
import { hashText as hash, seededRandom } from "../../state/random.js";
import { parseTaskAnswer, solveTaskQuestion, wrongTaskAnswer, type TaskId } from "../../state/evaluation/tasks.js";
import { renderArgument } from "../../state/replies/argument.js";
import { renderRevision } from "../../state/replies/revision.js";
import type { Simulation } from "./context.js";
import { originalIn } from "./vote.js";

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
  en: {
    point: "I recomputed it step by step.",
    stand: "My answer holds when I recompute it.",
    revise: "Most answers reach a different result, and on checking it I agree.",
  },
  sv: {
    point: "Jag räknade om det steg för steg.",
    stand: "Mitt svar håller när jag räknar om.",
    revise: "De flesta svar får ett annat resultat, och vid kontroll håller jag med.",
  },
} as const;

/** A task question and its right answer. */
type Task = { task: TaskId; answer: string };

/** What a phase's reply to a task question reads: the call, the task, the answers its prompt shows, a seeded random per seed text, its words. */
interface TaskCall {
  s: Simulation;
  task: Task;
  accuracy: number;
  read: string[];
  random: (seed: string) => () => number;
  words: (typeof TASK_WORDS)[Lang];
}

/** A first answer is right with probability `accuracy`, independently per call. */
const first = ({ s: { prompt, me, request, lang }, task, accuracy, random }: TaskCall) =>
  taskReply(taskValue(task, accuracy, random(`${prompt}|${me}|${request.phase}`)), lang);

/** A synthesis states the answer given most often in what it was handed. */
const plurality = ({ s, read }: TaskCall) => {
  const value = conformed(undefined, read);
  return value === undefined ? undefined : `${s.simulate(s.request, s.messages, { ...s.opts, accuracy: undefined })}\n\nANSWER: ${value}`;
};

/**
 * The replies of the phases that answer an evaluation's task question in their own way; the other
 * phases answer as they always do. A later round, a revision or a debater's argument conforms to
 * what it read (`conformed`). A reply may still be undefined: the phase then answers as it always does.
 */
const TASK_REPLIES: Partial<Record<ModelPhase, (call: TaskCall) => string | undefined>> = {
  answer: first,
  compare: first,
  turn: ({ s: { request, me, lang }, task, accuracy, random, read }) => {
    // A debater's own answer is the same in every round it is asked for; from round 2 it has read the others.
    const own = taskValue(task, accuracy, random(`${request.topic}|${me}|turn`));
    return taskReply((request.round ?? 1) <= 1 ? own : (conformed(own, read) ?? own), lang);
  },
  debater: ({ s: { request, me, lang }, task, accuracy, random, read, words }) => {
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
  },
  revision: ({ s: { prompt, lang }, task, read, words }) => {
    const original = originalIn(prompt);
    const own = original === null ? undefined : parseTaskAnswer(task.task, original);
    const value = conformed(own, read);
    if (value === undefined || original === null) return undefined;
    return value === own ? renderRevision("STAND", words.stand, original) : renderRevision("REVISE", words.revise, taskReply(value, lang));
  },
  synthesis: plurality,
  deep_synthesis: plurality,
};

/**
 * The reply to an evaluation's task question (with SIMULATED_ACCURACY), which gives an answer to it;
 * undefined when the call is no such question, or its phase answers as it always does.
 */
export function taskAnswer(s: Simulation): string | undefined {
  const task = s.opts.accuracy !== undefined ? solveTaskQuestion(s.topic || s.prompt) : undefined;
  if (!task) return undefined;
  const random = (seed: string) => seededRandom(hash(seed));
  return TASK_REPLIES[s.request.phase]?.({ s, task, accuracy: s.opts.accuracy!, read: answersIn(task.task, s.prompt), random, words: TASK_WORDS[s.lang] });
}
