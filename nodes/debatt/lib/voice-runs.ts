import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { VoiceDeps } from "../../../ports/node-deps.js";
import { detectLanguage } from "../../../state/language.js";
import { defaultVoiceSettings, type VoiceSettings } from "../../../state/voice.js";
import { NO_CACHE, voiceEmitter, VoiceQueue } from "./voice-queue.js";

/**
 * The voice queues of the debates a graph is running, by debate id. A queue lives outside the
 * graph state (it holds audio in flight, not checkpointable data): the round executor creates it
 * with the first answer of a /dvoice debate and the voice pipeline node drains and removes it.
 */
export class VoiceRuns {
  private readonly queues = new Map<string, VoiceQueue>();

  constructor(private readonly voice: VoiceDeps | undefined) {}

  /**
   * The debate's voice queue, created with its first answer from the admins' voice settings (the
   * defaults when they cannot be read); undefined when no speech provider is configured.
   */
  async queueFor(debateId: string, topic: string, config: LangGraphRunnableConfig, log: (line: string) => void): Promise<VoiceQueue | undefined> {
    const existing = this.queues.get(debateId);
    if (existing || !this.voice) return existing;
    const { speech, cache, recorder, parallelism } = this.voice;
    let settings: VoiceSettings;
    try {
      settings = await this.voice.settings();
    } catch (err) {
      log(`voice settings unavailable, using the defaults: ${(err as Error).message}`);
      settings = defaultVoiceSettings();
    }
    const queue = new VoiceQueue({
      synthesizer: speech(settings),
      settings,
      language: detectLanguage(topic),
      cache: cache ?? NO_CACHE,
      emit: voiceEmitter(config),
      signal: config.signal ?? new AbortController().signal,
      record: recorder ? (pcm) => recorder.append(debateId, pcm) : undefined,
      parallelism,
    });
    this.queues.set(debateId, queue);
    // A cancelled run never reaches the voice pipeline node: forget its queue, close its recording.
    config.signal?.addEventListener(
      "abort",
      () => {
        this.queues.delete(debateId);
        void recorder?.finish(debateId);
      },
      { once: true },
    );
    return queue;
  }

  /** Waits until the debate's audio has all been sent, forgets the queue and closes the recording. */
  async finish(debateId: string): Promise<void> {
    const queue = this.queues.get(debateId);
    try {
      await queue?.drain();
    } finally {
      this.queues.delete(debateId);
    }
    await this.voice?.recorder?.finish(debateId);
  }
}
