import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { RunQueue } from "../ports/run-queue.js";
import type { RunSlots } from "../ports/run-slots.js";
import type { EventLog } from "../ports/event-log.js";
import type { ModelFactory, SearchClient, SpeechCache, SpeechSynthesizer, Transcriber } from "../ports/models.js";
import type { NodeDeps, RunContext } from "../ports/node-deps.js";
import type { AudioArchive } from "../providers/audio-archive.js";
import type { TemplatesStore } from "../providers/templates-store.js";
import type { VoiceSettingsStore } from "../providers/voice-settings-store.js";
import type { EndpointHealth } from "../providers/openai.js";
import { loadPromptSet, StoreUnavailableError, type PromptStore } from "../prompts/store.js";
import type { Clock } from "../state/clock.js";
import { type Settings } from "../state/config.js";
import { runSettingsResolver } from "../state/run-config.js";
import { deltaCoalesceMs } from "./load.js";
import { defaultVoiceSettings, type VoiceSettings } from "../state/voice.js";

/**
 * The application's dependencies: what the environment configures, for the run service, the
 * routes and the CLI. The graph's nodes get only the part they use (`nodeDepsOf`).
 */
/** What the model endpoints say of the configured model ids, and when they were asked. */
export interface ModelsHealth {
  checked_at: string;
  endpoints: EndpointHealth[];
}

export interface AppDeps {
  /** Chat models: OpenAI-compatible, simulated, or a test's scripted fake. */
  models: ModelFactory;
  /** Admins' prompt overrides. */
  prompts: PromptStore;
  /** Web search for OneSeek and the supervisor; absent without TAVILY_API_KEY. */
  search?: SearchClient;
  /** Process settings (environment and defaults). */
  settings: Settings;
  /** Speech for /dvoice, chosen from a run's voice settings; absent → voice events say so. */
  speech?: (settings: VoiceSettings) => SpeechSynthesizer;
  /** Synthesised sentences, so identical audio is not generated twice. */
  speechCache?: SpeechCache;
  /** Speech-to-text for the page's microphone (POST /api/v1/transcribe); absent without STT_API_KEY. */
  transcriber?: Transcriber;
  /** Where /dvoice audio is kept for export, exactly as it was streamed. */
  audio?: AudioArchive;
  /** The shared event log (Redis streams) that lets any instance replay a run; absent → this process only. */
  events?: EventLog;
  /** The run queue every instance shares (BullMQ on Redis); absent → this process's own. */
  runQueue?: RunQueue;
  /** The limits every instance shares (Redis); absent → counted in this process. */
  runSlots?: RunSlots;
  /** The open streams of each user, counted across the instances (Redis); absent → in this process. */
  streamSlots?: RunSlots;
  /** The suggested topics admins set for an empty chat (the catalogues' defaults when absent). */
  templates?: TemplatesStore;
  /** The voice settings admins edit, loaded at every /dvoice run (defaults when absent). */
  voiceSettings?: VoiceSettingsStore;
  /** How long streamed text may be coalesced into one event, in ms (default: 40, more on a busy process; see service/load.ts). */
  deltaCoalesceMs?: number;
  /** Clock (tests pin it). */
  now?: () => Date;
  /** /dvoice's playback clock (default: the process's own; tests use a virtual one). */
  playbackClock?: Clock;
  /** Asks the model endpoints for their model lists (real providers only). */
  checkModels?: () => Promise<ModelsHealth>;
  /** Where operational log lines go (stderr by default). */
  log?: (line: string) => void;
}

/**
 * The default log: one line on stderr, prefixed `[debatt]`. Control characters (a line feed in a
 * client's cursor or path included) are written escaped, so no one can forge a line of the log,
 * and a failed query's parameters are left out (see `withoutQueryParams`).
 */
export const stderrLog = (line: string): void => console.error(`[debatt] ${escapeControls(withoutQueryParams(line))}`);

/**
 * `text` without the parameters of a failed database query (the ORM writes them after `params:`
 * on the line below the query): they are what a user sent or holds, a token's hash, a message's
 * text, and the log is no place for them. The query itself stays, to say what failed.
 */
export function withoutQueryParams(text: string): string {
  return text.replace(/(\nparams: )[^\n]*/g, "$1(left out)");
}

/** `text` with its control characters written as `\n`, `\r`, `\t` or `\u00XX`. */
export function escapeControls(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) =>
    c === "\n" ? "\\n" : c === "\r" ? "\\r" : c === "\t" ? "\\t" : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * The nodes' dependencies, narrowed from the application's. A run's context resolves its
 * configuration and loads its prompts (run overrides → store → defaults); while the store is
 * unavailable the defaults stay in force (the store logs its outages itself, once each; any other
 * store failure is logged here).
 */
export function nodeDepsOf(app: AppDeps): NodeDeps {
  const log = app.log ?? stderrLog;
  const now = app.now ?? (() => new Date());
  const resolve = runSettingsResolver(app.settings);
  const context = async (config: LangGraphRunnableConfig): Promise<RunContext> => {
    const run = resolve({ ...config.configurable, ...(config.context as object | undefined) });
    const prompts = await loadPromptSet(app.prompts, run.promptOverrides, (err) => {
      if (!(err instanceof StoreUnavailableError)) log(`prompt store failed, using defaults: ${err.message}`);
    });
    // Read per call: a busy process coalesces the text of the answers it starts from now on more coarsely.
    const coalesceMs = app.deltaCoalesceMs ?? deltaCoalesceMs();
    return { run, prompts, now, today: () => now().toISOString().slice(0, 10), log, coalesceMs, prices: app.settings.prices };
  };
  const { speech, voiceSettings } = app;
  return {
    models: app.models,
    search: app.search,
    roster: app.settings.roster,
    allowedModels: app.settings.allowedModels,
    internalModel: app.settings.oneseekModel,
    prices: app.settings.prices,
    context,
    voice: speech && {
      speech,
      settings: () => (voiceSettings ? voiceSettings.load() : Promise.resolve(defaultVoiceSettings())),
      cache: app.speechCache,
      recorder: app.audio,
      parallelism: app.settings.ttsParallelism,
      clock: app.playbackClock,
    },
  };
}
