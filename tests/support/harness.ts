import { withoutAliases } from "../../state/events/aliases.js";
import { MemorySaver } from "@langchain/langgraph";
import { buildAppGraph } from "../../service/formats.js";
import type { SearchClient } from "../../ports/models.js";
import { InMemoryPromptStore, type PromptStore } from "../../prompts/store.js";
import { nodeDepsOf, type AppDeps } from "../../service/app-deps.js";
import { streamClientEvents } from "../../service/stream.js";
import { loadSettings, type Settings } from "../../state/config.js";
import type { ClientEvent } from "../../state/events.js";
import type { FormatOptions } from "../../state/run-config.js";
import { defaultRoster } from "../../state/participants.js";
import { FakeModelFactory, type Script } from "./fake-model.js";

/** Builds deps around a scripted fake; settings from an empty environment unless given. */
export function testDeps(options: { script?: Script; settings?: Partial<Settings>; prompts?: PromptStore; search?: SearchClient } = {}) {
  const models = new FakeModelFactory(options.script);
  const logs: string[] = [];
  const deps: AppDeps = {
    models,
    prompts: options.prompts ?? new InMemoryPromptStore(),
    search: options.search,
    settings: { ...loadSettings({}), roster: defaultRoster(), ...options.settings },
    log: (line) => logs.push(line),
    deltaCoalesceMs: 0,
  };
  return { deps, models, logs };
}

/** The graph as the service builds it from these deps. */
export function graphOf(deps: AppDeps, options: { checkpointer?: MemorySaver } = {}) {
  return buildAppGraph(nodeDepsOf(deps), { checkpointer: options.checkpointer, settings: deps.settings });
}

/** Runs a message through a freshly built graph and collects the client events. */
export async function runEvents(
  deps: AppDeps,
  message: string,
  options: {
    configurable?: Record<string, unknown>;
    participants?: string[];
    /** A seed format's options (the run configuration's `mode_config`). */
    modeConfig?: FormatOptions;
    signal?: AbortSignal;
    checkpointer?: MemorySaver;
    threadId?: string;
  } = {},
): Promise<ClientEvent[]> {
  const graph = graphOf(deps, options);
  const events: ClientEvent[] = [];
  const configurable = { ...options.configurable, ...(options.modeConfig ? { mode_config: options.modeConfig } : {}) };
  for await (const e of streamClientEvents(graph, { message, participants: options.participants }, { ...options, configurable })) events.push(e);
  return events;
}

/** A deliberation's event names in order, without its streamed text (`answer-delta`) and the ends of its answers (`answer-end`). */
export const stepNames = (events: readonly { event: string }[]) => events.map((e) => e.event).filter((n) => n !== "answer-delta" && n !== "answer-end");

/** The payloads of the events of one name, as the schemas declare them (without the wire's snake_case aliases). */
export const named = (events: readonly { event: string; data: Record<string, unknown> }[], name: string) =>
  events.filter((e) => e.event === name).map((e) => withoutAliases(e.data) as Record<string, any>);
