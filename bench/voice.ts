/**
 * Benchmark: what speaking costs a debate. A /dvoice debate and a /debatt debate run side by side
 * on the simulated provider (L per model call, 8 participants, ~80-word answers) with a stand-in
 * speech provider that takes T to speak a whole answer (proportional to its length, sentences in
 * parallel as the pipeline asks). Prints, for T < L and T > L:
 *   - /dvoice wall ÷ /debatt wall, against the target 1 + (T of the last answer) / total;
 *   - the time from a participant's text ending to its first audio chunk (target ≤ 300 ms).
 *
 * Then /dvoice paced and not, at the debate's own lengths (8 participants, 300/500/500 words,
 * spoken at 150 words a minute: about 70 minutes of speech), time compressed BENCH_VOICE_SPEEDUP
 * times (text, speech and playback alike): the lag between the last text and the end of the last
 * audio on the listener's playback clock (which starts with the first chunk).
 *
 * Last, /dvoice as a newcomer without a key meets it, in real time: the simulated provider at its
 * default pace and the local espeak-ng voice, speaking whole answers unpaced (as it did before),
 * each answer's opening unpaced, and each answer's opening paced (its default). Prints how long the
 * text took, how long its audio plays, and their ratio (the target: about 1).
 *
 * Env: BENCH_VOICE_L (default 200 ms), BENCH_VOICE_SPEEDUP (default 200).
 */
import { buildAppGraph, simulatedModels } from "../service/formats.js";
import { speechFor } from "../service/deps.js";
import { nodeDepsOf, type AppDeps } from "../service/app-deps.js";
import type { SpeechRequest, SpeechSynthesizer } from "../ports/models.js";
import { streamClientEvents } from "../service/stream.js";
import { InMemoryPromptStore } from "../prompts/store.js";
import { MemorySpeechCache } from "../providers/speech-cache.js";
import { MemoryValueStore, VoiceSettingsStore } from "../providers/voice-settings-store.js";
import { loadSettings } from "../state/config.js";
import { ROUNDS } from "../state/debate.js";
import { countWords } from "../state/text.js";
import type { VoicePacing } from "../state/formats.js";
import { PCM, pcmDurationMs, type SpokenPart } from "../state/voice.js";
import { percentile } from "./stats.js";

const L = Number(process.env.BENCH_VOICE_L ?? 200);
const WORDS = 80;
/** Characters of a simulated ~80-word answer, to turn "T per answer" into a rate. */
const ANSWER_CHARS = WORDS * 6.5;

/** A stand-in speech provider whose timing and output the benchmark chooses. */
class TimedSpeech implements SpeechSynthesizer {
  readonly provider = "bench";
  readonly model = "bench";
  readonly speed = 1;
  /** `timing(text)`: how long synthesising the text takes and how many PCM bytes it gives, yielded in ~100 ms pieces. */
  constructor(private readonly timing: (text: string) => { ms: number; bytes: number }) {}
  async *synthesize(req: SpeechRequest): AsyncIterable<Uint8Array> {
    const { ms, bytes } = this.timing(req.text);
    const pieces = Math.max(1, Math.round(ms / 100));
    for (let i = 0; i < pieces; i++) {
      await new Promise((r) => setTimeout(r, ms / pieces));
      yield new Uint8Array(Math.round(bytes / pieces / 2) * 2);
    }
  }
}

/** Speech taking `answerMs` per answer's worth of text (proportional to its length), 4800 bytes per 100 ms piece. */
function answerTiming(answerMs: number) {
  return (text: string) => {
    const ms = (answerMs * text.length) / ANSWER_CHARS;
    return { ms, bytes: Math.max(1, Math.round(ms / 100)) * 4_800 };
  };
}

interface Run {
  wallMs: number;
  /** ms from each participant-end to that participant's first voice chunk. */
  firstAudio: number[];
}

