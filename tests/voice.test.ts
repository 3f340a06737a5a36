import wavefile from "wavefile";
import { afterEach, describe, expect, it } from "vitest";
import type { Clock } from "../state/clock.js";
import type { ClientEvent } from "../state/events.js";
import { splitSentences } from "../nodes/debatt/lib/sentences.js";
import { VoiceQueue, type VoiceEmitter } from "../nodes/debatt/lib/voice-queue.js";
import { LinearResampler, parseWavHeader, wavHeader } from "../providers/pcm.js";
import { MemorySpeechCache } from "../providers/speech-cache.js";
import { installed } from "../providers/installed.js";
import { EspeakSpeech } from "../providers/tts-espeak.js";
import { OpenAISpeech } from "../providers/tts-openai.js";
import { defaultRoster } from "../state/participants.js";
import { CHUNK_BYTES, defaultVoiceSettings, OPENING_WORDS, spokenSentences, voiceFor } from "../state/voice.js";
import { fakePcm, startFakeSpeech } from "./support/fake-servers.js";
import { FakeSpeech, type SpeechStep } from "./support/fake-speech.js";
import { withOverrides } from "./support/fake-model.js";
import { VirtualClock } from "./support/virtual-clock.js";
import { graphOf, named, runEvents, testDeps } from "./support/harness.js";
import { streamClientEvents } from "../service/stream.js";
import { MemoryValueStore, VoiceSettingsStore } from "../providers/voice-settings-store.js";

const { WaveFile } = wavefile;
const [grok, claude, gpt] = defaultRoster();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** Records the voice events a queue emits, in order. */
function recorder() {
  const events: { event: string; data: any }[] = [];
  const emit: VoiceEmitter = {
    speaker: (data) => events.push({ event: "speaker", data }),
    chunk: (data) => events.push({ event: "chunk", data }),
    done: (data) => events.push({ event: "done", data }),
    error: (data) => events.push({ event: "error", data }),
  };
  return { events, emit };
}

function queue(speech: FakeSpeech, options: { cache?: MemorySpeechCache; parallelism?: number; clock?: Clock } = {}) {
  const { events, emit } = recorder();
  const q = new VoiceQueue({
    synthesizer: speech,
    settings: defaultVoiceSettings(),
    language: "sv",
    cache: options.cache ?? new MemorySpeechCache(),
    emit,
    signal: new AbortController().signal,
    parallelism: options.parallelism,
    clock: options.clock,
  });
  return { q, events };
}

const pcmOf = (events: { event: string; data: any }[], model: string) =>
  Buffer.concat(events.filter((e) => e.event === "chunk" && e.data.model === model).map((e) => Buffer.from(e.data.pcm_b64, "base64")));

const LONG =
  "Första meningen är ganska lång och säger något viktigt. Andra meningen fortsätter resonemanget vidare. Tredje meningen avslutar det hela med en slutsats.";

describe("a participant's voice", () => {
  it("is the admins' choice, else the roster's own, else the built-in map's", () => {
    const defaults = defaultVoiceSettings();
    // A roster file's voice (examples/ollama.json gives Qwen onyx) is heard over the built-in map's fable.
    expect(voiceFor("Qwen", defaults, "onyx")).toBe("onyx");
    expect(voiceFor("Qwen", defaults)).toBe("fable");
    // An admin's choice wins over the roster.
    expect(voiceFor("Qwen", { ...defaults, voice_map: { ...defaults.voice_map, Qwen: "echo" } }, "onyx")).toBe("echo");
    expect(voiceFor("Llama", defaults, "shimmer")).toBe("shimmer");
    expect(voiceFor("Llama", defaults)).toBe("alloy");
  });
});

