import { loadSettings } from "../state/config.js";
import { InMemoryPromptStore, type PromptStore } from "../prompts/store.js";
import { OpenAIModelFactory } from "../providers/openai.js";
import { SimulatedModelFactory } from "../providers/simulated.js";
import { createTavilySearch } from "../providers/tavily.js";
import { DEFAULTS } from "../state/config.js";
import type { GraphDeps } from "./deps.js";

/**
 * The graph's dependencies as the environment configures them: the OpenAI-compatible provider
 * when OPENAI_API_KEY is set (else the simulated one, said in the log), Tavily when
 * TAVILY_API_KEY is set, and the given prompt store (in memory by default).
 */
export function depsFromEnv(
  env: Record<string, string | undefined> = process.env,
  options: { prompts?: PromptStore; log?: (line: string) => void } = {},
): GraphDeps {
  const log = options.log ?? ((line: string) => console.error(`[debatt] ${line}`));
  const settings = loadSettings(env);
  const models = settings.openaiApiKey
    ? new OpenAIModelFactory(settings)
    : new SimulatedModelFactory({
        latencyMs: settings.simulatedLatencyMs,
        chunkDelayMs: settings.simulatedChunkDelayMs,
        chunkTokens: settings.simulatedChunkTokens,
      });
  if (models.simulated) log("no OPENAI_API_KEY: participants are simulated offline");
  const search = settings.tavilyApiKey
    ? createTavilySearch({ apiKey: settings.tavilyApiKey, baseUrl: settings.tavilyBaseUrl, timeoutMs: DEFAULTS.searchTimeoutMs })
    : undefined;
  if (!options.prompts) log("prompt overrides are kept in memory");
  return { models, prompts: options.prompts ?? new InMemoryPromptStore(), search, settings, log };
}
