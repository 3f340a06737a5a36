import { buildGraph } from "./build.js";
import { depsFromEnv } from "./env.js";

/**
 * The compiled graph that `langgraph.json` exposes to the LangGraph API server and Studio,
 * configured from the environment. The server attaches its own checkpointer.
 */
export const graph = buildGraph(depsFromEnv());
