import { statSync } from "node:fs";
import {
  getLlama,
  JinjaTemplateChatWrapper,
  LlamaChat,
  resolveChatWrapper,
  type ChatHistoryItem,
  type ChatWrapper,
  type Llama,
  type LlamaContext,
  type LlamaModel,
} from "node-llama-cpp";
import type { Sampling } from "./llama-request.js";
import type { FinishReason } from "./llama-wire.js";

/** How to load the models: ids to .gguf paths, the context size of each, the CPU threads. */
export interface EngineOptions {
  models: Record<string, string>;
  /** Tokens of context per model (prompt and answer together). Defaults to 4096. */
  contextSize?: number;
  /** CPU threads for llama.cpp. Defaults to 1: on a busy 2-core machine more threads spin and slow it down. */
  threads?: number;
}

/** One loaded model: its weights, its single context sequence and the chat template it is prompted with. */
interface Loaded {
  id: string;
  model: LlamaModel;
  context: LlamaContext;
  chat: LlamaChat;
  wrapper: ChatWrapper;
  bytes: number;
  created: number;
}

/** What one generation produced. */
export interface Generation {
  text: string;
  finishReason: FinishReason;
  promptTokens: number;
  /** Tokens sampled, the end-of-generation token included, as llama-server's `n_decoded` counts them. */
  completionTokens: number;
  /** Prompt tokens already in the context from the previous request (llama-server's `cache_n`). */
  cachedTokens: number;
  promptMs: number;
  generationMs: number;
}

/** The one slot's state, as llama-server's `GET /slots` shows it (reduced to what tests wait on). */
export interface SlotState {
  is_processing: boolean;
  /** The model of the generation running now, or else of the last one. */
  model: string | null;
  /** Tokens sampled so far by the generation running now, or else by the last one. */
  n_decoded: number;
}

/**
 * The models behind the test llama server: loaded on the CPU from local files with node-llama-cpp's
 * prebuilt llama.cpp (nothing downloaded or built), prompted through each GGUF's own Jinja chat
 * template. One generation runs at a time across all models (the CPU is the limit); the others wait.
 */
export class LlamaEngine {
  private queue: Promise<void> = Promise.resolve();
  private readonly running = new Set<AbortController>();
  private current: { model: string; meter: () => number } | undefined;
  private last: { model: string | null; decoded: number } = { model: null, decoded: 0 };
  private closing = false;

  private constructor(
    private readonly llama: Llama,
    private readonly loaded: Map<string, Loaded>,
    /** Tokens of context per model. */
    readonly contextSize: number,
  ) {}

  /** Loads every model of `options.models`; rejects (having freed what it loaded) when one fails. */
  static async load(options: EngineOptions): Promise<LlamaEngine> {
    const contextSize = options.contextSize ?? 4096;
    const threads = options.threads ?? 1;
    const llama = await getLlama({ gpu: false, build: "never", maxThreads: threads, skipDownload: true, progressLogs: false });
    const engine = new LlamaEngine(llama, new Map(), contextSize);
    try {
      for (const [id, path] of Object.entries(options.models)) {
        const model = await llama.loadModel({ modelPath: path });
        const context = await model.createContext({ contextSize, sequences: 1, threads });
        const wrapper = chatWrapperOf(model);
        const chat = new LlamaChat({ contextSequence: context.getSequence(), chatWrapper: wrapper });
        engine.loaded.set(id, { id, model, context, chat, wrapper, bytes: statSync(path).size, created: Math.floor(Date.now() / 1000) });
      }
    } catch (error) {
      await engine.dispose();
      throw error;
    }
    return engine;
  }

  /** The loaded models, for `/v1/models`. */
  list(): { id: string; created: number; contextSize: number; trainContextSize: number; bytes: number }[] {
    return [...this.loaded.values()].map((m) => ({
      id: m.id,
      created: m.created,
      contextSize: this.contextSize,
      trainContextSize: m.model.trainContextSize,
      bytes: m.bytes,
    }));
  }

  /** Whether a generation is running, and how far it (or the last one) got. */
  slot(): SlotState {
    if (this.current) return { is_processing: true, model: this.current.model, n_decoded: this.current.meter() };
    return { is_processing: false, model: this.last.model, n_decoded: this.last.decoded };
  }

  /** Whether a model of that id is loaded. */
  has(id: string): boolean {
    return this.loaded.has(id);
  }

  /** The llama.cpp release the prebuilt binary was built from, as llama-server's `system_fingerprint`. */
  fingerprint(): string {
    return `${this.llama.llamaCppRelease.release}-node-llama-cpp`;
  }

