import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { BaseChatModel, type BaseChatModelCallOptions } from "@langchain/core/language_models/chat_models";
import { AIMessage, AIMessageChunk, type BaseMessage, type UsageMetadata } from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import type { TextSinkOptions } from "../ports/models.js";

/** One whole answer: its text, what the call used (as a provider reports it) and what it says beside the text. */
export interface Reply {
  text: string;
  usage_metadata?: UsageMetadata;
  response_metadata?: Record<string, unknown>;
}

/** A chat model's call options, with the text sink (`onText`) debatt streams through. */
export type TextStreamCallOptions = BaseChatModelCallOptions & TextSinkOptions;

/**
 * A chat model whose answer streams as pieces of text, with no LangChain message built per piece.
 * A call with `onText` (what debatt's nodes pass) hands every piece straight to it, past
 * LangChain's callbacks; the answer is one message at the end. Without it, the callbacks hear
 * every piece (`handleLLMNewToken`), so LangGraph's `messages` stream mode and a tracer still see
 * the answer grow, and `.stream()` yields the answer as one chunk at the end. `invoke` and
 * streaming always give the same answer and the same usage.
 */
export abstract class TextStreamChatModel extends BaseChatModel<TextStreamCallOptions> {
  /** Marks a model that honours `onText` (see `streamsText` in ports/models.ts). */
  readonly streamsText = true;

  /** Makes the call, handing each piece of the answer's text to `onText` as it comes; resolves with the whole answer. */
  protected abstract reply(messages: BaseMessage[], signal: AbortSignal | undefined, onText: (text: string) => void): Promise<Reply>;

  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    const onText = options.onText ?? ((text: string) => void runManager?.handleLLMNewToken(text));
    const reply = await this.reply(messages, options.signal, onText);
    const message = new AIMessage({ content: reply.text, usage_metadata: reply.usage_metadata, response_metadata: reply.response_metadata ?? {} });
    return { generations: [{ text: reply.text, message }] };
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const onText = (text: string) => {
      options.onText?.(text);
      void runManager?.handleLLMNewToken(text);
    };
    const reply = await this.reply(messages, options.signal, onText);
    const message = new AIMessageChunk({ content: reply.text, usage_metadata: reply.usage_metadata, response_metadata: reply.response_metadata ?? {} });
    yield new ChatGenerationChunk({ text: reply.text, message });
  }
}
