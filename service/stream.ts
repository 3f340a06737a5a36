import { randomUUID } from "node:crypto";
import type { Material } from "../state/client-material.js";
import type { Continuation } from "../state/continuation.js";
import type { BaseMessage } from "@langchain/core/messages";
import { Runnable } from "@langchain/core/runnables";
import { Command, INTERRUPT } from "@langchain/langgraph";
import type { PersonReply } from "../state/person.js";
import { WriteBehindSaver } from "../providers/write-behind-saver.js";
import type { DebattGraph } from "../graph/build.js";
import type { RunConfig } from "../state/run-config.js";
import { runFailure } from "../state/errors.js";
import { kebabEventName, type ClientEvent, type GraphEvent } from "../state/events.js";

/** What starts a run. */
export interface RunInput {
  message: string;
  participants?: string[];
  /** The conversation before the message, for a thread that does not keep it (the OpenAI-compatible endpoint's history). */
  history?: BaseMessage[];
  /** Continue the thread's interrupted run from its last checkpoint instead (the message is ignored). */
  resume?: boolean;
  /** A follow-up to one participant of a finished run (the message goes to that participant). */
  continuation?: Continuation;
  /** Material every participant reads with the question, by source. */
  material?: Material[];
  /** Continue the thread's run that waits for the person who joined it with their reply (the message is ignored). */
  reply?: PersonReply;
}

/**
 * Whether a thread has a run to continue: steps still to run, or a step whose tasks all wrote
 * their results while the checkpoint after it was not saved yet (the process died in between;
 * continuing applies those results and goes on).
 */
export function hasUnfinishedRun(state: { next: readonly string[]; tasks: readonly unknown[] }): boolean {
  return state.next.length > 0 || state.tasks.length > 0;
}

/** Options of a streamed run. */
export interface RunOptions {
  /** Aborting it cancels the run: every in-flight model call is aborted and no more start. */
  signal?: AbortSignal;
  /** Per-run configuration (the fields of runConfigSchema). */
  configurable?: RunConfig;
  /** Thread id, for a checkpointed graph (a new one by default). */
  threadId?: string;
  /**
   * Called with the state after every step, the top graph's (`namespace` empty) and its
   * subgraphs' (`namespace` names the subgraph, e.g. `vote:<task id>`), e.g. to write the history
   * as stages land. Without it only custom events are streamed.
   */
  onState?: (state: Record<string, unknown>, namespace: string[]) => void;
  /** Called when the graph has run to its end (not when it failed or was aborted), before `done`. */
  onFinished?: () => void;
  /** Where a failure that is not debatt's own is logged in full (its stack), for the operator. */
  log?: (line: string) => void;
  /**
   * Whether the graph stopped to wait for the person who joined the debate (it announced
   * `debate-awaiting-input`): the stream then ends without `done`, and the run goes on when it is
   * streamed again with their reply.
   */
  waiting?: () => boolean;
}

/**
 * The graph's stream of chunks, as `graph.stream` gives it but without the wrapper LangGraph puts
 * around it (IterableReadableStreamWithAbortSignal), whose pump is a recursive promise chain: it
 * keeps two pending promises and their reactions per chunk until the run ends, about 300 bytes
 * per event and a megabyte for a whole debate (the benchmarks page, "Live debates per process").
 * The wrapper adds only an abort controller of its own; the run's `signal` stops the graph alike.
 */
async function streamOf(graph: DebattGraph, input: unknown, options: Record<string, unknown>): Promise<AsyncIterable<unknown[]>> {
  const config = { recursionLimit: graph.config?.recursionLimit, ...options };
  return await (Runnable.prototype.stream as (this: DebattGraph, input: unknown, options: unknown) => Promise<AsyncIterable<unknown[]>>).call(
    graph,
    input,
    config,
  );
}

/** Resolves once the graph's checkpoints so far are saved (a write-behind saver's queue has run). */
async function flushed(graph: DebattGraph): Promise<void> {
  if (graph.checkpointer instanceof WriteBehindSaver) await graph.checkpointer.flushed();
}