  /** How many tokens the history is once the model's chat template renders it (BOS included). */
  promptTokens(id: string, history: ChatHistoryItem[]): number {
    return this.prompt(this.get(id), history).length;
  }

  /**
   * Generates an answer to `history` with model `id` once the generations before it are done,
   * handing each piece of text to `onText`. An abort (a closed connection) stops it, or takes it
   * out of the queue; it then resolves with what was generated so far.
   */
  generate(id: string, history: ChatHistoryItem[], sampling: Sampling, onText: (text: string) => void, signal: AbortSignal): Promise<Generation> {
    const m = this.get(id);
    const run = this.queue.then(() => this.run(m, history, sampling, onText, signal));
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async run(m: Loaded, history: ChatHistoryItem[], sampling: Sampling, onText: (text: string) => void, signal: AbortSignal): Promise<Generation> {
    const prompt = this.prompt(m, history);
    const sequence = m.chat.sequence;
    const cachedTokens = commonPrefix(sequence.contextTokens, prompt);
    const room = this.contextSize - prompt.length - 1;
    const maxTokens = Math.max(1, Math.min(sampling.maxTokens ?? room, room));
    const empty: Generation = { text: "", finishReason: "stop", promptTokens: prompt.length, completionTokens: 0, cachedTokens, promptMs: 0, generationMs: 0 };
    if (signal.aborted || this.closing) return empty;
    if (sampling.maxTokens === 0) return { ...empty, finishReason: "length" };
    const controller = new AbortController();
    const abort = () => controller.abort();
    signal.addEventListener("abort", abort);
    this.running.add(controller);
    const sampledBefore = sequence.tokenMeter.usedOutputTokens;
    const decoded = () => sequence.tokenMeter.usedOutputTokens - sampledBefore;
    this.current = { model: m.id, meter: decoded };
    const started = performance.now();
    let firstToken: number | undefined;
    try {
      const result = await m.chat.generateResponse(history, {
        maxTokens,
        temperature: sampling.temperature,
        topK: sampling.topK,
        topP: sampling.topP,
        minP: sampling.minP,
        seed: sampling.seed,
        repeatPenalty: sampling.repeatPenalty,
        customStopTriggers: sampling.stop.length ? sampling.stop : undefined,
        signal: controller.signal,
        stopOnAbortSignal: true,
        onToken: () => (firstToken ??= performance.now()),
        onTextChunk: (text) => text && onText(text),
      });
      const ended = performance.now();
      return {
        text: result.response,
        finishReason: result.metadata.stopReason === "maxTokens" ? "length" : "stop",
        promptTokens: prompt.length,
        completionTokens: decoded(),
        cachedTokens,
        promptMs: (firstToken ?? ended) - started,
        generationMs: ended - (firstToken ?? ended),
      };
    } catch (error) {
      if (controller.signal.aborted) return empty;
      throw error;
    } finally {
      this.last = { model: m.id, decoded: decoded() };
      this.current = undefined;
      signal.removeEventListener("abort", abort);
      this.running.delete(controller);
    }
  }

  /** Stops every generation (queued ones start no more), waits for the queue to drain, and frees the contexts, the models and llama.cpp. */
  async dispose(): Promise<void> {
    this.closing = true;
    for (const controller of this.running) controller.abort();
    await this.queue;
    for (const m of this.loaded.values()) {
      m.chat.dispose();
      await m.context.dispose();
      await m.model.dispose();
    }
    this.loaded.clear();
    await this.llama.dispose();
  }

  private get(id: string): Loaded {
    const m = this.loaded.get(id);
    if (!m) throw new Error(`model ${id} is not loaded`);
    return m;
  }

  private prompt(m: Loaded, history: ChatHistoryItem[]) {
    return m.wrapper.generateContextState({ chatHistory: history }).contextText.tokenize(m.model.tokenizer);
  }
}

/**
 * The model's own chat template from the GGUF (`tokenizer.chat_template`), rendered by
 * node-llama-cpp's Jinja wrapper as llama-server renders it with --jinja (adjacent messages of one
 * role are not merged). A GGUF without a template (the Gemma 3 270M base conversion has none) gets
 * node-llama-cpp's wrapper for its architecture (for Gemma, Gemma's turn format); llama-server
 * itself would fall back to ChatML there.
 */
function chatWrapperOf(model: LlamaModel): ChatWrapper {
  const template = model.fileInfo.metadata.tokenizer?.chat_template;
  if (typeof template === "string" && template) {
    return new JinjaTemplateChatWrapper({ template, tokenizer: model.tokenizer, joinAdjacentMessagesOfTheSameType: false });
  }
  return resolveChatWrapper(model);
}

/** How many leading tokens two token lists share. */
function commonPrefix(a: readonly unknown[], b: readonly unknown[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}
