import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";

/**
 * A node's configuration for a LangGraph `task` it runs: `writer` writes as from the node.
 * LangGraph's own writer names a custom event's namespace after the task it runs in (read from
 * the async context), so an event written inside a task would otherwise come under the node's
 * namespace, as if from a subgraph, in a stream with subgraphs (the LangGraph API server's
 * `streamSubgraphs`). Called in the node, outside any task.
 */
export function asTheNode(config: LangGraphRunnableConfig): LangGraphRunnableConfig {
  const writer = config.writer;
  if (!writer) return config;
  const storage = AsyncLocalStorageProviderSingleton.getInstance();
  const node = storage.getStore();
  return { ...config, writer: (chunk: unknown) => storage.run(node, () => writer(chunk)) };
}
