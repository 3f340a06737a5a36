import { createHash } from "node:crypto";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../../ports/emit.js";
import type { SpeechCache, SpeechSynthesizer } from "../../../ports/models.js";
import type { EventInput } from "../../../state/events.js";
import { REAL_CLOCK, type Clock } from "../../../state/clock.js";
import type { Participant } from "../../../state/participants.js";
import { CHUNK_BYTES, PCM, instructionsFor, pcmDurationMs, spokenPartOf, spokenSentences, voiceFor, type VoiceSettings } from "../../../state/voice.js";
import { splitSentences } from "./sentences.js";

/** A cache that keeps nothing, for deps without one. */
export const NO_CACHE: SpeechCache = { get: async () => undefined, set: async () => {} };

/** The voice events, emitted through the graph's one emit point. */
export interface VoiceEmitter {
  speaker(data: EventInput<"debate_voice_speaker">): void;
  chunk(data: EventInput<"debate_voice_chunk">): void;
  done(data: EventInput<"debate_voice_done">): void;
  error(data: EventInput<"debate_voice_error">): void;
}

/** The voice events of one run, bound to its config (the voice queue emits after its node's step). */
export function voiceEmitter(config: LangGraphRunnableConfig): VoiceEmitter {
  return {
    speaker: (data) => emit(config, "debate_voice_speaker", data),
    chunk: (data) => emit(config, "debate_voice_chunk", data),
    done: (data) => emit(config, "debate_voice_done", data),
    error: (data) => emit(config, "debate_voice_error", data),
  };
}

/** What a voice queue needs for one debate. */
export interface VoiceQueueOptions {
  synthesizer: SpeechSynthesizer;
  settings: VoiceSettings;
  language: "sv" | "en";
  cache: SpeechCache;
  emit: VoiceEmitter;
  /** The run's signal: cancelling the run stops all synthesis and emission. */
  signal: AbortSignal;
  /** Receives every emitted chunk, in order (the audio archive behind the export). */
  record?: (pcm: Buffer) => void;
  /** How many sentences are synthesised at once across the debate (default 3). */
  parallelism?: number;
  /** The listener's playback clock (default: the process's own). */
  clock?: Clock;
}

