import { z } from "zod";
import { ROUNDS } from "./debate.js";
import { VOICE_PACINGS, type VoicePacing } from "./formats.js";
import { SPOKEN_PARTS, type SpokenPart } from "./voice-opening.js";

// The audio format lives in a module without zod, so the arena page can import it cheaply.
export { CHUNK_BYTES, OPENAI_VOICES, PCM, pcmDurationMs } from "./audio-format.js";
export { OPENING_WORDS, SPOKEN_PARTS, spokenSentences, type SpokenPart } from "./voice-opening.js";
/** Key of the instructions that apply to participants without their own. */
export const DEFAULT_INSTRUCTIONS_KEY = "__default__";

/** The default voice per participant display name. */
export const DEFAULT_VOICE_MAP: Record<string, string> = {
  Grok: "fable",
  Claude: "nova",
  ChatGPT: "echo",
  Gemini: "shimmer",
  DeepSeek: "alloy",
  Perplexity: "onyx",
  Qwen: "fable",
  OneSeek: "nova",
};

/** A word limit of one spoken round: at most 600 words, which the default token budget of an answer (800) holds. */
function wordLimit(round: string) {
  return z
    .number({ error: `word_limits.${round} must be a number` })
    .int(`word_limits.${round} must be a whole number`)
    .min(20, `word_limits.${round} must be at least 20`)
    .max(600, `word_limits.${round} must be at most 600`);
}

/** The speech API a key is sent to when nothing else names one. */
export const DEFAULT_TTS_API_BASE = "https://api.openai.com/v1";

/** Whether two API bases are the same host and path (a trailing slash aside). */
export function sameApiBase(a: string, b: string): boolean {
  return a.replace(/\/+$/, "") === b.replace(/\/+$/, "");
}

/**
 * Voice settings of /dvoice, as admins store them: the speech endpoint, its model and speed, a
 * voice per participant and spoken-language instructions per participant (`__default__` for the
 * rest).
 */
export const VoiceSettingsSchema = z
  .object({
    /** API key of the speech endpoint; empty → TTS_API_KEY (only at TTS_BASE_URL's host), else the local espeak-ng voice. */
    api_key: z.string().max(500, "api_key is longer than 500 characters").default(""),
    /** Base URL of the OpenAI-compatible speech API. */
    api_base: z.url({ protocol: /^https?$/, error: "api_base must be an http(s) URL" }).default(DEFAULT_TTS_API_BASE),
    /** Speech model. */
    model: z.enum(["tts-1", "tts-1-hd"], { error: "model must be tts-1 or tts-1-hd" }).default("tts-1"),
    /** Speaking speed. */
    speed: z.number({ error: "speed must be a number" }).min(0.25, "speed must be at least 0.25").max(4, "speed must be at most 4").default(1),
    /** Voice per participant display name. */
    voice_map: z.record(z.string().min(1), z.string().min(1).max(64)).default(DEFAULT_VOICE_MAP),
    /** How each participant should speak (language, accent), by display name or `__default__`. */
    instructions: z.record(z.string().min(1), z.string().max(2_000)).default({}),
    /**
     * `paced`: a speaker's text is released only once the previous speaker's audio starts playing,
     * so the arena and the sound stay together; `off`: the text runs ahead of the audio. Unset:
     * paced when each answer's opening is spoken, off when whole answers are (see `pacingOf`). A
     * run's `voice_pacing` (or `/dvoice --paced`) wins over it.
     */
    pacing: z.enum(VOICE_PACINGS, { error: "pacing must be off or paced" }).optional(),
    /**
     * What is spoken of each answer: `whole`, or `opening` (its first sentences, about
     * OPENING_WORDS words; the page shows all of it). Unset: the voice's own way, the local voice
     * its opening, a speech API the whole answer.
     */
    spoken: z.enum(SPOKEN_PARTS, { error: "spoken must be whole or opening" }).optional(),
    /** Word limits of a spoken debate's rounds (the written debate keeps its own). */
    word_limits: z
      .object({
        introduction: wordLimit("introduction").default(ROUNDS[0].words),
        argument: wordLimit("argument").default(ROUNDS[1].words),
        deepening: wordLimit("deepening").default(ROUNDS[2].words),
      })
      .strict()
      .default({ introduction: ROUNDS[0].words, argument: ROUNDS[1].words, deepening: ROUNDS[2].words }),
  })
  .strict();
export type VoiceSettings = z.infer<typeof VoiceSettingsSchema>;

/** What a debate speaks of each answer: the settings' choice, else the voice's own (`speaks`), else the whole answer. */
export function spokenPartOf(settings: VoiceSettings, speaks: SpokenPart | undefined): SpokenPart {
  return settings.spoken ?? speaks ?? "whole";
}

/**
 * A spoken debate's pacing: the run's, else the settings', else paced when only each answer's
 * opening is spoken (the text then keeps pace with audio that lasts about as long as it takes to
 * write, so the two end together) and off when whole answers are (paced, a debate would last as
 * long as its speech, over an hour at the default word limits).
 */
export function pacingOf(run: VoicePacing | undefined, settings: VoiceSettings, part: SpokenPart): VoicePacing {
  return run ?? settings.pacing ?? (part === "opening" ? "paced" : "off");
}

/** The word limits of a spoken debate's rounds 1–3, in order. */
export function spokenWordLimits(settings: VoiceSettings): number[] {
  const { introduction, argument, deepening } = settings.word_limits;
  return [introduction, argument, deepening];
}

/** The settings a fresh installation starts from. */
export function defaultVoiceSettings(): VoiceSettings {
  return VoiceSettingsSchema.parse({});
}

/** The voice settings `load` gives, or the defaults when there is none or it fails (`log` hears why). */
export async function voiceSettingsOr(load: (() => Promise<VoiceSettings>) | undefined, log?: (line: string) => void): Promise<VoiceSettings> {
  try {
    return load ? await load() : defaultVoiceSettings();
  } catch (err) {
    log?.(`voice settings unavailable, using the defaults: ${(err as Error).message}`);
    return defaultVoiceSettings();
  }
}

/**
 * The voice of a participant: the admins' choice in the settings' map, then the participant's own
 * (from the roster), then the built-in map's, then `alloy`. A map entry equal to the built-in one
 * is taken as not chosen, so a roster file's voice is heard unless an admin picked another.
 */
export function voiceFor(display: string, settings: VoiceSettings, own?: string): string {
  const mapped = settings.voice_map[display];
  if (own && (mapped === undefined || mapped === DEFAULT_VOICE_MAP[display])) return own;
  return mapped ?? own ?? "alloy";
}

/** The spoken-language instructions of a participant, if any. */
export function instructionsFor(display: string, settings: VoiceSettings): string | undefined {
  return settings.instructions[display] ?? settings.instructions[DEFAULT_INSTRUCTIONS_KEY];
}