async function debate(command: "/debatt" | "/dvoice", answerMs: number): Promise<Run> {
  const graph = graphFor({
    models: simulatedModels({ latencyMs: L, chunkDelayMs: 0, chunkTokens: 16, answerWords: WORDS }),
    prompts: new InMemoryPromptStore(),
    settings: loadSettings({}),
    log: () => {},
    speech: () => new TimedSpeech(answerTiming(answerMs)),
    speechCache: new MemorySpeechCache(0), // every debate synthesises afresh
  });
  const t0 = performance.now();
  const ended = new Map<string, number>();
  const firstAudio: number[] = [];
  for await (const e of streamClientEvents(graph, { message: `${command} Bör AI regleras?` }, { configurable: { seed: 1 } })) {
    const d = e.data as { model?: string; round?: number };
    const who = `${d.model}:${d.round}`;
    if (e.event === "debate-participant-end") ended.set(who, performance.now());
    if (e.event === "debate-voice-chunk" && ended.has(who)) {
      firstAudio.push(performance.now() - ended.get(who)!);
      ended.delete(who);
    }
    if (e.event === "error") throw new Error(`the debate failed: ${JSON.stringify(e.data)}`);
  }
  return { wallMs: performance.now() - t0, firstAudio };
}

const SPEEDUP = Number(process.env.BENCH_VOICE_SPEEDUP ?? 200);
/** Speech at 150 words a minute, compressed SPEEDUP times: PCM bytes per word. */
const BYTES_PER_WORD = ((60 / 150) * PCM.sampleRate * 2) / SPEEDUP;

/** Speech at 150 words a minute (compressed), synthesised 4 times faster than it plays. */
function spokenTiming(text: string) {
  const bytes = Math.round((countWords(text) * BYTES_PER_WORD) / 2) * 2;
  return { ms: pcmDurationMs(bytes) / 4, bytes };
}

/**
 * A /dvoice debate at its own lengths, paced or not: seconds (compressed) from the last text to the
 * end of the last audio on the listener's clock, and the whole audio's length.
 */
async function lag(pacing: "paced" | "off"): Promise<{ lagMs: number; audioMs: number }> {
  // 40 tokens a second after a 1 s first token, compressed: 16-word chunks.
  const chunkMs = ((16 * 4) / 3 / 40) * (1000 / SPEEDUP);
  const graph = graphFor({
    models: simulatedModels({ latencyMs: 1000 / SPEEDUP, chunkDelayMs: chunkMs, chunkTokens: 16, roundWords: ROUNDS.map((r) => r.words) }),
    prompts: new InMemoryPromptStore(),
    settings: loadSettings({}),
    log: () => {},
    speech: () => new TimedSpeech(spokenTiming),
    speechCache: new MemorySpeechCache(0),
  });
  let lastText = 0;
  let playedUntil = 0;
  let firstAudio = 0;
  for await (const e of streamClientEvents(graph, { message: "/dvoice Bör AI regleras?" }, { configurable: { seed: 1, voice_pacing: pacing } })) {
    const now = performance.now();
    if (e.event === "debate-participant-end") lastText = now;
    if (e.event === "debate-voice-chunk") {
      const start = Math.max(playedUntil, now);
      firstAudio ||= start;
      playedUntil = start + pcmDurationMs(Buffer.from(e.data.pcm_b64, "base64").length);
    }
    if (e.event === "error") throw new Error(`the debate failed: ${JSON.stringify(e.data)}`);
  }
  return { lagMs: playedUntil - lastText, audioMs: playedUntil - firstAudio };
}

/**
 * A /dvoice run as `npm start` without any key runs it, in real time: the simulated provider at the
 * server's default pace, the local espeak-ng voice speaking `spoken`. How long the text took (the
 * run's start to its last answer's end) and how long all its audio plays.
 */
