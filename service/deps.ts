import { simulatedModels } from "./formats.js";
import { loadSettings, type Settings } from "../state/config.js";
import { DEFAULT_TTS_API_BASE, sameApiBase, type VoiceSettings } from "../state/voice.js";
import { MemoryValueStore, VoiceSettingsStore, type ValueStore } from "../providers/voice-settings-store.js";
import { join } from "node:path";
import { AudioArchive } from "../providers/audio-archive.js";
import { ensureDataDir } from "../providers/data-dir.js";
import { MemorySpeechCache, RedisSpeechCache } from "../providers/speech-cache.js";
import { OpenAITranscriber } from "../providers/stt-openai.js";
import { TemplatesStore } from "../providers/templates-store.js";
import { EspeakSpeech } from "../providers/tts-espeak.js";
import { OpenAISpeech } from "../providers/tts-openai.js";
import { SEARCH_TIMEOUT_MS, type SpeechSynthesizer } from "../ports/models.js";
import { InMemoryPromptStore, type PromptStore } from "../prompts/store.js";
import { checkEndpoints, OpenAIModelFactory } from "../providers/openai.js";
import { redactUrl } from "../providers/redact.js";
import { BullRunQueue } from "../providers/bull-run-queue.js";
import { RedisRunSlots, SLOT_MS } from "../providers/redis-run-slots.js";
import { RedisEventLog } from "../providers/redis-event-log.js";
import { RedisPromptStore } from "../providers/redis-prompt-store.js";
import { createTavilySearch } from "../providers/tavily.js";
import { stderrLog, type AppDeps } from "./app-deps.js";

/**
 * The graph's dependencies as the environment configures them: the OpenAI-compatible provider
 * when OPENAI_API_KEY is set (else the simulated one, said in the log), Tavily when
 * TAVILY_API_KEY is set, and the given prompt store, else Redis when REDIS_URL is set, else
 * memory (each said in the log).
 */
export function depsFromEnv(
  env: Record<string, string | undefined> = process.env,
  options: {
    prompts?: PromptStore;
    log?: (line: string) => void;
    /**
     * Whether this process is an instance of the service (the HTTP server), which works on the
     * cluster's queue and counts its limits with the others when REDIS_URL is set. A terminal's
     * run, an evaluation, a stdio MCP server and Studio run their own runs in their own process.
     */
    instance?: boolean;
  } = {},
): AppDeps {
  const log = options.log ?? stderrLog;
  const settings = loadSettings(env);
  ensureDataDir(settings.dataDir);
  // Any key at all (the global one, the internal model's, a participant's own) means real models.
  const real = Boolean(settings.openaiApiKey || settings.oneseekApiKey || Object.keys(settings.providerKeys).length);
  const models = real
    ? new OpenAIModelFactory(settings, log)
    : simulatedModels({
        latencyMs: settings.simulatedLatencyMs,
        chunkDelayMs: settings.simulatedChunkDelayMs,
        chunkTokens: settings.simulatedChunkTokens,
        accuracy: settings.simulatedAccuracy,
        roundWords: settings.simulatedRoundWords,
      });
  if (models.simulated) log("no OPENAI_API_KEY: participants are simulated offline");
  const search = settings.tavilyApiKey
    ? createTavilySearch({ apiKey: settings.tavilyApiKey, baseUrl: settings.tavilyBaseUrl, timeoutMs: SEARCH_TIMEOUT_MS })
    : undefined;
  let prompts = options.prompts;
  let values: ValueStore = new MemoryValueStore();
  if (!prompts && settings.redisUrl) {
    const redis = new RedisPromptStore(settings.redisUrl, { log });
    prompts = redis;
    values = redis;
    log(`prompt overrides and voice settings are kept in Redis (${redactUrl(settings.redisUrl)})`);
  } else if (!prompts) {
    prompts = new InMemoryPromptStore();
    log("no REDIS_URL: prompt overrides and voice settings are kept in memory, in this process only");
  }
  if (!settings.ttsApiKey) log("no TTS_API_KEY: /dvoice speaks with the local espeak-ng voice unless admins set a key");
  const checkModels = real ? async () => ({ checked_at: new Date().toISOString(), endpoints: await checkEndpoints(settings) }) : undefined;
  return {
    models,
    checkModels,
    prompts,
    search,
    settings,
    log,
    speech: speechFor(settings),
    transcriber: settings.sttApiKey ? new OpenAITranscriber({ apiKey: settings.sttApiKey, baseUrl: settings.sttBaseUrl, model: settings.sttModel }) : undefined,
    audio: new AudioArchive(join(settings.dataDir, "audio"), log),
    speechCache: settings.redisUrl && !options.prompts ? new RedisSpeechCache(settings.redisUrl, log) : new MemorySpeechCache(),
    // Every instance sharing Redis can replay and follow every run.
    events: settings.redisUrl ? new RedisEventLog(settings.redisUrl, { ttlMs: settings.eventLogTtlMs, log }) : undefined,
    // Runs are jobs every instance's worker may take, and the limits count across the instances.
    runQueue:
      settings.redisUrl && options.instance
        ? new BullRunQueue(settings.redisUrl, { lockMs: settings.runLockMs, concurrency: settings.runWorkers, log })
        : undefined,
    runSlots: settings.redisUrl && options.instance ? new RedisRunSlots(settings.redisUrl, settings.runsPerMinute, settings.maxConcurrentRuns) : undefined,
    streamSlots:
      settings.redisUrl && options.instance
        ? new RedisRunSlots(settings.redisUrl, Number.MAX_SAFE_INTEGER, settings.maxOpenStreams, SLOT_MS, "open streams")
        : undefined,
    templates: new TemplatesStore(values, log),
    voiceSettings: new VoiceSettingsStore(
      values,
      settings.settingsEncryptionKey,
      settings.ttsBaseUrl ? { api_base: settings.ttsBaseUrl } : {},
      settings.ttsApiKey ? environmentKeyBase(settings) : undefined,
    ),
  };
}

/** The host TTS_API_KEY is for: TTS_BASE_URL, else OpenAI's. */
function environmentKeyBase(settings: Settings): string {
  return settings.ttsBaseUrl ?? DEFAULT_TTS_API_BASE;
}

/**
 * The speech provider of a run: the OpenAI-compatible API when the voice settings give a key, or
 * TTS_API_KEY does for the host it was given for, else the local espeak-ng voice.
 */
export function speechFor(settings: Settings): (voice: VoiceSettings) => SpeechSynthesizer {
  return (voice) => {
    const environmentKey = settings.ttsApiKey && sameApiBase(voice.api_base, environmentKeyBase(settings)) ? settings.ttsApiKey : undefined;
    const apiKey = voice.api_key || environmentKey;
    return apiKey ? new OpenAISpeech({ apiKey, baseUrl: voice.api_base, model: voice.model, speed: voice.speed }) : new EspeakSpeech(voice.speed);
  };
}
