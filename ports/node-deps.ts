import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { RunSettings } from "../state/run-config.js";
import type { ModelAllowlist, Participant } from "../state/participants.js";
import type { Clock } from "../state/clock.js";
import type { VoiceSettings } from "../state/voice.js";
import type { PriceTable } from "../state/usage.js";
import type { ModelFactory, SearchClient, SpeechCache, SpeechSynthesizer } from "./models.js";

/** The prompt texts in force for one run (run overrides, then stored ones, then the defaults). */
export interface Prompts {
  /** The effective text of a registered key with its `{placeholders}` filled; throws naming a missing value. */
  render(key: string, values: Record<string, string | number>): string;
}

/** What a node needs for one run, resolved from the run's configuration. */
export interface RunContext {
  /** The run's settings: its configuration with the process settings as defaults. */
  run: RunSettings;
  prompts: Prompts;
  now: () => Date;
  /** Today's date, ISO 8601 (yyyy-mm-dd), for the prompts that carry it. */
  today: () => string;
  /** Where operational log lines go. */
  log: (line: string) => void;
  /** How long streamed text may be coalesced into one event, in ms. */
  coalesceMs: number;
  /** The price table, for what one answer cost (its end event's `usage`). */
  prices: PriceTable;
}

/** Keeps a /dvoice debate's audio, exactly as it was streamed, for export. */
export interface AudioRecorder {
  append(debateId: string, pcm: Buffer): void;
  /** The debate's audio is complete. */
  finish(debateId: string): Promise<void>;
}

/** What /dvoice speaks with. */
export interface VoiceDeps {
  /** The speech provider for a run's voice settings. */
  speech(settings: VoiceSettings): SpeechSynthesizer;
  /** The voice settings admins edit, loaded at every /dvoice run. */
  settings(): Promise<VoiceSettings>;
  /** Synthesised sentences, so identical audio is not generated twice. */
  cache?: SpeechCache;
  /** Where the audio is kept for export. */
  recorder?: AudioRecorder;
  /** Sentences synthesised at once per debate. */
  parallelism: number;
  /** The listener's playback clock a paced debate waits on (default: the process's own). */
  clock?: Clock;
}

/**
 * Everything the graph's nodes get from outside, injected once when the graph is built. It holds
 * no more than the nodes use: the service's own needs (event log, history, admin settings) are
 * not here.
 */
export interface NodeDeps {
  /** Chat models: OpenAI-compatible, simulated, or a test's scripted fake. */
  models: ModelFactory;
  /** Web search for OneSeek and the supervisor; absent without a search key. */
  search?: SearchClient;
  /** The configured participants. */
  roster: Participant[];
  /** Model ids a run may name besides the roster's. */
  allowedModels: ModelAllowlist;
  /** The internal model: OneSeek's, the supervisor's, the synthesis's, the default chairman's. */
  internalModel: string;
  /** The price table (`MODEL_PRICES`), for the estimate a run announces before it starts. */
  prices: PriceTable;
  /** /dvoice's speech; absent → the voice events say that no speech provider is configured. */
  voice?: VoiceDeps;
  /** The context of the run a node is part of: its settings and prompts (loaded once per call). */
  context(config: LangGraphRunnableConfig): Promise<RunContext>;
}
