import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { streamMessage, textOf } from "../nodes/shared/model-call.js";
import type { ModelFactory } from "../ports/models.js";
import type { Settings } from "../state/config.js";
import { parseTaskAnswer, wilsonInterval, type TaskId, type TaskQuestion } from "../state/eval-tasks.js";
import type { ClientPayload } from "../state/events.js";
import type { Participant } from "../state/participants.js";
import { addUsage, NO_USAGE, usageOfAnswer, type Usage } from "../state/usage.js";
import { followRun } from "./follow-run.js";
import { MARKDOWN_STYLES } from "./narration.js";
import { createNarrator } from "./narrator.js";
import type { RunService } from "./run-service.js";
import { translate } from "../state/messages/index.js";

/** The arms an evaluation compares: each participant alone, one sampled k times, a plain majority, and the formats. */
export const ARMS = ["single", "self-consistency", "majority", "vote", "revise", "deep", "debatt"] as const;
export type Arm = (typeof ARMS)[number];

/** How many samples self-consistency draws from one model. */
export const SELF_CONSISTENCY_SAMPLES = 5;

/** One arm's figures on one task, as the JSON report has them. */
export interface ArmResult {
  arm: string;
  task: string;
  n: number;
  correct: number;
  accuracy: number;
  ci_low: number;
  ci_high: number;
  tokens_per_question: number;
  cost_per_question_usd: number;
  wall_ms_per_question: number;
}

/** What one arm made of one question (kept per question and arm, so an interrupted evaluation goes on). */
export interface Outcome {
  answer: string | undefined;
  usage: Usage;
  wallMs: number;
}

/** What an evaluation runs on: the run service (for the formats), the models, the participants. */
export interface EvalDeps {
  service: RunService;
  models: ModelFactory;
  settings: Settings;
  participants: Participant[];
  /** Outcomes already had, by question and arm: an evaluation run again asks nothing it has. */
  kept?: OutcomeStore;
}

/** Where outcomes are kept between runs of an evaluation. */
export interface OutcomeStore {
  get(key: string): { label: string; outcome: Outcome }[] | undefined;
  put(key: string, outcomes: { label: string; outcome: Outcome }[]): void;
}

/** Outcomes kept in a JSON-lines file (one line per question and arm), read once when opened. */
export function fileOutcomeStore(path: string): OutcomeStore {
  const kept = new Map<string, { label: string; outcome: Outcome }[]>();
  if (existsSync(path)) {
    for (const line of readFileSync(path, "utf8").split("\n")) {
      if (!line.trim()) continue;
      try {
        const { key, outcomes } = JSON.parse(line) as { key: string; outcomes: { label: string; outcome: Outcome }[] };
        kept.set(key, outcomes);
      } catch {
        // A line cut short when the process was stopped: that question is asked again.
      }
    }
  }
  mkdirSync(dirname(path), { recursive: true });
  return {
    get: (key) => kept.get(key),
    put: (key, outcomes) => {
      kept.set(key, outcomes);
      appendFileSync(path, `${JSON.stringify({ key, outcomes })}\n`);
    },
  };
}

/** The most frequent answer (ties: the first given), undefined when none could be read. */
export function plurality(answers: (string | undefined)[]): string | undefined {
  const counts = new Map<string, number>();
  for (const a of answers) if (a !== undefined) counts.set(a, (counts.get(a) ?? 0) + 1);
  let best: string | undefined;
  for (const [a, n] of counts) if (best === undefined || n > counts.get(best)!) best = a;
  return best;
}

/** One model's answer to a question (the `sample`-th, when it is asked more than once). */
async function askOne(deps: EvalDeps, p: Participant, q: TaskQuestion, sample = 0): Promise<Outcome> {
  const started = performance.now();
  const prompt = sample === 0 ? q.question : `${q.question}\n(Attempt ${sample + 1}.)`;
  const model = deps.models.create({ phase: "answer", participant: p, topic: prompt, maxTokens: 800 });
  try {
    const message = await streamMessage(model, [new HumanMessage(prompt)], AbortSignal.timeout(deps.settings.responseTimeoutMs), () => {});
    const usage = usageOfAnswer(p.model, message, deps.settings.prices) ?? { ...NO_USAGE, calls: 1, unpriced_calls: 1 };
    return { answer: parseTaskAnswer(q.task, textOf(message.content)), usage, wallMs: performance.now() - started };
  } catch {
    return { answer: undefined, usage: { ...NO_USAGE, calls: 1, unpriced_calls: 1 }, wallMs: performance.now() - started };
  }
}

/** Several outcomes as one: their majority answer, their usage added up, the longest wall time (they run at once). */
function combine(outcomes: Outcome[]): Outcome {
  return { answer: plurality(outcomes.map((o) => o.answer)), usage: outcomes.reduce((u, o) => addUsage(u, o.usage), NO_USAGE), wallMs: Math.max(...outcomes.map((o) => o.wallMs)) };
}

