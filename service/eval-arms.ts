/**
 * The arms of an evaluation and how each answers one question: a participant alone, one sampled
 * k times, a plain majority, or a format run through the run service. `evaluate` (eval.ts) asks
 * them and adds up their figures.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { streamMessage, textOf } from "../nodes/shared/model-call.js";
import type { ModelFactory } from "../ports/models.js";
import type { Settings } from "../state/config.js";
import { parseTaskAnswer, type TaskId, type TaskQuestion } from "../state/evaluation/tasks.js";
import type { ClientEvent, ClientPayload } from "../state/events.js";
import type { Participant } from "../state/participants.js";
import { addUsage, NO_USAGE, usageOfAnswer, type Usage } from "../state/usage.js";
import { FORMATS, type FormatId } from "../state/formats.js";
import { followRun } from "./follow-run.js";
import { EVAL_FORMATS, FORMAT_DEFINITIONS, type FormatDefinition } from "./formats.js";
import { MARKDOWN_STYLES } from "./narration.js";
import { createNarrator } from "./narrator.js";
import type { RunService } from "./run-service.js";
import { translate } from "../state/messages/index.js";
import { hashText } from "../state/random.js";
import { RESPONSE_TOKENS } from "../state/run-config.js";

/** The arms that are no format: each participant alone, one sampled k times, a plain majority. */
const BASELINE_ARMS = ["single", "self-consistency", "majority"] as const;
/** The arms an evaluation compares: the baselines, then each format whose definition has an eval arm. */
export const ARMS: readonly Arm[] = [...BASELINE_ARMS, ...EVAL_FORMATS];
export type Arm = (typeof BASELINE_ARMS)[number] | FormatId;

/** How many samples self-consistency draws from one model. */
export const SELF_CONSISTENCY_SAMPLES = 5;

/** What one arm made of one question (kept per question and arm, so an interrupted evaluation goes on). */
export interface Outcome {
  answer: string | undefined;
  usage: Usage;
  wallMs: number;
  /** Why the arm has no answer of its own (a failed call or run), when so; an outcome with an error is asked again when the evaluation is run again. */
  error?: string;
  /** /debatt and /deep: each round's answers (first round first), in participant order; null where none could be read. */
  rounds?: { round: number; answers: (string | null)[] }[];
}

/** What an evaluation runs on: the run service (for the formats), the models, the participants. */
export interface EvalDeps {
  service: RunService;
  models: ModelFactory;
  settings: Settings;
  participants: Participant[];
  /** Outcomes already had, by question and arm: an evaluation run again asks nothing it has. */
  kept?: OutcomeStore;
  /** The token budget of each answer, alone or in a format run (`max_response_tokens`); when unset, each format's own (800; /rank's first answers 4,000). */
  maxTokens?: number;
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
  const model = deps.models.create({ phase: "answer", participant: p, topic: prompt, maxTokens: deps.maxTokens ?? RESPONSE_TOKENS.default });
  try {
    const message = await streamMessage(model, [new HumanMessage(prompt)], AbortSignal.timeout(deps.settings.responseTimeoutMs), () => {});
    const usage = usageOfAnswer(p.model, message, deps.settings.prices) ?? { ...NO_USAGE, calls: 1, unpriced_calls: 1 };
    return { answer: parseTaskAnswer(q.task, textOf(message.content)), usage, wallMs: performance.now() - started };
  } catch (err) {
    return { answer: undefined, usage: { ...NO_USAGE, calls: 1, unpriced_calls: 1 }, wallMs: performance.now() - started, error: (err as Error).message };
  }
}

/** Several outcomes as one: their majority answer, their usage added up, the longest wall time (they run at once), the first error if any call failed. */
function combine(outcomes: Outcome[]): Outcome {
  const error = outcomes.find((o) => o.error)?.error;
  return {
    answer: plurality(outcomes.map((o) => o.answer)),
    usage: outcomes.reduce((u, o) => addUsage(u, o.usage), NO_USAGE),
    wallMs: Math.max(...outcomes.map((o) => o.wallMs)),
    ...(error ? { error } : {}),
  };
}

