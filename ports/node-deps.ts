import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { PromptStore } from "../prompts/store.js";
import { loadPromptSet, StoreUnavailableError } from "../prompts/store.js";
import type { PromptSet } from "../prompts/render.js";
import { DEFAULTS, resolveRunSettings, type RunSettings, type Settings } from "../state/config.js";
import type { VoiceSettings } from "../state/voice.js";
import type { VoiceSettingsStore } from "../providers/voice-settings-store.js";
import type { AudioArchive } from "../providers/audio-archive.js";
import type { EventLog } from "../providers/event-log.js";
import type { ModelFactory, SearchClient, SpeechCache, SpeechSynthesizer } from "./models.js";

/** Everything the graph's nodes need from outside, injected once when the graph is built. */
export interface GraphDeps {
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
  /** Where /dvoice audio is kept for export, exactly as it was streamed. */
  audio?: AudioArchive;
  /** The shared event log (Redis streams) that lets any instance replay a run; absent → this process only. */
  events?: EventLog;
  /** The voice settings admins edit, loaded at every /dvoice run (defaults when absent). */
  voiceSettings?: VoiceSettingsStore;
  /** How long streamed text may be coalesced into one event, in ms. */
  deltaCoalesceMs?: number;
  /** Clock (tests pin it). */
  now?: () => Date;
  /** Where operational log lines go (stderr by default). */
  log?: (line: string) => void;
}

/** The default log: one line on stderr, prefixed `[debatt]`. */
export const stderrLog = (line: string): void => console.error(`[debatt] ${line}`);

/** What a node needs for one run, resolved from the deps and the run's configuration. */
export interface RunContext {
  deps: GraphDeps;
  run: RunSettings;
  prompts: PromptSet;
  now: () => Date;
  /** Today's date, ISO 8601 (yyyy-mm-dd), for the prompts that carry it. */
  today: () => string;
  log: (line: string) => void;
  coalesceMs: number;
}

/**
 * Resolves the run's configuration and loads its prompts (run overrides → store → defaults).
 * While the store is unavailable the defaults stay in force; the store logs its outages itself
 * (once each), and any other store failure is logged here.
 */
export async function runContext(deps: GraphDeps, config: LangGraphRunnableConfig): Promise<RunContext> {
  const log = deps.log ?? stderrLog;
  const run = resolveRunSettings({ ...config.configurable, ...(config.context as object | undefined) }, deps.settings);
  const prompts = await loadPromptSet(deps.prompts, run.promptOverrides, (err) => {
    if (!(err instanceof StoreUnavailableError)) log(`prompt store failed, using defaults: ${err.message}`);
  });
  const now = deps.now ?? (() => new Date());
  return {
    deps,
    run,
    prompts,
    now,
    today: () => now().toISOString().slice(0, 10),
    log,
    coalesceMs: deps.deltaCoalesceMs ?? DEFAULTS.deltaCoalesceMs,
  };
}
