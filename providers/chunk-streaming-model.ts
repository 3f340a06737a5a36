import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";

/**
 * A chat model defined only by its chunk stream (`_streamResponseChunks`): a non-streamed call
 * joins the same chunks, so `invoke` and streaming always give the same answer, and the same
 * usage (a chunk's `usage_metadata`, as a provider reports it in its last chunk).
 */
export abstract class ChunkStreamingChatModel extends BaseChatModel {
  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    let text = "";
    let joined: AIMessageChunk | undefined;
    for await (const chunk of this._streamResponseChunks(messages, options, runManager)) {
      text += chunk.text;
      joined = joined ? joined.concat(chunk.message as AIMessageChunk) : (chunk.message as AIMessageChunk);
    }
    const message = new AIMessage({ content: text, usage_metadata: joined?.usage_metadata, response_metadata: joined?.response_metadata ?? {} });
    return { generations: [{ text, message }] };
  }
}