describe("sentences for speech", () => {
  it("splits an answer into sentences, joining short fragments and cutting long ones", () => {
    expect(splitSentences("Hej. Jag anser att AI bör regleras, men med måtta! Varför? För att **riskerna** är stora… Slutsats: ja.")).toEqual([
      "Hej. Jag anser att AI bör regleras, men med måtta!",
      "Varför? För att riskerna är stora… Slutsats: ja.",
    ]);
    const long = splitSentences(`${"ord, ".repeat(150)}slut.`);
    expect(long.length).toBeGreaterThan(1);
    expect(long.every((s) => s.length <= 400)).toBe(true);
    expect(long.join(" ").replace(/\s+/g, " ")).toBe(`${"ord, ".repeat(150)}slut.`.trim());
    expect(splitSentences("  ")).toEqual([]);
    // A quoted question inside a sentence does not end it.
    expect(
      splitSentences(
        "On “Should cities ban cars from their centres?” my answer is first: yes, I am in favour. Second, it depends on how well the buses run in each city.",
      ),
    ).toEqual([
      "On “Should cities ban cars from their centres?” my answer is first: yes, I am in favour.",
      "Second, it depends on how well the buses run in each city.",
    ]);
  });
});

describe("PCM helpers", () => {
  it("resamples 22.05 kHz to 24 kHz keeping the pitch, the same in one piece or in chunks", () => {
    const input = Int16Array.from({ length: 22_050 }, (_, i) => Math.round(10_000 * Math.sin((2 * Math.PI * 440 * i) / 22_050)));
    const whole = new LinearResampler(22_050, 24_000).push(input);
    const chunked = new LinearResampler(22_050, 24_000);
    const parts: number[] = [];
    for (let at = 0; at < input.length; at += 1_001) parts.push(...chunked.push(input.subarray(at, at + 1_001)));
    const crossings = [...whole].filter((v, i) => i > 0 && Math.sign(v) !== Math.sign(whole[i - 1]) && v !== 0).length;

    expect(Math.abs(whole.length - 24_000)).toBeLessThanOrEqual(2);
    expect(crossings).toBeGreaterThanOrEqual(875);
    expect(crossings).toBeLessThanOrEqual(885);
    expect(parts).toEqual([...whole]);
  });

  it("writes WAV headers that a WAV parser reads back", () => {
    const wav = Buffer.concat([wavHeader(9_600), Buffer.alloc(9_600)]);
    const parsed = new WaveFile(wav);
    expect(parsed.fmt).toMatchObject({ sampleRate: 24_000, bitsPerSample: 16, numChannels: 1 });
    expect(parseWavHeader(wav)).toEqual({ sampleRate: 24_000, bitDepth: 16, channels: 1, dataOffset: 44 });
  });

  it("bounds the speech cache, dropping the least recently used audio first", async () => {
    const cache = new MemorySpeechCache(10);
    await cache.set("a", Buffer.alloc(4));
    await cache.set("b", Buffer.alloc(4));
    await cache.get("a");
    await cache.set("c", Buffer.alloc(4));
    expect(await cache.get("a")).toBeDefined();
    expect(await cache.get("b")).toBeUndefined();
    expect(await cache.get("c")).toBeDefined();
  });
});