async function offline(spoken: SpokenPart, pacing?: VoicePacing): Promise<{ textMs: number; audioMs: number }> {
  const settings = loadSettings({});
  const voiceSettings = new VoiceSettingsStore(new MemoryValueStore(), undefined);
  await voiceSettings.save({ spoken });
  const graph = graphFor({
    models: simulatedModels({
      latencyMs: settings.simulatedLatencyMs,
      chunkDelayMs: settings.simulatedChunkDelayMs,
      chunkTokens: settings.simulatedChunkTokens,
      roundWords: settings.simulatedRoundWords,
    }),
    prompts: new InMemoryPromptStore(),
    settings,
    log: () => {},
    speech: speechFor(settings),
    speechCache: new MemorySpeechCache(0),
    voiceSettings,
  });
  const t0 = performance.now();
  let textMs = 0;
  let audioMs = 0;
  const configurable = { seed: 1, ...(pacing ? { voice_pacing: pacing } : {}) };
  for await (const e of streamClientEvents(graph, { message: "/dvoice Bör AI regleras?" }, { configurable })) {
    if (e.event === "debate-participant-end" || e.event === "debate-synthesis-complete") textMs = performance.now() - t0;
    if (e.event === "debate-voice-chunk") audioMs += pcmDurationMs(Buffer.from(e.data.pcm_b64, "base64").length);
    if (e.event === "error") throw new Error(`the debate failed: ${JSON.stringify(e.data)}`);
  }
  return { textMs, audioMs };
}

async function main() {
  console.log(`\ndebatt voice benchmark — L = ${L} ms per model call, 8 participants, ~${WORDS}-word answers`);
  await debate("/dvoice", L / 2); // warm-up
  for (const answerMs of [L / 2, 3 * L, 10 * L]) {
    const text = await debate("/debatt", answerMs);
    const voice = await debate("/dvoice", answerMs);
    const ratio = voice.wallMs / text.wallMs;
    const bound = 1 + answerMs / text.wallMs;
    const label = answerMs < L ? "T < L" : answerMs / 3 > L ? "T > 3L: slower than 3 parallel sentences can keep up" : "T > L";
    console.log(`T = ${answerMs} ms per answer (${label}): /debatt ${(text.wallMs / 1000).toFixed(2)} s, /dvoice ${(voice.wallMs / 1000).toFixed(2)} s`);
    console.log(`  /dvoice ÷ /debatt: ${ratio.toFixed(3)} (target ≤ 1 + T/total = ${bound.toFixed(3)})`);
    console.log(
      `  first audio after a participant's text ends: p50 ${percentile(voice.firstAudio, 50).toFixed(0)} ms, p95 ${percentile(voice.firstAudio, 95).toFixed(0)} ms, ` +
        `max ${Math.max(...voice.firstAudio).toFixed(0)} ms over ${voice.firstAudio.length} answers (target ≤ 300 ms)`,
    );
  }
  const minutes = (ms: number) => `${((ms * SPEEDUP) / 60_000).toFixed(1)} min`;
  console.log(
    `\n/dvoice at the debate's own lengths (8 participants, ${ROUNDS.map((r) => r.words).join("/")} words, 150 words a minute), time compressed ${SPEEDUP}×:`,
  );
  const ahead = await lag("off");
  const paced = await lag("paced");
  console.log(`  audio in all: ${minutes(ahead.audioMs)} (paced ${minutes(paced.audioMs)})`);
  console.log(
    `  from the last text to the last audio: not paced ${minutes(ahead.lagMs)}, paced ${minutes(paced.lagMs)} (${(paced.lagMs / ahead.lagMs).toFixed(2)} of it)`,
  );
  console.log("\n/dvoice offline (no key: simulated models at their default pace, the local espeak-ng voice), in real time:");
  const min = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;
  const ways = [
    ["whole answers, not paced (before)", "whole", "off"],
    ["each answer's opening, not paced", "opening", "off"],
    ["each answer's opening, paced (the default)", "opening", undefined],
  ] as const;
  for (const [label, spoken, pacing] of ways) {
    const { textMs, audioMs } = await offline(spoken, pacing);
    console.log(`  ${label}: text ${min(textMs)}, audio ${min(audioMs)}, audio ÷ text ${(audioMs / textMs).toFixed(2)} (target about 1)`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

/** The graph the service builds from these deps. */
function graphFor(deps: AppDeps, options: Omit<Parameters<typeof buildAppGraph>[1], "settings"> = {}) {
  return buildAppGraph(nodeDepsOf(deps), { ...options, settings: deps.settings });
}