/** One sentence's audio as it arrives; readable while it is still being produced. */
class SentenceAudio {
  constructor(readonly text: string) {}
  readonly chunks: Buffer[] = [];
  finished = false;
  error: Error | undefined;
  private wake: (() => void) | undefined;

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.notify();
  }
  finish(error?: Error): void {
    this.finished = true;
    this.error = error;
    this.notify();
  }
  /** Yields the chunks in order as they arrive; throws the synthesis error, if any. */
  async *read(): AsyncGenerator<Buffer> {
    for (let i = 0; ;) {
      while (i < this.chunks.length) yield this.chunks[i++];
      if (this.finished) {
        if (this.error) throw this.error;
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

/** A counting semaphore: at most `size` tasks run at once, in the order they asked. */
class Limiter {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly size: number) {}
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await task();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}

/**
 * The spoken side of one /dvoice debate. Each answer is handed over as soon as its text is
 * complete and spoken in the background. Answers are split into sentences that are synthesised
 * with bounded parallelism (earlier speakers first), while the audio is emitted strictly in
 * speaking order: one speaker's chunks are never interleaved with another's, and the first
 * sentence streams as it arrives. A speech failure ends only that speaker's audio.
 *
 * It also keeps the listener's playback clock, which starts with the first chunk sent: each chunk
 * plays after the one before it, or when it arrives if the player has run dry. A paced debate
 * waits on it (`untilLastPlaying`, `untilAllPlayed`); an unpaced one never does, and the clock
 * then holds no timer.
 */
export class VoiceQueue {
  private tail: Promise<void> = Promise.resolve();
  private readonly limiter: Limiter;
  private readonly clock: Clock;
  /** When everything sent so far will have played (ms on `clock`); unset before the first chunk. */
  private playedUntil: number | undefined;
  /** When the last answer handed over starts playing (ms on `clock`), or undefined when it never will. */
  private lastStart: Promise<number | undefined> = Promise.resolve(undefined);

  constructor(private readonly options: VoiceQueueOptions) {
    this.limiter = new Limiter(options.parallelism ?? 3);
    this.clock = options.clock ?? REAL_CLOCK;
  }

  /** Starts speaking an answer after everything handed over before it. */
  enqueue(participant: Participant, round: number, text: string): void {
    const speakerAbort = new AbortController();
    const signal = AbortSignal.any([this.options.signal, speakerAbort.signal]);
    const voice = voiceFor(participant.display, this.options.settings, participant.voice);
    const instructions = instructionsFor(participant.display, this.options.settings);
    const part = spokenPartOf(this.options.settings, this.options.synthesizer.speaks);
    const sentences = spokenSentences(splitSentences(text), part).map((sentence) => {
      const audio = new SentenceAudio(sentence);
      void this.limiter.run(() => this.synthesize(sentence, voice, instructions, audio, signal));
      return audio;
    });
    let started!: (at: number | undefined) => void;
    this.lastStart = new Promise((resolve) => (started = resolve));
    this.tail = this.tail.then(async () => {
      try {
        await this.speak(participant, round, voice, sentences, speakerAbort, started);
      } finally {
        // No audio (a failure, a stopped run, an empty answer): it will never start playing.
        started(undefined);
      }
    });
  }

  /** Resolves when every answer handed over so far has been spoken (or has failed). */
  drain(): Promise<void> {
    return this.tail;
  }

  /**
   * Resolves when the audio of the last answer handed over starts playing on the listener's
   * clock: at once when nothing was handed over or its speech failed, and once `maxWaitMs` has
   * passed without its first chunk (stalled speech does not hold a debate up for longer). Rejects
   * with `signal`'s reason when it aborts first.
   */
  async untilLastPlaying(maxWaitMs: number, signal?: AbortSignal): Promise<void> {
    const start = await abortable(within(this.clock, this.lastStart, maxWaitMs), signal);
    if (start !== undefined) await this.clock.sleep(start - this.clock.now(), signal);
  }

  /**
   * Resolves when everything handed over has been sent and has played on the listener's clock
   * (the sending bounded by `maxWaitMs`, as above); rejects with `signal`'s reason when it aborts first.
   */
  async untilAllPlayed(maxWaitMs: number, signal?: AbortSignal): Promise<void> {
    await abortable(within(this.clock, this.tail, maxWaitMs), signal);
    if (this.playedUntil !== undefined) await this.clock.sleep(this.playedUntil - this.clock.now(), signal);
  }

  /** A chunk of `bytes` sent now: when it starts playing (ms on `clock`), and the playback clock moved past it. */
  private schedule(bytes: number): number {
    const now = this.clock.now();
    const start = Math.max(this.playedUntil ?? now, now);
    this.playedUntil = start + pcmDurationMs(bytes);
    return start;
  }

  private async synthesize(text: string, voice: string, instructions: string | undefined, audio: SentenceAudio, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return audio.finish(new Error("cancelled"));
    const { synthesizer, cache, language } = this.options;
    const key = createHash("sha256")
      .update(JSON.stringify([synthesizer.provider, synthesizer.model, voice, synthesizer.speed, instructions ?? "", language, text]))
      .digest("hex");
    try {
      const cached = await cache.get(key);
      if (cached) {
        audio.push(cached);
        return audio.finish();
      }
      const parts: Buffer[] = [];
      for await (const chunk of synthesizer.synthesize({ text, voice, instructions, language, signal })) {
        const part = Buffer.from(chunk);
        parts.push(part);
        audio.push(part);
      }
      audio.finish();
      await cache.set(key, Buffer.concat(parts));
    } catch (err) {
      audio.finish(err as Error);
    }
  }

  /** Emits one speaker's audio in order, each chunk moving the playback clock; `started` hears when the first will play. */
  private async speak(
    p: Participant,
    round: number,
    voice: string,
    sentences: SentenceAudio[],
    abort: AbortController,
    started: (at: number) => void,
  ): Promise<void> {
    const { emit, signal, synthesizer } = this.options;
    if (signal.aborted || sentences.length === 0) return;
    const who = { model: p.display, model_key: p.key, round };
    let pending: Buffer = Buffer.alloc(0);
    // Where each sentence's audio begins in the stream of bytes sent, so a chunk can name the sentence it starts in.
    const starts: number[] = [];
    let chunkIndex = 0;
    let totalBytes = 0;
    const send = (pcm: Buffer) => {
      const playsAt = this.schedule(pcm.length);
      if (chunkIndex === 0) started(playsAt);
      this.options.record?.(pcm);
      const sentence_index = Math.max(
        0,
        starts.findLastIndex((at) => at <= totalBytes),
      );
      emit.chunk({
        ...who,
        chunk_index: chunkIndex++,
        sentence_index,
        pcm_b64: pcm.toString("base64"),
        sample_rate: PCM.sampleRate,
        bit_depth: PCM.bitDepth,
        channels: PCM.channels,
      });
      totalBytes += pcm.length;
    };
    try {
      emit.speaker({ ...who, voice, total_sentences: sentences.length, sentences: sentences.map((s) => s.text), provider: synthesizer.provider });
      for (const sentence of sentences) {
        starts.push(totalBytes + pending.length);
        for await (const part of sentence.read()) {
          if (signal.aborted) return;
          pending = pending.length ? Buffer.concat([pending, part]) : part;
          while (pending.length >= CHUNK_BYTES) {
            send(pending.subarray(0, CHUNK_BYTES));
            pending = pending.subarray(CHUNK_BYTES);
          }
        }
      }
      // The last chunk is shorter; a dangling half sample (a truncated stream) is dropped.
      const tail = pending.subarray(0, pending.length - (pending.length % 2));
      if (tail.length) send(tail);
      emit.done({ ...who, total_bytes: totalBytes, total_chunks: chunkIndex });
    } catch (err) {
      abort.abort();
      if (!signal.aborted) emit.error({ model: p.display, round, error: (err as Error).message });
    }
  }
}

/** `promise`'s value, or undefined once `ms` have passed on `clock`; the wait is cancelled when the promise settles first. */
function within<T>(clock: Clock, promise: Promise<T>, ms: number): Promise<T | undefined> {
  const settled = new AbortController();
  const timeout = clock.sleep(ms, settled.signal).then(
    () => undefined,
    () => undefined,
  );
  return Promise.race([promise, timeout]).finally(() => settled.abort());
}

/** `promise`, or a rejection with `signal`'s reason as soon as it aborts (no listener is left behind). */
function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    const done = () => signal.removeEventListener("abort", onAbort);
    promise.then(
      (value) => (done(), resolve(value)),
      (err) => (done(), reject(err)),
    );
  });
}
