import { PCM } from "../state/audio-format.js";

/** How far ahead of the playhead audio is handed to Web Audio; the rest waits as compact Int16. */
const SCHEDULE_AHEAD_S = 3;

/** What the voice bar shows. */
export interface VoiceView {
  playing: boolean;
  paused: boolean;
  speaker?: string;
  /** The sentence being heard. */
  sentence?: string;
}

/**
 * Plays a /dvoice debate as its chunks arrive base64 → Int16 → Float32 →
 * AudioBuffer at 24 kHz, queued strictly in arrival order (the server sends one speaker at a time)
 * through a gain node (volume) and an analyser node (the waveform). Only the next few seconds are
 * scheduled as AudioBuffers; later audio waits as Int16, so memory stays at half the size of the
 * backlog and nothing is collected for download (the server exports the whole debate).
 */
export class VoicePlayer {
  private ctx: AudioContext | undefined;
  private gain: GainNode | undefined;
  analyser: AnalyserNode | undefined;
  /** Audio not yet scheduled, in order, with the speaker it belongs to. */
  private pending: { samples: Int16Array; speaker: string; round: number; sentence: number }[] = [];
  /** When the last scheduled buffer ends, on the context's clock. */
  private endsAt = 0;
  private timer: number | undefined;
  private paused = false;
  private speakerAt: { at: number; speaker: string; round: number; sentence: number }[] = [];
  /** Each answer's sentences (by speaker and round), from its `debate-voice-speaker`. */
  private sentences = new Map<string, string[]>();
  /** The buffers scheduled and not finished, so that a stop can silence them. */
  private sources = new Set<AudioBufferSourceNode>();
  /** Stopped by the reader or the run: audio still arriving for this debate is not played. */
  private stopped = false;

  constructor(private readonly onChange: (view: VoiceView) => void) {}

  /** Creates the audio context; call it from a user gesture (browsers block audio otherwise). */
  unlock(): void {
    if (this.ctx) return;
    this.ctx = new AudioContext({ sampleRate: PCM.sampleRate });
    this.gain = this.ctx.createGain();
    this.analyser = this.ctx.createAnalyser();
    this.analyser.fftSize = 256;
    this.gain.connect(this.analyser).connect(this.ctx.destination);
  }

  /** Notes the sentences of a speaker's answer in a round (`debate-voice-speaker`). */
  speaks(speaker: string, round: number, sentences: string[]): void {
    this.sentences.set(`${speaker}|${round}`, sentences);
  }

  /** Queues one `debate-voice-chunk` (base64 PCM) of `speaker` in `round`, which begins in sentence `sentence`. */
  enqueue(speaker: string, pcmB64: string, round = 0, sentence = 0): void {
    if (this.stopped) return;
    this.unlock();
    const bytes = Uint8Array.from(atob(pcmB64), (c) => c.charCodeAt(0));
    this.pending.push({ samples: new Int16Array(bytes.buffer, 0, bytes.length >> 1), speaker, round, sentence });
    this.pump();
  }

  /** Silences the debate for good: what is playing stops, what is queued is dropped, and what is still to come is not played. */
  stop(): void {
    this.stopped = true;
    this.pending = [];
    for (const source of this.sources) source.stop();
    this.sources.clear();
    this.speakerAt = [];
    this.endsAt = this.ctx?.currentTime ?? 0;
    clearTimeout(this.timer);
    this.emit();
  }

  togglePause(): void {
    if (!this.ctx) return;
    this.paused = !this.paused;
    void (this.paused ? this.ctx.suspend() : this.ctx.resume());
    this.emit();
  }

  setVolume(volume: number): void {
    if (this.gain) this.gain.gain.value = volume;
  }

  /** Schedules pending audio up to SCHEDULE_AHEAD_S past the playhead, then checks again later. */
  private pump(): void {
    const ctx = this.ctx!;
    const now = ctx.currentTime;
    if (this.endsAt < now) this.endsAt = now;
    while (this.pending.length && this.endsAt - now < SCHEDULE_AHEAD_S) {
      const { samples, speaker, round, sentence } = this.pending.shift()!;
      const buffer = ctx.createBuffer(1, samples.length, PCM.sampleRate);
      const channel = buffer.getChannelData(0);
      for (let i = 0; i < samples.length; i++) channel[i] = samples[i] / 32768;
      const source = ctx.createBufferSource();
      source.buffer = buffer;
      source.connect(this.gain!);
      source.start(this.endsAt);
      this.sources.add(source);
      source.onended = () => this.sources.delete(source);
      this.speakerAt.push({ at: this.endsAt, speaker, round, sentence });
      this.endsAt += buffer.duration;
    }
    this.emit();
    clearTimeout(this.timer);
    if (this.pending.length || this.endsAt > now) this.timer = window.setTimeout(() => this.pump(), 250);
  }

  private emit(): void {
    const now = this.ctx?.currentTime ?? 0;
    while (this.speakerAt.length > 1 && this.speakerAt[1].at <= now) this.speakerAt.shift();
    const playing = this.endsAt > now;
    const heard = playing ? this.speakerAt[0] : undefined;
    this.onChange({
      playing,
      paused: this.paused,
      speaker: heard?.speaker,
      sentence: heard && this.sentences.get(`${heard.speaker}|${heard.round}`)?.[heard.sentence],
    });
  }
}