describe("the voice queue", () => {
  it("speaks answers in order, never interleaving speakers, in 4800-byte chunks of the synthesised PCM", async () => {
    const speech = new FakeSpeech(() => ({ latencyMs: 20 }));
    const { q, events } = queue(speech);

    q.enqueue(grok, 1, LONG);
    q.enqueue(claude, 1, "Claude håller inte med om något av detta, och säger det tydligt.");
    await q.drain();

    const speakers = events.filter((e) => e.event !== "chunk").map((e) => `${e.event}:${e.data.model}`);
    expect(speakers).toEqual(["speaker:Grok", "done:Grok", "speaker:Claude", "done:Claude"]);
    const firstClaude = events.findIndex((e) => e.data.model === "Claude");
    expect(events.slice(firstClaude).every((e) => e.data.model === "Claude")).toBe(true);
    expect(events[0].data).toMatchObject({ voice: "fable", total_sentences: 3, provider: "fake", round: 1, model_key: "call_grok" });
    const grokChunks = events.filter((e) => e.event === "chunk" && e.data.model === "Grok");
    expect(grokChunks.map((c) => c.data.chunk_index)).toEqual(grokChunks.map((_, i) => i));
    const sizes = grokChunks.map((c) => Buffer.from(c.data.pcm_b64, "base64").length);
    expect(sizes.slice(0, -1).every((s) => s === CHUNK_BYTES)).toBe(true);
    expect(sizes.every((s) => s % 2 === 0 && s > 0)).toBe(true);
    expect(grokChunks[0].data).toMatchObject({ sample_rate: 24_000, bit_depth: 16, channels: 1 });
    // The speaker event names its sentences.
    expect(events[0].data.sentences).toEqual(splitSentences(LONG));
    expect(pcmOf(events, "Grok").equals(Buffer.concat(splitSentences(LONG).map((s) => fakePcm(s))))).toBe(true);
    expect(events.find((e) => e.event === "done" && e.data.model === "Grok")!.data).toMatchObject({
      total_bytes: pcmOf(events, "Grok").length,
      total_chunks: grokChunks.length,
    });
  });

  it("speaks each answer's opening with a voice that speaks openings (the local one), the whole answer when the settings say so", async () => {
    const answer = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => `Mening nummer ${n} säger något om saken och går vidare till nästa tanke.`).join(" ");
    const sentences = splitSentences(answer);
    const opening = spokenSentences(sentences, "opening");
    expect(opening.length).toBeGreaterThan(0);
    expect(opening.length).toBeLessThan(sentences.length);
    expect(opening.join(" ").split(/\s+/).length).toBeLessThanOrEqual(OPENING_WORDS);
    // An answer whose first sentence alone is longer is spoken by that sentence.
    expect(spokenSentences(["ett ".repeat(60).trim() + ".", "Två."], "opening")).toHaveLength(1);
    for (const [spoken, expected] of [
      [undefined, opening],
      ["whole", sentences],
    ] as const) {
      const speech = Object.assign(new FakeSpeech(), { speaks: "opening" as const });
      const { emit } = recorder();
      const q = new VoiceQueue({
        synthesizer: speech,
        settings: { ...defaultVoiceSettings(), ...(spoken ? { spoken } : {}) },
        language: "sv",
        cache: new MemorySpeechCache(),
        emit,
        signal: new AbortController().signal,
      });
      q.enqueue(grok, 1, answer);
      await q.drain();
      expect(speech.requests.map((r) => r.text)).toEqual(expected);
    }
    // A speech API speaks whole answers unless the settings say otherwise.
    const api = new FakeSpeech();
    const { q } = queue(api);
    q.enqueue(grok, 1, answer);
    await q.drain();
    expect(api.requests.map((r) => r.text)).toEqual(sentences);
  });

  it("says in each chunk which sentence its audio begins in", async () => {
    // 7000 bytes a sentence: each sentence spans more than one 4800-byte chunk.
    const { q, events } = queue(new FakeSpeech(() => ({ bytes: 7_000 })));
    q.enqueue(grok, 1, LONG);
    await q.drain();
    const chunks = events.filter((e) => e.event === "chunk");
    expect(splitSentences(LONG)).toHaveLength(3);
    // Chunk i begins at byte i·4800; sentence k begins at byte k·7000.
    expect(chunks.map((c) => c.data.sentence_index)).toEqual(chunks.map((_, i) => Math.floor((i * CHUNK_BYTES) / 7_000)));
    expect(new Set(chunks.map((c) => c.data.sentence_index))).toEqual(new Set([0, 1, 2]));
  });

  it("synthesises with bounded parallelism and streams the first sentence before the rest are done", async () => {
    let running = 0;
    let peak = 0;
    const speech = new FakeSpeech(() => ({ latencyMs: 100, bytes: 6_000 }));
    const synthesize = speech.synthesize.bind(speech);
    speech.synthesize = async function* (req) {
      peak = Math.max(peak, ++running);
      try {
        yield* synthesize(req);
      } finally {
        running--;
      }
    };
    const { q, events } = queue(speech, { parallelism: 3 });
    const t0 = performance.now();
    // How many sentences were still being synthesised when the first chunk went out.
    let stillRunningAtFirstChunk: number | undefined;
    const emitChunk = (q as any).options.emit.chunk;
    (q as any).options.emit.chunk = (d: any) => {
      stillRunningAtFirstChunk ??= running;
      emitChunk(d);
    };

    q.enqueue(grok, 1, Array.from({ length: 6 }, (_, i) => `Mening nummer ${i + 1} är tillräckligt lång för att talas ensam.`).join(" "));
    await q.drain();

    expect(peak).toBe(3);
    expect(stillRunningAtFirstChunk).toBeGreaterThan(0);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(200);
    expect(events.filter((e) => e.event === "done")).toHaveLength(1);
  });

  it("reports a failing speaker with debate-voice-error and goes on with the next", async () => {
    const speech = new FakeSpeech((req) => (req.text.startsWith("Andra") ? { error: new Error("speech endpoint down") } : {}));
    const { q, events } = queue(speech);

    q.enqueue(grok, 2, LONG);
    q.enqueue(claude, 2, "Claude talar vidare utan några som helst problem här.");
    await q.drain();

    expect(events.filter((e) => e.event !== "chunk").map((e) => `${e.event}:${e.data.model}`)).toEqual([
      "speaker:Grok",
      "error:Grok",
      "speaker:Claude",
      "done:Claude",
    ]);
    expect(events.find((e) => e.event === "error")!.data).toEqual({ model: "Grok", round: 2, error: "speech endpoint down" });
  });

  it("serves identical sentences from the cache instead of synthesising them again", async () => {
    const cache = new MemorySpeechCache();
    const speech = new FakeSpeech();
    const first = queue(speech, { cache });
    first.q.enqueue(grok, 1, LONG);
    await first.q.drain();
    const calls = speech.requests.length;

    const second = queue(speech, { cache });
    second.q.enqueue(grok, 3, LONG);
    second.q.enqueue(gpt, 3, LONG);
    await second.q.drain();

    expect(calls).toBe(3);
    expect(speech.requests.length).toBe(3 + 3); // ChatGPT's voice differs: its sentences are new
    expect(pcmOf(second.events, "Grok").equals(pcmOf(first.events, "Grok"))).toBe(true);
  });
});

