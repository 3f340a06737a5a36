import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";

/**
 * A chat model defined only by its chunk stream (`_streamResponseChunks`): a non-streamed call
 * joins the same chunks, so `invoke` and streaming always give the same answer.
 */
export abstract class ChunkStreamingChatModel extends BaseChatModel {
  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    let text = "";
    for await (const chunk of this._streamResponseChunks(messages, options, runManager)) text += chunk.text;
    return { generations: [{ text, message: new AIMessage(text) }] };
  }
}
