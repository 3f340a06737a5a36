import type { BaseMessage } from "@langchain/core/messages";
import { END, Send, type LangGraphRunnableConfig } from "@langchain/langgraph";
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