describe("the listener's playback clock", () => {
  // 4800 bytes a sentence: 100 ms of audio each.
  const sentenceMs = 100;

  it("lets a paced debate wait until the last answer handed over starts playing, after the audio before it", async () => {
    // On a virtual clock, where sending the audio takes no time at all.
    const clock = new VirtualClock();
    const { q, events } = queue(new FakeSpeech(() => ({ bytes: CHUNK_BYTES })), { clock });
    q.enqueue(grok, 1, LONG); // three sentences: 300 ms of audio
    await q.untilLastPlaying(60_000);
    // Grok's first sentence plays as soon as it is sent.
    expect(clock.now()).toBe(0);

    q.enqueue(claude, 1, "Claude håller inte med om något av detta, och säger det tydligt.");
    await q.untilLastPlaying(60_000);
    // Claude is heard once Grok's 300 ms have played, however early its audio was sent.
    expect(clock.now()).toBe(3 * sentenceMs);
    // And until all of it has played: Claude's sentence after Grok's three.
    await q.untilAllPlayed(60_000);
    expect(clock.now()).toBe(4 * sentenceMs);
    expect(events.filter((e) => e.event === "done")).toHaveLength(2);
  });

  it("holds no timer for a debate that does not wait on it", async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const before = timers();
    const { q } = queue(new FakeSpeech(() => ({ bytes: 50 * CHUNK_BYTES })));
    q.enqueue(grok, 1, LONG); // 15 s of audio, sent at once
    q.enqueue(claude, 1, LONG);
    await q.drain();
    expect(timers()).toBe(before);
  });

  it("does not hold a debate up for an answer whose speech failed or stalls, and gives way to the run's signal", async () => {
    const failing = queue(new FakeSpeech(() => ({ error: new Error("speech endpoint down") })));
    failing.q.enqueue(grok, 1, LONG);
    await failing.q.untilLastPlaying(60_000);
    expect(failing.events.map((e) => e.event)).toEqual(["speaker", "error"]);

    const slow = queue(new FakeSpeech(() => ({ latencyMs: 5_000 })));
    slow.q.enqueue(grok, 1, LONG);
    const stop = new AbortController();
    setTimeout(() => stop.abort(new Error("cancelled by the person")), 20);
    await expect(slow.q.untilLastPlaying(60_000, stop.signal)).rejects.toThrow("cancelled by the person");

    // Speech that stalls holds a paced debate no longer than it is allowed to wait.
    const stalled = queue(new FakeSpeech(() => ({ latencyMs: 5_000 })));
    stalled.q.enqueue(grok, 1, LONG);
    await stalled.q.untilLastPlaying(100);
    // It gave up on the speech before any of it came (5 s away).
    expect(stalled.events.map((e) => e.event)).toEqual(["speaker"]);
  });
});

