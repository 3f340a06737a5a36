import type { BaseChatModelParams } from "@langchain/core/language_models/chat_models";
import { AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk } from "@langchain/core/outputs";
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import type { ModelFactory, ModelRequest } from "../../ports/models.js";
import { sleep } from "../../state/sleep.js";
import { estimateTokens } from "../../state/usage.js";
import { ChunkStreamingChatModel } from "../chunk-streaming-model.js";
import type { PhaseTable, SimulatedOptions } from "./context.js";
import { simulatedAnswer } from "./dispatch.js";

/** A chat model that streams `simulatedAnswer` in word-token chunks, honouring the abort signal. */
export class SimulatedChatModel extends ChunkStreamingChatModel {
  constructor(
    private readonly request: ModelRequest,
    private readonly options: SimulatedOptions,
    private readonly answers: PhaseTable,
    params: BaseChatModelParams = {},
  ) {
    super(params);
  }

  _llmType(): string {
    return "simulated";
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const text = simulatedAnswer(this.request, messages, this.options, this.answers);
    const tokens = text.match(/\S+\s*/g) ?? [];
    await sleep(this.options.latencyMs, options.signal);
    for (let i = 0; i < tokens.length; i += this.options.chunkTokens) {
      if (i > 0) await sleep(this.options.chunkDelayMs, options.signal);
      if (options.signal?.aborted) throw options.signal.reason;
      const piece = tokens.slice(i, i + this.options.chunkTokens).join("");
      yield new ChatGenerationChunk({ text: piece, message: new AIMessageChunk({ content: piece }) });
      await runManager?.handleLLMNewToken(piece);
    }
    // As a provider does in its last chunk: what the call used (estimated from the text; no cost).
    const input_tokens = messages.reduce((n, m) => n + estimateTokens(m.text), 0);
    const output_tokens = estimateTokens(text);
    yield new ChatGenerationChunk({
      text: "",
      message: new AIMessageChunk({ content: "", usage_metadata: { input_tokens, output_tokens, total_tokens: input_tokens + output_tokens } }),
    });
  }
}

/** The ModelFactory of the offline provider: every phase answered from `answers` (the core phases' and each format's). */
export class SimulatedModelFactory implements ModelFactory {
  readonly simulated = true;
  constructor(
    private readonly options: SimulatedOptions,
    private readonly answers: PhaseTable,
  ) {}
  create(request: ModelRequest): SimulatedChatModel {
    return new SimulatedChatModel(request, this.options, this.answers);
  }
}
