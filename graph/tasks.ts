import type { BaseMessage } from "@langchain/core/messages";
import { END, Send, task, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { asTheNode } from "../nodes/shared/node-writer.js";
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
 * calls that had finished (they are not asked, nor paid for, again) and makes only the others; when
 * one call waits for the person (`interrupt`), their reply resumes that call alone.
 *
 * Unlike a `Send` per call, what the calls share (the answers every voter reads) is neither
 * copied into each call's payload nor checkpointed twice over: a call's input is its index, and
 * only its result is saved. Each call is given the node's own configuration, and its events are
 * written as from the node, as a `Send` task's were. The calls' updates are merged key by key, in
 * the order of the tasks; each must be a list under an appending reducer. In LangGraph's `updates`
 * stream each call reports its result under `<name>_call` as `[key, values]` pairs (not a state
 * update: only the node's merged update is one).
 *
 * `isTask` recognises one task given as the node's input: a `Send` of the earlier design, still
 * pending in a checkpoint saved before the update, is run as that one call.
 */
export function parallelCalls<S, T, U extends Record<string, unknown[]>>(
  name: string,
  perTask: (task: T, config: LangGraphRunnableConfig) => Promise<U>,
  tasksOf: (state: S) => T[],
  isTask: (input: object) => boolean,
) {
  return async (input: S | T, config: LangGraphRunnableConfig): Promise<Partial<U>> => {
    if (isTask(input as object)) return perTask(input as T, config);
    const tasks = tasksOf(input as S);
    const callConfig = asTheNode(config);
    // Made anew for each step: a call's id comes from its name and its place among the node's calls.
    const call = task(`${name}_call`, async (i: number) => Object.entries(await perTask(tasks[i], callConfig)));
    const results = await Promise.all(tasks.map((_, i) => call(i)));
    const merged: Record<string, unknown[]> = {};
    for (const entries of results) for (const [key, values] of entries) (merged[key] ??= []).push(...values);
    return merged as Partial<U>;
  };
}

/** Whether a voting node's input is one voter's task (a `Send` saved by the earlier design) rather than the state. */
export function isVoterTask(input: object): boolean {
  return "voter" in input;
}