describe("/dvoice through the graph", () => {
  const TWO = ["call_grok", "call_claude"];
  async function voiceDebate(message: string, step: (text: string) => SpeechStep = () => ({}), latencyMs = 0) {
    const speech = new FakeSpeech((req) => step(req.text));
    const script = withOverrides((req) =>
      req.phase === "turn" ? { text: `${req.participant!.display} säger i runda ${req.round} att frågan är viktig. Och mer därtill!`, latencyMs } : undefined,
    );
    const { deps } = testDeps({ script });
    deps.speech = () => speech;
    const events = await runEvents(deps, message, { participants: TWO });
    return { events, speech };
  }
  const voiceOrder = (events: ClientEvent[]) => events.filter((e) => e.event === "debate-voice-speaker").map((e) => `${e.data.model}:${e.data.round}`);

  it("speaks every answer in speaking order and ends with done only after the last audio", async () => {
    const { events } = await voiceDebate("/dvoice Bör AI regleras?");

    const spoken = events.filter((e) => e.event === "debate-participant-end").map((e) => `${e.data.model}:${e.data.round}`);
    expect(voiceOrder(events)).toEqual(spoken);
    expect(named(events, "debate-voice-done")).toHaveLength(6);
    const lastVoice = events.map((e) => e.event).lastIndexOf("debate-voice-done");
    expect(lastVoice).toBeLessThan(events.length - 1);
    expect(events.at(-1)!.event).toBe("done");
    for (const e of named(events, "debate-voice-speaker"))
      expect(Object.keys(e).sort()).toEqual(["model", "model_key", "provider", "round", "sentences", "timestamp", "total_sentences", "voice"]);
  });

  it("never makes the text debate wait for slow speech", async () => {
    const { events } = await voiceDebate("/dvoice Bör AI regleras?", () => ({ latencyMs: 150 }), 10);
    const names = events.map((e) => e.event);
    expect(names.indexOf("debate-synthesis-complete")).toBeLessThan(names.lastIndexOf("debate-voice-done"));
    expect(named(events, "debate-voice-done")).toHaveLength(6);
  });

  it("goes on when speech fails for one participant", async () => {
    const { events } = await voiceDebate("/dvoice Bör AI regleras?", (text) =>
      text.startsWith("Grok säger i runda 2") ? { error: new Error("tts 500") } : {},
    );
    expect(named(events, "debate-voice-error")).toEqual([expect.objectContaining({ model: "Grok", round: 2, error: "tts 500" })]);
    expect(named(events, "debate-voice-done")).toHaveLength(5);
    expect(events.map((e) => e.event)).toContain("debate-results");
  });

  /**
   * A /dvoice debate's events, each with when it arrived, and where each answer's audio starts on the
   * listener's clock: a virtual one, on which the text takes no time at all and each sentence's audio
   * plays 100 ms, so times compare exactly however busy the machine.
   */
  async function timedVoiceDebate(message: string, configurable: Record<string, unknown> = {}) {
    const clock = new VirtualClock();
    const { deps } = testDeps({
      script: withOverrides((req) =>
        req.phase === "turn" ? { text: `${req.participant!.display} säger i runda ${req.round} att frågan är viktig.` } : undefined,
      ),
    });
    deps.speech = () => new FakeSpeech(() => ({ bytes: CHUNK_BYTES }));
    deps.playbackClock = clock;
    const timed: { e: ClientEvent; at: number }[] = [];
    for await (const e of streamClientEvents(graphOf(deps), { message, participants: TWO }, { configurable })) timed.push({ e, at: clock.now() });
    // The listener's player: each chunk plays after the one before it, or when it arrives.
    let playedUntil = 0;
    const playsAt = new Map<string, number>();
    for (const { e, at } of timed) {
      if (e.event !== "debate-voice-chunk") continue;
      const start = Math.max(playedUntil, at);
      playedUntil = start + (Buffer.from(e.data.pcm_b64, "base64").length / 48_000) * 1000;
      if (!playsAt.has(`${e.data.model}:${e.data.round}`)) playsAt.set(`${e.data.model}:${e.data.round}`, start);
    }
    const starts = timed
      .filter(({ e }) => e.event === "debate-participant-start")
      .map(({ e, at }) => ({ who: `${(e.data as any).model}:${(e.data as any).round}`, round: (e.data as any).round as number, at }));
    // How long before the previous speaker could be heard each speaker began to write (≤ 0: never early).
    const early = starts.slice(1).map((s, i) => playsAt.get(starts[i].who)! - s.at);
    const voteOpens = timed.find(({ e }) => e.event === "debate-round-start" && e.data.round === 4)!.at;
    return {
      events: timed.map(({ e }) => e),
      early,
      starts,
      playsAt,
      voteOpens,
      lastAudio: playedUntil,
      lastText: timed.filter(({ e }) => e.event === "debate-participant-end").at(-1)!.at,
    };
  }

  it("paced: each speaker writes only once the previous speaker can be heard, so the text keeps pace with the audio", async () => {
    const paced = await timedVoiceDebate("/dvoice Bör AI regleras?", { voice_pacing: "paced" });
    expect(paced.early).toHaveLength(5);
    for (const ms of paced.early) expect(ms).toBeLessThanOrEqual(0);
    expect(named(paced.events, "debate-init")[0]).toMatchObject({ voice_pacing: "paced", word_limits: [300, 500, 500] });
    expect(named(paced.events, "debate-voice-done")).toHaveLength(6);
    // The vote opens once everything has been heard.
    expect(paced.voteOpens).toBeGreaterThanOrEqual(paced.lastAudio);
    // Not paced, the text runs ahead: a speaker writes long before the one before it is heard.
    const ahead = await timedVoiceDebate("/dvoice Bör AI regleras?");
    expect(named(ahead.events, "debate-init")[0]).toMatchObject({ voice_pacing: "off" });
    expect(Math.max(...ahead.early)).toBeGreaterThan(100);
    expect(ahead.lastAudio - ahead.lastText).toBeGreaterThan(paced.lastAudio - paced.lastText + 100);
    expect(ahead.voteOpens).toBeLessThan(ahead.lastAudio - 100);
  });

  it("paces a simultaneous debate round by round, and takes `/dvoice --paced` from the message", async () => {
    const { events, starts, playsAt } = await timedVoiceDebate("/dvoice --paced --order simultaneous Bör AI regleras?");
    expect(named(events, "debate-init")[0]).toMatchObject({ voice_pacing: "paced", order: "simultaneous" });
    // A round's writers start together once every answer of the round before can be heard.
    for (const round of [2, 3]) {
      const heard = Math.max(...[...playsAt].filter(([who]) => who.endsWith(`:${round - 1}`)).map(([, at]) => at));
      const writes = Math.min(...starts.filter((s) => s.round === round).map((s) => s.at));
      expect(writes).toBeGreaterThanOrEqual(heard);
    }
    const { voteOpens, lastAudio } = await timedVoiceDebate("/dvoice --paced --order simultaneous Bör AI regleras?");
    expect(voteOpens).toBeGreaterThanOrEqual(lastAudio);
    expect(named(events, "debate-voice-done")).toHaveLength(6);
  });

  it("asks for the voice settings' word limits in a spoken debate, and the written debate keeps its own", async () => {
    const { deps, models } = testDeps();
    deps.speech = () => new FakeSpeech();
    const values = new MemoryValueStore();
    deps.voiceSettings = new VoiceSettingsStore(values, undefined);
    await deps.voiceSettings.save({ word_limits: { introduction: 60, argument: 90, deepening: 120 }, pacing: "paced" });
    const spoken = await runEvents(deps, "/dvoice Bör AI regleras?", { participants: TWO });
    expect(named(spoken, "debate-init")[0]).toMatchObject({ voice_pacing: "paced", word_limits: [60, 90, 120] });
    const prompts = models.callsOf("turn").map((c) => String(c.messages.at(-1)!.content));
    expect(prompts.filter((p) => p.includes("högst 60 ord"))).toHaveLength(2);
    expect(prompts.filter((p) => p.includes("högst 120 ord"))).toHaveLength(2);
    // The run's own pacing wins over the settings', and so does the message's.
    expect(
      named(await runEvents(deps, "/dvoice Bör AI regleras?", { participants: TWO, configurable: { voice_pacing: "off" } }), "debate-init")[0],
    ).toMatchObject({ voice_pacing: "off" });
    expect(named(await runEvents(deps, "/dvoice --paced off Bör AI regleras?", { participants: TWO }), "debate-init")[0]).toMatchObject({
      voice_pacing: "off",
      topic: "Bör AI regleras?",
    });
    models.calls.length = 0;
    const written = await runEvents(deps, "/debatt Bör AI regleras?", { participants: TWO });
    expect(named(written, "debate-init")[0].word_limits).toBeUndefined();
    expect(
      models
        .callsOf("turn")
        .map((c) => String(c.messages.at(-1)!.content))
        .filter((p) => p.includes("högst 300 ord")),
    ).toHaveLength(2);
  });

  it("without a pacing set, paces a debate whose openings are spoken and not one whose whole answers are", async () => {
    const { deps } = testDeps();
    deps.playbackClock = new VirtualClock();
    deps.voiceSettings = new VoiceSettingsStore(new MemoryValueStore(), undefined);
    const pacing = async () => named(await runEvents(deps, "/dvoice Bör AI regleras?", { participants: TWO }), "debate-init")[0].voice_pacing;
    // A speech API speaks whole answers unless told otherwise: the text runs ahead.
    deps.speech = () => new FakeSpeech(() => ({ bytes: CHUNK_BYTES }));
    expect(await pacing()).toBe("off");
    // The local voice speaks each answer's opening: the text keeps pace with it.
    deps.speech = () => Object.assign(new FakeSpeech(() => ({ bytes: CHUNK_BYTES })), { speaks: new EspeakSpeech().speaks });
    expect(await pacing()).toBe("paced");
    // The settings' spoken part decides for any voice, and their pacing wins over it.
    await deps.voiceSettings.save({ spoken: "whole" });
    expect(await pacing()).toBe("off");
    deps.speech = () => new FakeSpeech(() => ({ bytes: CHUNK_BYTES }));
    await deps.voiceSettings.save({ spoken: "opening" });
    expect(await pacing()).toBe("paced");
    await deps.voiceSettings.save({ spoken: "opening", pacing: "off" });
    expect(await pacing()).toBe("off");
  });

  it("does not speak a /debatt debate", async () => {
    const { events, speech } = await voiceDebate("/debatt Bör AI regleras?");
    expect(events.filter((e) => e.event.startsWith("debate-voice"))).toEqual([]);
    expect(speech.requests).toEqual([]);
  });
});

