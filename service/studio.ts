import { buildGraph, type DebattGraph } from "../graph/build.js";
import { nodeDepsOf } from "./app-deps.js";
import { depsFromEnv } from "./deps.js";

/**
 * Keeps the graph's own recursion limit when the LangGraph API server runs it: the server calls
 * `streamEvents(input, { recursionLimit: undefined, … })` for a run without `recursion_limit`,
 * and that explicit undefined replaces the graph's limit with LangGraph's default of 25, which
 * stops an 8-participant debate (29 steps) in round 3.
 */
export function keepRecursionLimit(graph: DebattGraph): DebattGraph {
  const streamEvents = graph.streamEvents.bind(graph);
  graph.streamEvents = ((input: unknown, options: { recursionLimit?: number }, streamOptions?: unknown) =>
    streamEvents(
      input as never,
      { ...options, recursionLimit: options?.recursionLimit ?? graph.config?.recursionLimit } as never,
      streamOptions as never,
    )) as unknown as typeof graph.streamEvents;
  return graph;
}

/**
 * The compiled graph that `langgraph.json` exposes to the LangGraph API server and Studio,
 * configured from the environment. The server attaches its own checkpointer.
 */
const deps = depsFromEnv();
export const graph = keepRecursionLimit(buildGraph(nodeDepsOf(deps), { settings: deps.settings }));
