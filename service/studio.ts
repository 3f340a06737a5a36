import { forApiServer } from "../graph/api-server.js";
import { buildAppGraph } from "./formats.js";
import { nodeDepsOf } from "./app-deps.js";
import { depsFromEnv } from "./deps.js";

/**
 * The compiled graph that `langgraph.json` exposes to the LangGraph API server and Studio,
 * configured from the environment, with its input and state described and its `streamEvents`
 * adapted to the server (graph/api-server.ts). The server attaches its own checkpointer.
 */
const deps = depsFromEnv();
export const graph = forApiServer(buildAppGraph(nodeDepsOf(deps), { settings: deps.settings }));