describe("the OpenAI-compatible speech provider", () => {
  async function speak(reply: Parameters<typeof startFakeSpeech>[0], text = "En mening att tala.") {
    const server = await startFakeSpeech(reply);
    cleanups.push(server.close);
    const tts = new OpenAISpeech({ apiKey: "tts-key", baseUrl: server.baseURL, model: "tts-1-hd", speed: 1.25 });
    const t0 = performance.now();
    const arrivals: number[] = [];
    const parts: Buffer[] = [];
    for await (const chunk of tts.synthesize({ text, voice: "nova", language: "sv", instructions: "Tala svenska.", signal: new AbortController().signal })) {
      arrivals.push(performance.now() - t0);
      parts.push(Buffer.from(chunk));
    }
    return { server, arrivals, pcm: Buffer.concat(parts) };
  }

  it("posts the seed's request and streams the PCM as it arrives", async () => {
    const { server, arrivals, pcm } = await speak(() => ({ bytes: 5_000, writeBytes: 1_000, gapMs: 80 }));
    expect(server.seen[0].path).toBe("/v1/audio/speech");
    expect(server.seen[0].headers.authorization).toBe("Bearer tts-key");
    expect(server.seen[0].body).toEqual({
      model: "tts-1-hd",
      input: "En mening att tala.",
      voice: "nova",
      response_format: "pcm",
      speed: 1.25,
      instructions: "Tala svenska.",
    });
    expect(pcm.equals(fakePcm("En mening att tala.", 5_000))).toBe(true);
    expect(arrivals[0]).toBeLessThan(arrivals.at(-1)! - 200);
  });

  it("fails with the status of a failing endpoint, and on a truncated stream", async () => {
    await expect(speak(() => ({ status: 500 }))).rejects.toThrow(/answered 500/);
    await expect(speak(() => ({ bytes: 20_000, writeBytes: 1_000, gapMs: 5, truncateAfter: 5_000 }))).rejects.toThrow();
  });
});

