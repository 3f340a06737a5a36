import type { BaseMessage } from "@langchain/core/messages";
import { END, getConfig, Send, task, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { answerTasks } from "../nodes/shared/tasks.js";
import type { DeliberationMode } from "../state/formats.js";
import type { Participant } from "../state/participants.js";

/**
 * A node that runs once per `Send`, on the Send's payload instead of the graph state. LangGraph
 * types a node's input as the state; this says, in one place, that such a node takes its task.
 */
export function taskNode<T, U>(node: (task: T, config: LangGraphRunnableConfig) => Promise<U>) {
  return node as unknown as (state: unknown, config: LangGraphRunnableConfig) => Promise<U>;
}

/**
 * The router after a deliberation format's planner: every member's first answer (deliberation_answer, in
 * parallel), or the end when the planner refused the run.
 */
export function answersRoute(mode: DeliberationMode) {
  return (state: { error: string | null; members: Participant[]; question: string; messages: BaseMessage[]; timeout_ms: number }): Send[] | typeof END =>
    state.error ? END : answerTasks(state, mode).map((task) => new Send("deliberation_answer", task));
}

/**
 * A node that makes one model call per task of `tasksOf(state)`, all at once, each run as a
 * LangGraph `task` (`perTask` on one task; `name` names the node and, with `_call`, its calls).
 * LangGraph saves each call's result as it finishes, so a step resumed after a crash keeps the
 * calls that had finished (they are not asked, nor paid for, again) and makes only the others; a
 * call that waits for the person (`interrupt`) is the only one asked again when they answer.
 *
 * Unlike a `Send` per call, what the calls share (the answers every voter reads) is neither
 * copied into each call's payload nor checkpointed twice over: only the calls' results are saved.
 * The calls' updates are merged key by key, in the order of the tasks; each must be a list under
 * an appending reducer.
 */
export function parallelCalls<S, T, U extends Record<string, unknown[]>>(
  name: string,
  perTask: (task: T, config: LangGraphRunnableConfig) => Promise<U>,
  tasksOf: (state: S) => T[],
) {
  // Inside a LangGraph task, `getConfig()` is the task's own configuration (its writer, signal, run settings).
  const call = task(`${name}_call`, (one: T) => perTask(one, getConfig()));
  return async (state: S): Promise<Partial<U>> => {
    const updates = await Promise.all(tasksOf(state).map((one) => call(one)));
    const merged: Record<string, unknown[]> = {};
    for (const update of updates) for (const [key, values] of Object.entries(update)) (merged[key] ??= []).push(...values);
    return merged as Partial<U>;
  };
}
