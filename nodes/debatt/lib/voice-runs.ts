import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { VoiceDeps } from "../../../ports/node-deps.js";
import { detectLanguage } from "../../../state/language.js";
import { voiceSettingsOr } from "../../../state/voice.js";
import { NO_CACHE, voiceEmitter, VoiceQueue } from "./voice-queue.js";

/**
 * The signal of the whole run. A node's own `config.signal` is its step's: once the step is over
 * it never aborts, while the queue outlives the step. LangGraph keeps the run's signal (the one
 * given to `stream`) in the configuration as `__pregel_abort_signals.externalAbortSignal`; a test
 * (tests/voice-export.test.ts, "stops a debate's speech … after the step that began them") fails if that changes.
 */
function runSignalOf(config: LangGraphRunnableConfig): AbortSignal | undefined {
  const signals = config.configurable?.__pregel_abort_signals as { externalAbortSignal?: AbortSignal } | undefined;
  return signals?.externalAbortSignal ?? config.signal;
}

/**
 * The voice queues of the debates a graph is running, by debate id. A queue lives outside the
 * graph state (it holds audio in flight, not checkpointable data): the round executor creates it
 * with the first answer of a /dvoice debate and the voice pipeline node drains and removes it.
 */
export class VoiceRuns {
  private readonly queues = new Map<string, VoiceQueue>();
  /** What stops each debate's queue (a run cancelled between its steps). */
  private readonly stops = new Map<string, () => void>();

  /** Queues being created (their settings loading): a simultaneous round's answers arrive at once and must share one. */
  private readonly creating = new Map<string, Promise<VoiceQueue>>();

  constructor(private readonly voice: VoiceDeps | undefined) {}

  /**
   * The debate's voice queue, created with its first answer from the admins' voice settings (the
   * defaults when they cannot be read); undefined when no speech provider is configured.
   */
  async queueFor(debateId: string, topic: string, config: LangGraphRunnableConfig, log: (line: string) => void): Promise<VoiceQueue | undefined> {
    const existing = this.queues.get(debateId) ?? this.creating.get(debateId);
    if (existing || !this.voice) return existing;
    const created = this.create(debateId, this.voice, topic, config, log);
    this.creating.set(debateId, created);
    try {
      return await created;
    } finally {
      this.creating.delete(debateId);
    }
  }

  /** A new queue for the debate, kept until the debate finishes or its run stops. */
  private async create(debateId: string, voice: VoiceDeps, topic: string, config: LangGraphRunnableConfig, log: (line: string) => void): Promise<VoiceQueue> {
    const { speech, cache, recorder, parallelism, clock } = voice;
    const settings = await voiceSettingsOr(() => voice.settings(), log);
    const stopped = new AbortController();
    const queue = new VoiceQueue({
      synthesizer: speech(settings),
      settings,
      language: detectLanguage(topic),
      cache: cache ?? NO_CACHE,
      emit: voiceEmitter(config),
      signal: stopped.signal,
      // Speech still in flight when the run stops is not recorded: the recording closes with the run.
      record: recorder ? (pcm) => void (stopped.signal.aborted || recorder.append(debateId, pcm)) : undefined,
      parallelism,
      clock,
    });
    this.queues.set(debateId, queue);
    // A cancelled run never reaches the voice pipeline node: its speech stops, its queue is
    // forgotten and its recording closed, so what was spoken can be exported.
    this.stops.set(debateId, () => {
      if (stopped.signal.aborted) return;
      stopped.abort();
      this.queues.delete(debateId);
      this.stops.delete(debateId);
      void recorder?.finish(debateId);
    });
    const signal = runSignalOf(config);
    if (signal?.aborted) this.stops.get(debateId)!();
    else signal?.addEventListener("abort", this.stops.get(debateId)!, { once: true });
    return queue;
  }

  /**
   * A paced debate's waits (at once when the debate has no queue, e.g. resumed after a restart):
   * before its next speaker writes, until the audio of the last answer handed over starts playing
   * (`turn`); before its vote, until all of it has played (`vote`). Stalled speech holds either
   * for at most `maxWaitMs`.
   */
  paced(debateId: string, maxWaitMs: number, signal?: AbortSignal): { turn(): Promise<void>; vote(): Promise<void> } {
    return {
      turn: () => this.queues.get(debateId)?.untilLastPlaying(maxWaitMs, signal) ?? Promise.resolve(),
      vote: () => this.queues.get(debateId)?.untilAllPlayed(maxWaitMs, signal) ?? Promise.resolve(),
    };
  }

  /** Waits until the debate's audio has all been sent, forgets the queue and closes the recording. */
  async finish(debateId: string): Promise<void> {
    const queue = this.queues.get(debateId);
    try {
      await queue?.drain();
    } finally {
      this.queues.delete(debateId);
      this.stops.delete(debateId);
    }
    await this.voice?.recorder?.finish(debateId);
  }
}
