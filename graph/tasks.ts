import type { LangGraphRunnableConfig } from "@langchain/langgraph";

/**
 * A node that runs once per `Send`, on the Send's payload instead of the graph state. LangGraph
 * types a node's input as the state; this says, in one place, that such a node takes its task.
 */
export function taskNode<T, U>(node: (task: T, config: LangGraphRunnableConfig) => Promise<U>) {
  return node as unknown as (state: unknown, config: LangGraphRunnableConfig) => Promise<U>;
}