const espeak = installed("espeak-ng");
if (!espeak) console.warn("voice.test.ts: espeak-ng tests SKIPPED — espeak-ng is not installed (apt-get install -y espeak-ng)");

describe.skipIf(!espeak)(`the local espeak-ng voice${espeak ? "" : " (skipped: espeak-ng is not installed)"}`, () => {
  it("speaks Swedish offline as valid 24 kHz 16-bit mono audio", async () => {
    const parts: Buffer[] = [];
    for await (const c of new EspeakSpeech().synthesize({
      text: "Hej, det här är en debatt om artificiell intelligens.",
      voice: "nova",
      language: "sv",
      signal: new AbortController().signal,
    })) {
      parts.push(Buffer.from(c));
    }
    const pcm = Buffer.concat(parts);
    const wav = new WaveFile(Buffer.concat([wavHeader(pcm.length), pcm]));
    const samples = wav.getSamples(false, Int16Array) as unknown as Int16Array;
    const rms = Math.sqrt(samples.reduce((a, s) => a + s * s, 0) / samples.length);

    expect(wav.fmt).toMatchObject({ sampleRate: 24_000, bitsPerSample: 16, numChannels: 1 });
    expect(samples.length / 24_000).toBeGreaterThan(1.5);
    expect(rms).toBeGreaterThan(300);
  });
});

describe("a missing espeak-ng", () => {
  it("says how to install it", async () => {
    const missing = new EspeakSpeech(1, "espeak-ng-not-installed");
    const run = async () => {
      for await (const _ of missing.synthesize({ text: "x", voice: "nova", language: "sv", signal: new AbortController().signal })) {
        /* nothing arrives */
      }
    };
    await expect(run()).rejects.toThrow("apt-get install espeak-ng");
  });
});