/** A format's run on a question: its result text (the narrated result), read for the answer, and its usage. */
async function askFormat(deps: EvalDeps, command: string, q: TaskQuestion): Promise<Outcome> {
  const started = performance.now();
  let runId: string;
  try {
    ({ runId } = deps.service.start({ message: `${command} ${q.question}`, participants: deps.participants.map((p) => p.key) }));
  } catch {
    // A run that could not start (a limit, a shutdown) is a question this arm did not answer.
    return { answer: undefined, usage: NO_USAGE, wallMs: performance.now() - started };
  }
  let result = "";
  let usage: ClientPayload<"usage"> | undefined;
  const narrator = createNarrator((text, part) => void (part === "result" && (result += text)), MARKDOWN_STYLES, (key, values) => translate("en", key, values));
  await followRun(
    deps.service,
    runId,
    new AbortController().signal,
    (e) => {
      if (e.event === "usage") usage = e.data;
      narrator(e);
    },
    "the evaluation stopped",
  );
  return { answer: parseTaskAnswer(q.task, result), usage: usage?.total ?? NO_USAGE, wallMs: performance.now() - started };
}

/** What one arm answers to one question. `label` names the arm in the report (single arms by participant). */
async function runArm(deps: EvalDeps, arm: Arm, q: TaskQuestion): Promise<{ label: string; outcome: Outcome }[]> {
  const [first] = deps.participants;
  switch (arm) {
    case "single":
      return Promise.all(deps.participants.map(async (p) => ({ label: `single:${p.key}`, outcome: await askOne(deps, p, q) })));
    case "self-consistency":
      return [{ label: `self-consistency:${first.key}`, outcome: combine(await Promise.all(Array.from({ length: SELF_CONSISTENCY_SAMPLES }, (_, i) => askOne(deps, first, q, i)))) }];
    case "majority":
      return [{ label: "majority", outcome: combine(await Promise.all(deps.participants.map((p) => askOne(deps, p, q)))) }];
    default:
      return [{ label: arm, outcome: await askFormat(deps, `/${arm}`, q) }];
  }
}

/**
 * Runs every arm on every question (at most `concurrency` questions at once) and reports per arm
 * and task: correct answers, accuracy with its 95 % Wilson interval, tokens, cost and wall time
 * per question. `onQuestion` hears each finished question, for a progress display.
 */
export async function evaluate(deps: EvalDeps, questions: TaskQuestion[], arms: readonly Arm[], concurrency: number, onQuestion: (done: number) => void = () => {}): Promise<ArmResult[]> {
  const tallies = new Map<string, { arm: string; task: string; n: number; correct: number; tokens: number; cost: number; wallMs: number }>();
  let next = 0;
  let done = 0;
  // An outcome is reused only for the same models (and the same simulated accuracy).
  const who = `${deps.participants.map((p) => `${p.key}=${p.model}`).join(",")}|${deps.models.simulated ? `simulated:${deps.settings.simulatedAccuracy ?? "-"}` : "real"}`;
  const worker = async () => {
    while (next < questions.length) {
      const q = questions[next++];
      for (const arm of arms) {
        const key = `${q.question}|${arm}|${who}`;
        const outcomes = deps.kept?.get(key) ?? (await runArm(deps, arm, q));
        if (!deps.kept?.get(key)) deps.kept?.put(key, outcomes);
        for (const { label, outcome } of outcomes) {
          const key = `${label}|${q.task}`;
          const t = tallies.get(key) ?? { arm: label, task: q.task, n: 0, correct: 0, tokens: 0, cost: 0, wallMs: 0 };
          t.n++;
          if (outcome.answer === q.answer) t.correct++;
          t.tokens += outcome.usage.input_tokens + outcome.usage.output_tokens;
          t.cost += outcome.usage.cost_usd;
          t.wallMs += outcome.wallMs;
          tallies.set(key, t);
        }
      }
      onQuestion(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  // In the order the tasks and arms were asked for (questions finish in any order).
  const tasks = [...new Set(questions.map((q) => q.task))];
  const rank = (label: string) => arms.indexOf(label.split(":")[0] as Arm);
  const ordered = [...tallies.values()].sort((a, b) => tasks.indexOf(a.task as TaskId) - tasks.indexOf(b.task as TaskId) || rank(a.arm) - rank(b.arm) || a.arm.localeCompare(b.arm));
  return ordered.map((t) => {
    const [ci_low, ci_high] = wilsonInterval(t.correct, t.n);
    return {
      arm: t.arm,
      task: t.task,
      n: t.n,
      correct: t.correct,
      accuracy: t.correct / t.n,
      ci_low,
      ci_high,
      tokens_per_question: t.tokens / t.n,
      cost_per_question_usd: t.cost / t.n,
      wall_ms_per_question: t.wallMs / t.n,
    };
  });
}

/** How an arm compares with the plain majority on a task, by their 95 % intervals. */
export interface Comparison {
  arm: string;
  task: string;
  /** `better`/`worse`: the intervals do not overlap; `unclear`: they do, so the run cannot tell. */
  versus_majority: "better" | "worse" | "unclear";
}

/** Each arm against the plain majority of the same task (arms on a task without a majority row are left out). */
export function compareWithMajority(results: ArmResult[]): Comparison[] {
  return results.flatMap((r) => {
    const majority = results.find((m) => m.arm === "majority" && m.task === r.task);
    if (!majority || r === majority) return [];
    const versus = r.ci_low > majority.ci_high ? "better" : r.ci_high < majority.ci_low ? "worse" : "unclear";
    return [{ arm: r.arm, task: r.task, versus_majority: versus }];
  });
}