/**
 * Runs the graph, handing each of its custom events to `onEvent` with its kebab-case name, as the
 * SSE bridge and the CLI's `--json` emit them; always ends with `done` (a failure becomes an
 * `error` event first), which is awaited. The graph's own recursion limit covers the largest debate.
 *
 * The events go from the nodes' `emit` straight to `onEvent`: the run's `writer` is this
 * function's own, so an event costs no trip through LangGraph's stream (a web stream, its
 * iterator and the generators reading it). LangGraph's stream still runs the graph and brings its
 * states; a step's events always come before its state. Events a node emits once the stream has
 * ended (a task still winding down after a stop) are dropped, as LangGraph's stream would.
 */
export async function runClientEvents(
  graph: DebattGraph,
  input: RunInput,
  options: RunOptions,
  onEvent: (event: ClientEvent) => void | Promise<void>,
): Promise<void> {
  // What the person is asked is held back until the graph has stopped for them and that is saved:
  // a reply can then always resume it, even from another process after this one died. An
  // announcement the graph did not stop after is the step resumed with the reply, repeating it: dropped.
  let asked: ClientEvent | undefined;
  let open = true;
  const writer = (payload: unknown) => {
    if (!open) return;
    const { event, data } = payload as GraphEvent;
    const client = { event: kebabEventName(event), data } as ClientEvent;
    if (client.event === "debate-awaiting-input" && options.waiting) asked = client;
    else void onEvent(client);
  };
  try {
    const onState = options.onState;
    const stream = await streamOf(
      graph,
      // A null input makes LangGraph continue the thread from its last saved step; a Command, with the person's reply.
      input.reply
        ? new Command({ resume: input.reply })
        : input.resume
          ? null
          : {
              message: input.message,
              participants: input.participants ?? null,
              continuation: input.continuation ?? null,
              ...(input.material?.length ? { material: input.material } : {}),
              ...(input.history?.length ? { messages: input.history } : {}),
            },
      {
        // The graph's states (for the history, and to know when it stopped for the person); the
        // custom events go to `writer` whatever the mode.
        streamMode: onState || options.waiting ? ["values"] : ["custom"],
        subgraphs: onState !== undefined,
        signal: options.signal,
        writer,
        configurable: { thread_id: options.threadId ?? randomUUID(), ...options.configurable },
      },
    );
    for await (const chunk of stream) {
      // [mode, payload], or [namespace, mode, payload] with subgraphs.
      const [namespace, mode, payload] = chunk.length === 3 ? chunk : [[], ...chunk];
      if (mode !== "values") continue;
      if (!(INTERRUPT in (payload as object))) onState?.(payload as Record<string, unknown>, namespace as string[]);
      else if (asked) {
        await flushed(graph);
        const question = asked;
        asked = undefined;
        await onEvent(question);
      }
    }
    open = false;
    if (options.waiting?.()) return;
    options.onFinished?.();
  } catch (err) {
    open = false;
    if (!options.signal?.aborted) {
      // The client is told what happened in words fit for it; the operator's log has the rest.
      const failure = runFailure(err);
      if (failure.code === "internal_error" || failure.code === "database_unavailable")
        options.log?.(`run failed (${failure.code}): ${(err as Error)?.stack ?? String(err)}`);
      await onEvent({ event: "error", data: { ...failure, timestamp: new Date().toISOString() } });
    }
  }
  await onEvent({ event: "done", data: { timestamp: new Date().toISOString() } });
}

/**
 * The events of `runClientEvents` as an async generator (the benchmarks and the tests). It runs the
 * graph as fast as it goes: what the reader has not taken yet waits in a queue. A reader that stops
 * early does not stop the run: its `signal` does.
 */
export async function* streamClientEvents(graph: DebattGraph, input: RunInput, options: RunOptions = {}): AsyncGenerator<ClientEvent> {
  const queue: ClientEvent[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  let failure: unknown;
  const run = runClientEvents(graph, input, options, (event) => {
    queue.push(event);
    wake?.();
  }).then(
    () => void (ended = true),
    (err: unknown) => void ((ended = true), (failure = err)),
  );
  void run.then(() => wake?.());
  for (;;) {
    if (queue.length > 0) {
      yield queue.shift()!;
      continue;
    }
    if (ended) break;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
  }
  if (failure !== undefined) throw failure;
}
