import { seededRandom } from "../random.js";

/**
 * Questions with known answers, generated from a seed, for measuring whether deliberating helps
 * (`npm run eval`): no data set is downloaded. Each task writes its questions so that they can be
 * recognised and solved again from the text alone (the simulated provider answers them with a
 * chosen accuracy), and reads a model's final answer back.
 */

/** The tasks there are. */
export const TASK_IDS = ["arithmetic", "dates", "letters"] as const;
export type TaskId = (typeof TASK_IDS)[number];

/** One question of a task: its text and its exact answer (as the task's parser writes it). */
export interface TaskQuestion {
  task: TaskId;
  id: string;
  question: string;
  answer: string;
}

/** How hard arithmetic is: how many products and sums, and how large the numbers. */
export interface Difficulty {
  terms: number;
  maxNumber: number;
}

/** Du et al.'s arithmetic was `a+b*c+d-e*f` with numbers below 30; current models need more. */
export const DEFAULT_DIFFICULTY: Difficulty = { terms: 6, maxNumber: 99 };

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const DAY_MS = 86_400_000;

/** How each task's question begins: the text the solver recognises it by. */
const LEAD = {
  arithmetic: "What is the value of ",
  dates: "What day of the week is it ",
  letters: "How many times does the letter ",
} as const;

/** The instruction every task question ends with, so the final answer can be read. */
const ANSWER_LINE = 'End with a line "ANSWER: <your answer>".';

/** A whole number from 1 to `max`. */
const pick = (random: () => number, max: number) => 1 + Math.floor(random() * max);

/** `a+b*c+d-e*f…`: products and sums in turn, so precedence matters. */
function arithmetic(random: () => number, d: Difficulty): { question: string; answer: string } {
  const parts: string[] = [];
  for (let i = 0; i < d.terms; i++) {
    const sign = i === 0 ? "" : random() < 0.5 ? "+" : "-";
    const term = i % 2 === 1 ? `${pick(random, d.maxNumber)}*${pick(random, d.maxNumber)}` : `${pick(random, d.maxNumber)}`;
    parts.push(`${sign}${term}`);
  }
  const expression = parts.join("");
  return { question: `${LEAD.arithmetic}${expression}? ${ANSWER_LINE}`, answer: String(evaluate(expression)) };
}

/** The value of an expression of whole numbers with `+`, `-` and `*` (products first). */
function evaluate(expression: string): number {
  return expression
    .replace(/-/g, "+-")
    .split("+")
    .filter(Boolean)
    .reduce((sum, term) => sum + term.split("*").reduce((p, f) => p * Number(f), 1), 0);
}

/** The weekday `n` days after a date in 1900–2099. */
function dates(random: () => number): { question: string; answer: string } {
  const start = Date.UTC(1900, 0, 1) + Math.floor(random() * 200 * 365) * DAY_MS;
  const iso = new Date(start).toISOString().slice(0, 10);
  const n = pick(random, 2_000);
  return { question: `${LEAD.dates}${n} days after ${iso}? ${ANSWER_LINE}`, answer: weekdayAfter(iso, n) };
}

function weekdayAfter(iso: string, n: number): string {
  return WEEKDAYS[new Date(Date.parse(`${iso}T00:00:00Z`) + n * DAY_MS).getUTCDay()];
}

/** How many times a letter occurs in a string of letters (a task models often get wrong). */
function letters(random: () => number): { question: string; answer: string } {
  const alphabet = "abcdefghijklmnopqrstuvwxyz";
  const letter = alphabet[Math.floor(random() * 6)];
  let text = "";
  const length = 20 + Math.floor(random() * 30);
  // Letters from a small set, so that the counted one occurs several times.
  for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * 8)];
  return { question: `${LEAD.letters}"${letter}" occur in "${text}"? ${ANSWER_LINE}`, answer: String(countLetter(text, letter)) };
}

const countLetter = (text: string, letter: string) => [...text].filter((c) => c === letter).length;

/** `n` questions of a task, the same for the same seed. */
export function generateTask(task: TaskId, n: number, seed: number, difficulty: Difficulty = DEFAULT_DIFFICULTY): TaskQuestion[] {
  // Each task has its own stream of the seed, so adding a task does not change the others' questions.
  const random = seededRandom(seed * 31 + TASK_IDS.indexOf(task) + 1);
  return Array.from({ length: n }, (_, i) => {
    const made = task === "arithmetic" ? arithmetic(random, difficulty) : task === "dates" ? dates(random) : letters(random);
    return { task, id: `${task}-${seed}-${i}`, ...made };
  });
}

/** The task and the exact answer of a question written by `generateTask`; undefined for any other text. */
export function solveTaskQuestion(text: string): { task: TaskId; answer: string } | undefined {
  const arithmeticMatch = /What is the value of ([0-9+\-*]+)\?/.exec(text);
  if (arithmeticMatch) return { task: "arithmetic", answer: String(evaluate(arithmeticMatch[1])) };
  const datesMatch = /What day of the week is it (\d+) days after (\d{4}-\d{2}-\d{2})\?/.exec(text);
  if (datesMatch) return { task: "dates", answer: weekdayAfter(datesMatch[2], Number(datesMatch[1])) };
  const lettersMatch = /How many times does the letter "([a-z])" occur in "([a-z]+)"\?/.exec(text);
  if (lettersMatch) return { task: "letters", answer: String(countLetter(lettersMatch[2], lettersMatch[1])) };
  return undefined;
}

/**
 * A model's final answer to a task question, as the task writes answers: the last "ANSWER:" line,
 * else the last number (arithmetic, letters) or weekday (dates) in the text; undefined when there
 * is none.
 */
export function parseTaskAnswer(task: TaskId, text: string): string | undefined {
  const marked = [...text.matchAll(/ANSWER:\s*\**\s*([^\n*]+)/gi)].at(-1)?.[1];
  const source = marked ?? text;
  if (task === "dates") {
    const day = [...source.matchAll(new RegExp(`\\b(${WEEKDAYS.join("|")})\\b`, "gi"))].at(-1)?.[1];
    return day && day[0].toUpperCase() + day.slice(1).toLowerCase();
  }
  const number = [...source.replace(/(\d),(\d{3})/g, "$1$2").matchAll(/-?\d+/g)].at(-1)?.[0];
  return number === undefined ? undefined : String(Number(number));
}

/** A plausible wrong answer to a task question (the simulated provider's mistakes): near the right one, never it. */
export function wrongTaskAnswer(task: TaskId, right: string, random: () => number): string {
  if (task === "dates") {
    const others = WEEKDAYS.filter((d) => d !== right);
    return others[Math.floor(random() * others.length)];
  }
  const value = Number(right);
  const offset = 1 + Math.floor(random() * (task === "letters" ? 3 : Math.max(10, Math.abs(value) / 10)));
  return String(random() < 0.5 ? value + offset : value - offset);
}

/** The 95 % Wilson score interval of a proportion of `correct` in `n`: [low, high]. */
export function wilsonInterval(correct: number, n: number, z = 1.959964): [number, number] {
  if (n === 0) return [0, 1];
  const p = correct / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
