import { ChatOpenAI } from "@langchain/openai";
import type { ModelFactory, ModelRequest } from "../ports/models.js";
import type { Settings } from "../state/config.js";

/**
 * Participants behind any OpenAI-compatible endpoint (OpenRouter, vLLM, Ollama, …).
 * Clients are created per factory and reused per (model, token budget); timeouts and cancellation
 * come from the AbortSignal every call carries, retries are explicit (ChatOpenAI defaults to 6).
 */
export class OpenAIModelFactory implements ModelFactory {
  readonly simulated = false;
  private readonly cache = new Map<string, ChatOpenAI>();

  constructor(private readonly settings: Settings) {}

  create(request: ModelRequest): ChatOpenAI {
    const model = request.participant?.model ?? this.settings.oneseekModel;
    const id = `${model}|${request.maxTokens ?? ""}`;
    let chat = this.cache.get(id);
    if (!chat) {
      chat = new ChatOpenAI({
        model,
        apiKey: this.settings.openaiApiKey,
        configuration: this.settings.openaiBaseUrl ? { baseURL: this.settings.openaiBaseUrl } : undefined,
        maxTokens: request.maxTokens,
        maxRetries: this.settings.maxRetries,
        // Streamed calls report what they used (a last chunk with `usage`), as non-streamed ones do.
        streamUsage: true,
      });
      this.cache.set(id, chat);
    }
    return chat;
  }
}
