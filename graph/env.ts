import { loadSettings } from "../state/config.js";
import { InMemoryPromptStore, type PromptStore } from "../prompts/store.js";
import { OpenAIModelFactory } from "../providers/openai.js";
import { RedisPromptStore } from "../providers/redis-prompt-store.js";
import { SimulatedModelFactory } from "../providers/simulated.js";
import { createTavilySearch } from "../providers/tavily.js";
import { DEFAULTS } from "../state/config.js";
import { stderrLog, type GraphDeps } from "./deps.js";

/**
 * The graph's dependencies as the environment configures them: the OpenAI-compatible provider
 * when OPENAI_API_KEY is set (else the simulated one, said in the log), Tavily when
 * TAVILY_API_KEY is set, and the given prompt store, else Redis when REDIS_URL is set, else
 * memory (each said in the log).
 */
export function depsFromEnv(
  env: Record<string, string | undefined> = process.env,
  options: { prompts?: PromptStore; log?: (line: string) => void } = {},
): GraphDeps {
  const log = options.log ?? stderrLog;
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
  let prompts = options.prompts;
  if (!prompts && settings.redisUrl) {
    prompts = new RedisPromptStore(settings.redisUrl, { log });
    log(`prompt overrides are kept in Redis (${redactUrl(settings.redisUrl)})`);
  } else if (!prompts) {
    prompts = new InMemoryPromptStore();
    log("no REDIS_URL: prompt overrides are kept in memory, in this process only");
  }
  return { models, prompts, search, settings, log };
}

/** A URL without its password, for the log. */
function redactUrl(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = "***";
  return u.toString();
}
