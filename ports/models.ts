import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { FormatId, FORMATS } from "../state/formats.js";
import type { Participant } from "../state/participants.js";
import type { ReasoningEffort } from "../state/reasoning.js";
import type { SpokenPart } from "../state/voice.js";

/** What a model is asked to do outside a format's own phases. */
export type CorePhase =
  /** The chat's supervisor (plain chat, with tools). */
  | "supervisor"
  /** A follow-up to one participant of a finished run, which goes on from what it said there. */
  | "continue"
  /** Outside a run: a chat client's housekeeping chore (a title, tags, follow-ups…). */
  | "client_task"
  /** Outside a run: a run's answer written as the JSON its OpenAI-compatible client asked for. */
  | "json_result";

/**
 * What a model is asked to do: a format's phase (its row's `phases` in state/formats/) or a core
 * one. Fakes and the simulated provider key their behaviour on it.
 */
export type ModelPhase = CorePhase | (typeof FORMATS)[FormatId]["phases"][number];

/** A request for a chat model. */
export interface ModelRequest {
  phase: ModelPhase;
  /** The participant who speaks or votes; absent for the internal model's own tasks. */
  participant?: Participant;
  /** Round 1–4 for turns and votes. */
  round?: number;
  /** The debate topic (or the chat message), e.g. for the simulated provider's language. */
  topic?: string;
  /** Display names (vote) or labels (ballot, tiebreaker) a voter may choose from. */
  candidates?: string[];
  /** Token budget of the answer (its thinking room comes on top, see state/reasoning.ts). */
  maxTokens?: number;
  /** The run's reasoning effort, which wins over the participant's own. */
  reasoning?: ReasoningEffort;
}

/** A streamed call's options as debatt passes them: where each piece of the answer's text goes as it arrives. */
export interface TextSinkOptions {
  onText?: (text: string) => void;
}

/**
 * Whether a chat model hands its streamed text to a call's `onText` itself (the providers' models
 * do): each piece then goes straight to the node, with no LangChain callback or message per
 * piece. Other models are streamed through a callback.
 */
export function streamsText(model: object): boolean {
  return (model as { streamsText?: unknown }).streamsText === true;
}

/**
 * Gives nodes their chat models. Injected into the graph (never a module-level instance), so tests
 * pass scripted fakes and the product passes the OpenAI-compatible or the simulated provider.
 */
export interface ModelFactory {
  /** True when no real provider is configured and answers are simulated offline. */
  readonly simulated: boolean;
  /** A chat model for the request; participant models for turns and votes, the internal one otherwise. */
  create(request: ModelRequest): BaseChatModel;
}

/** One web-search hit, already trimmed. */
export interface SearchResult {
  title: string;
  url: string;
  content: string;
}

/** How much of the web a model is shown per query: at most 3 results of 300 characters each. */
export const SEARCH_LIMITS = { maxResults: 3, maxChars: 300 } as const;
/** How long one search may take. */
export const SEARCH_TIMEOUT_MS = 15_000;

/** Web search (Tavily) as the graph uses it. */
export interface SearchClient {
  search(query: string, options: { maxResults: number; maxChars: number; signal?: AbortSignal }): Promise<SearchResult[]>;
}

/** One request for speech: the text of one sentence, spoken by one voice. */
export interface SpeechRequest {
  text: string;
  voice: string;
  /** How to speak it (language, accent), for providers that take instructions. */
  instructions?: string;
  /** The topic's language (`sv`/`en`), for providers that need a language voice. */
  language: "sv" | "en";
  signal: AbortSignal;
}

/**
 * Text-to-speech as the voice pipeline uses it. `synthesize` streams raw PCM in the format of
 * `PCM` (state/voice.ts): 24 kHz, 16-bit signed little-endian, mono, in chunks of any size.
 */
export interface SpeechSynthesizer {
  /** Provider name for events and the cache key, e.g. `openai` or `espeak-ng`. */
  readonly provider: string;
  /** Model name for the cache key (`tts-1`, or the local engine). */
  readonly model: string;
  /** Speaking speed for the cache key. */
  readonly speed: number;
  /**
   * What it speaks of each answer unless the voice settings say (`spoken`): the whole answer, or
   * its opening (the local voice, whose speech of whole answers would run on long after the text).
   */
  readonly speaks?: SpokenPart;
  synthesize(request: SpeechRequest): AsyncIterable<Uint8Array>;
}

/** Audio already synthesised, by a key of (provider, model, voice, speed, instructions, text). */
export interface SpeechCache {
  get(key: string): Promise<Buffer | undefined>;
  set(key: string, pcm: Buffer): Promise<void>;
}

/** Speech-to-text: a recorded question's audio to its text. */
export interface Transcriber {
  /** The text of `audio` (its media type as recorded, e.g. `audio/webm`). */
  transcribe(audio: Buffer, mediaType: string, signal: AbortSignal): Promise<string>;
}
