import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { textOf } from "../nodes/shared/model-call.js";
import type { ModelFactory } from "../ports/models.js";
import { loadPromptSet, type PromptStore } from "../prompts/store.js";
import { withoutOpenedThinking } from "../state/answer.js";
import { jsonValueIn, taskAnswer, type ClientTask } from "../state/client-tasks.js";
import { addUsage, usageOfAnswer, type PriceTable, type Usage } from "../state/usage.js";

/** How long one call outside a run may take. */
const CALL_TIMEOUT_MS = 60_000;

/**
 * What a single call of the internal model outside any run needs (a chat client's chore, an
 * answer written as JSON): the models, the prompts, and the internal model's id and prices for
 * what the call used.
 */
export interface OneCallDeps {
  models: ModelFactory;
  prompts: PromptStore;
  internalModel: string;
  prices: PriceTable;
  log: (line: string) => void;
}

/** One call of the internal model: its reply (any thinking a chat template opened left out) and what it used. */
async function callInternal(
  deps: OneCallDeps,
  phase: "client_task" | "json_result",
  topic: string,
  messages: BaseMessage[],
  maxTokens: number,
  signal: AbortSignal,
): Promise<{ reply: string; usage?: Usage }> {
  const model = deps.models.create({ phase, topic, maxTokens });
  const answer = await model.invoke(messages, { signal: AbortSignal.any([signal, AbortSignal.timeout(CALL_TIMEOUT_MS)]) });
  const usage = usageOfAnswer(deps.internalModel, answer, deps.prices);
  return { reply: withoutOpenedThinking(textOf(answer.content)), ...(usage ? { usage } : {}) };
}

/**
 * Answers a chat client's housekeeping task (a title, tags, follow-ups…: see `clientTaskOf`) with
 * one call to the internal model, given the client's own task prompt, in the shape asked for, with
 * what the call used. A call that fails still gets an answer (what the task can do without a
 * model), so a client's chat is never held up by its chore.
 */
export async function answerClientTask(deps: OneCallDeps, task: ClientTask, signal: AbortSignal): Promise<{ text: string; usage?: Usage }> {
  // A tool choice needs no model: a deliberation calls none of the client's tools.
  if (task.kind === "tool_calls") return { text: taskAnswer(task, undefined) };
  try {
    // Only the prompt that asks (capped): the client's chore is never a way to send the model more.
    const { reply, usage } = await callInternal(deps, "client_task", task.topic, [new HumanMessage(task.prompt)], 400, signal);
    return { text: taskAnswer(task, reply), ...(usage ? { usage } : {}) };
  } catch (err) {
    if (signal.aborted) throw err;
    deps.log(`a client's ${task.kind} task failed, answered without a model: ${(err as Error).message}`);
    return { text: taskAnswer(task, undefined) };
  }
}

/** Whether a value has what a JSON Schema's top level asks (its type, and an object's required keys). */
function fits(value: unknown, schema: Record<string, unknown>): boolean {
  const type = schema.type;
  if (type === "object" || (type === undefined && schema.properties)) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
    const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
    return required.every((k) => typeof k === "string" && Object.hasOwn(value, k));
  }
  if (type === "array") return Array.isArray(value);
  return value !== undefined;
}

/** Any JSON object: `response_format: {type: "json_object"}`. */
const ANY_OBJECT = { type: "object" };

/**
 * A run's answer written as the JSON its client asked for (`response_format`), by the internal
 * model with the registry's `openai.json_result` prompt: asked twice at most; returns the JSON
 * text, or undefined when no reply fits the schema's top level.
 */
export async function answerAsJson(
  deps: OneCallDeps,
  answer: string,
  schema: Record<string, unknown> | undefined,
  signal: AbortSignal,
): Promise<{ json?: string; usage?: Usage }> {
  const prompts = await loadPromptSet(deps.prompts, {}, (err) => deps.log(`prompt overrides unavailable, using the defaults: ${err.message}`));
  const prompt = prompts.render("openai.json_result", { answer, schema: JSON.stringify(schema ?? ANY_OBJECT, null, 2) });
  let used: Usage | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    const { reply, usage } = await callInternal(deps, "json_result", answer.slice(0, 500), [new HumanMessage(prompt)], 4_000, signal);
    if (usage) used = used ? addUsage(used, usage) : usage;
    const value = jsonValueIn(reply);
    if (fits(value, schema ?? ANY_OBJECT)) return { json: JSON.stringify(value), ...(used ? { usage: used } : {}) };
  }
  return used ? { usage: used } : {};
}
