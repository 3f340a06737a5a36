import { MemorySaver } from "@langchain/langgraph";
import { buildGraph } from "../../graph/build.js";
import type { GraphDeps } from "../../ports/node-deps.js";
import type { SearchClient } from "../../ports/models.js";
import { streamClientEvents, type ClientEvent } from "../../service/stream.js";
import { InMemoryPromptStore, type PromptStore } from "../../prompts/store.js";
import type { ModeConfig } from "../../state/deliberation.js";
import { loadSettings, type Settings } from "../../state/config.js";
import { defaultRoster } from "../../state/participants.js";
import { FakeModelFactory, type Script } from "./fake-model.js";

/** Builds deps around a scripted fake; settings from an empty environment unless given. */
export function testDeps(options: { script?: Script; settings?: Partial<Settings>; prompts?: PromptStore; search?: SearchClient } = {}) {
  const models = new FakeModelFactory(options.script);
  const logs: string[] = [];
  const deps: GraphDeps = {
    models,
    prompts: options.prompts ?? new InMemoryPromptStore(),
    search: options.search,
    settings: { ...loadSettings({}), roster: defaultRoster(), ...options.settings },
    log: (line) => logs.push(line),
    deltaCoalesceMs: 0,
  };
  return { deps, models, logs };
}

/** Runs a message through a freshly built graph and collects the client events. */
export async function runEvents(
  deps: GraphDeps,
  message: string,
  options: {
    configurable?: Record<string, unknown>;
    participants?: string[];
    modeConfig?: ModeConfig;
    signal?: AbortSignal;
    checkpointer?: MemorySaver;
    threadId?: string;
  } = {},
): Promise<ClientEvent[]> {
  const graph = buildGraph(deps, { checkpointer: options.checkpointer });
  const events: ClientEvent[] = [];
  for await (const e of streamClientEvents(graph, { message, participants: options.participants, modeConfig: options.modeConfig }, options)) events.push(e);
  return events;
}

/** Events of one name. */
export const named = (events: ClientEvent[], name: string) => events.filter((e) => e.event === name).map((e) => e.data as Record<string, any>);
