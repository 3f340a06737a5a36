import type { StreamEvent } from "@langchain/core/tracers/log_stream";
import { IterableReadableStream } from "@langchain/core/utils/stream";
import { isCheckpointEnvelope } from "@langchain/langgraph";
import { z } from "zod";
import type { RunConfig } from "../state/run-config.js";
import { ConfigError } from "../state/errors.js";
import { GraphInputSchema, GraphStateSchema, RunOptionsSchema, type RunOptions } from "../state/graph-state.js";
import type { DebattGraph } from "./build.js";

/** What the LangGraph API server passes to `streamEvents` (the parts read here). */
interface ServerStreamOptions {
  version?: string;
  recursionLimit?: number;
  subgraphs?: boolean;
  streamMode?: string | string[];
  configurable?: Record<string, unknown>;
  context?: Record<string, unknown>;
}

type StreamEvents = (input: unknown, options: ServerStreamOptions, streamOptions?: unknown) => unknown;

/**
 * The graph as the LangGraph API server (`langgraphjs dev`, LangGraph Studio) runs it: its
 * schemas described ({@link describeSchemas}), and its `streamEvents` adapted to the server
 * ({@link adaptStreamEvents}).
 */
export function forApiServer(graph: DebattGraph): DebattGraph {
  return adaptStreamEvents(describeSchemas(graph));
}

/**
 * Describes the graph's input and state to the LangGraph API server, which reads them
 * (`GET /assistants/{id}/schemas`: Studio's input form and state view) only from a builder's zod
 * or StateSchema definitions. This graph's state stays an Annotation for its channels: zod state
 * cannot make the DeltaChannels that keep a debate's checkpoints small, and with a StateSchema the
 * server reports no configuration schema (Studio's configuration form). So the zod descriptions of
 * state/graph-state.ts are set beside the channels; LangGraph then also checks an input and every
 * node's update against them (they check types, never an object's keys).
 */
export function describeSchemas(graph: DebattGraph): DebattGraph {
  graph.builder._inputRuntimeDefinition = GraphInputSchema;
  graph.builder._schemaRuntimeDefinition = GraphStateSchema;
  graph.builder._outputRuntimeDefinition = GraphStateSchema;
  return graph;
}

/**
 * Adapts `streamEvents`, which the server calls for every run, to what the server sends and reads:
 * - it passes `recursionLimit: undefined` for a run without `recursion_limit`, which would replace
 *   the graph's own limit with LangGraph's default of 25 and stop an 8-participant debate (29
 *   steps) in round 3: the graph's limit is kept;
 * - the input's `options` become the run's configuration ({@link runConfigOf}), over the
 *   assistant's and the run's own;
 * - with `subgraphs` (the SDK's `streamSubgraphs`) LangGraph 1.7 adds a lightweight checkpoint
 *   envelope (`[namespace, "checkpoints", {id, step, …}]`) before every `values` chunk, which the
 *   server @langchain/langgraph-cli 2.0.0 bundles (@langchain/langgraph-api 2.0.0, older than
 *   LangGraph 1.7 despite its number; 1.5.1 reads them) takes for a full checkpoint and fails on
 *   (`Cannot read properties of undefined (reading 'map')`). Nobody asked for them unless the
 *   run's stream modes include `checkpoints` (which then get full checkpoints): they are left out.
 */
export function adaptStreamEvents(graph: DebattGraph): DebattGraph {
  const streamEvents = graph.streamEvents.bind(graph) as unknown as StreamEvents;
  const adapted: StreamEvents = (input, options, streamOptions) => {
    const [runInput, runOptions] = withRunOptions(input, { ...options, recursionLimit: options?.recursionLimit ?? graph.config?.recursionLimit });
    const events = streamEvents(runInput, runOptions, streamOptions);
    if (runOptions.version !== "v2" || !runOptions.subgraphs || modesOf(runOptions).includes("checkpoints")) return events;
    return IterableReadableStream.fromAsyncGenerator(withoutCheckpointEnvelopes(events as AsyncIterable<StreamEvent>));
  };
  graph.streamEvents = adapted as unknown as typeof graph.streamEvents;
  return graph;
}

/**
 * The run configuration that gives a run the options its input asks for: the input names them as
 * the state's `options` does (camelCase, flat), the configuration in snake_case with the
 * deliberation formats' under `mode_config`.
 */
export function runConfigOf(options: RunOptions): Partial<RunConfig> {
  const { order, voicePacing, withMe, personName, ...format } = options;
  return {
    ...(order !== undefined && { order }),
    ...(voicePacing !== undefined && { voice_pacing: voicePacing }),
    ...(withMe !== undefined && { with_me: withMe }),
    ...(personName !== undefined && { person_name: personName }),
    ...(Object.keys(format).length > 0 && { mode_config: format }),
  };
}

/**
 * The input without its `options`, and the stream options with them in the run's context (which
 * the nodes read over `configurable`); a `mode_config` is merged into the one in force. Options
 * that are not the graph's are refused with a ConfigError naming them.
 */
function withRunOptions(input: unknown, options: ServerStreamOptions): [unknown, ServerStreamOptions] {
  if (typeof input !== "object" || input === null || Array.isArray(input) || !("options" in input)) return [input, options];
  const { options: asked, ...rest } = input as Record<string, unknown>;
  if (asked === undefined || asked === null) return [rest, options];
  const parsed = RunOptionsSchema.safeParse(asked);
  if (!parsed.success) throw new ConfigError(`input options: ${z.prettifyError(parsed.error)}`);
  const { mode_config, ...config } = runConfigOf(parsed.data);
  const inForce = { ...options.configurable, ...options.context };
  const context = { ...options.context, ...config, ...(mode_config && { mode_config: { ...(inForce.mode_config as object | undefined), ...mode_config } }) };
  return [rest, { ...options, context }];
}

/** The stream modes a run asked for. */
function modesOf(options: ServerStreamOptions): string[] {
  return options.streamMode === undefined ? [] : [options.streamMode].flat();
}

/** The events without LangGraph's lightweight checkpoint envelopes. */
async function* withoutCheckpointEnvelopes(events: AsyncIterable<StreamEvent>): AsyncGenerator<StreamEvent> {
  for await (const event of events) {
    const chunk: unknown = event.event === "on_chain_stream" ? event.data?.chunk : undefined;
    if (Array.isArray(chunk) && chunk.length === 3 && chunk[1] === "checkpoints" && isCheckpointEnvelope(chunk[2])) continue;
    yield event;
  }
}