/** A format's run on a question: its result text (the narrated result), read for the answer, its usage, and for /debatt and /deep each round's answers. */
async function askFormat(deps: EvalDeps, format: FormatId, q: TaskQuestion): Promise<Outcome> {
  const { command } = FORMATS[format];
  const started = performance.now();
  let runId: string;
  try {
    // Seeded by the question, so the same evaluation run again shuffles labels and orders the same way.
    ({ runId } = await deps.service.start({
      message: `${command} ${q.question}`,
      participants: deps.participants.map((p) => p.key),
      configurable: { seed: hashText(q.question) % 2 ** 31, ...(deps.maxTokens === undefined ? {} : { max_response_tokens: deps.maxTokens }) },
    }));
  } catch (err) {
    // A run that could not start (a limit, a shutdown) is a question this arm did not answer.
    return { answer: undefined, usage: NO_USAGE, wallMs: performance.now() - started, error: (err as Error).message };
  }
  let result = "";
  let usage: ClientPayload<"usage"> | undefined;
  let error: string | undefined;
  const said = new RoundTexts((FORMAT_DEFINITIONS[format] as FormatDefinition).evalArm?.rounds === true);
  const narrator = createNarrator(
    (text, part) => void (part === "result" && (result += text)),
    MARKDOWN_STYLES,
    (key, values) => translate("en", key, values),
  );
  await followRun(
    deps.service,
    runId,
    new AbortController().signal,
    (e) => {
      if (e.event === "usage") usage = e.data;
      said.hear(e);
      if (e.event === "error") error = `${e.data.code}: ${e.data.message}`;
      narrator(e);
    },
    "the evaluation stopped",
  );
  const rounds = said.answers(
    q.task,
    deps.participants.map((p) => p.key),
  );
  // The result states the answer; when it does not, the last round's most given answer stands for it.
  const answer = parseTaskAnswer(q.task, result) ?? plurality(rounds.at(-1)?.answers.map((a) => a ?? undefined) ?? []);
  return {
    answer,
    usage: usage?.total ?? NO_USAGE,
    wallMs: performance.now() - started,
    ...(rounds.length > 0 ? { rounds } : {}),
    ...(error ? { error } : {}),
  };
}

/** What each participant said in each round of a /debatt or /deep run, as its events tell. */
class RoundTexts {
  private readonly texts = new Map<number, Map<string, string>>();

  /** `debate`: the run is a /debatt or /deep one (other formats have no rounds to follow). */
  constructor(private readonly debate: boolean) {}

  private set(round: number, key: string, text: string): void {
    const round_ = this.texts.get(round) ?? new Map<string, string>();
    round_.set(key, text);
    this.texts.set(round, round_);
  }

  /** Takes in one event (any other than a round's text is passed over). */
  hear(e: ClientEvent): void {
    if (!this.debate) return;
    if (e.event === "debate-participant-delta")
      this.set(e.data.round, e.data.model_key, (this.texts.get(e.data.round)?.get(e.data.model_key) ?? "") + e.data.delta);
    // /deep: the first answers are round 0; each debate round's positions are its answers.
    if (e.event === "stage1-complete") for (const a of e.data.data) this.set(0, a.modelKey, a.response);
    if (e.event === "deep-round-complete") for (const t of e.data.arguments) if (t.argument) this.set(e.data.round, t.modelKey, t.argument.revised_position);
  }

  /** The answers of each round, in order, read as the task writes answers. */
  answers(task: TaskId, keys: string[]): { round: number; answers: (string | null)[] }[] {
    return [...this.texts.keys()]
      .sort((a, b) => a - b)
      .map((round) => ({ round, answers: keys.map((k) => parseTaskAnswer(task, this.texts.get(round)?.get(k) ?? "") ?? null) }));
  }
}

/** What one arm answers to one question. `label` names the arm in the report (single arms by participant). */
export async function runArm(deps: EvalDeps, arm: Arm, q: TaskQuestion): Promise<{ label: string; outcome: Outcome }[]> {
  const [first] = deps.participants;
  switch (arm) {
    case "single":
      return Promise.all(deps.participants.map(async (p) => ({ label: `single:${p.key}`, outcome: await askOne(deps, p, q) })));
    case "self-consistency":
      return [
        {
          label: `self-consistency:${first.key}`,
          outcome: combine(await Promise.all(Array.from({ length: SELF_CONSISTENCY_SAMPLES }, (_, i) => askOne(deps, first, q, i)))),
        },
      ];
    case "majority":
      return [{ label: "majority", outcome: combine(await Promise.all(deps.participants.map((p) => askOne(deps, p, q)))) }];
    default:
      return [{ label: arm, outcome: await askFormat(deps, arm, q) }];
  }
}
