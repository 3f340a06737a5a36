import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import { readResponse, StreamReader, type StreamedAnswer } from "./stream-reader.js";

/** Where and what a model is called: the endpoint, its key, the model id and its token budget. */
export interface StreamChatModelOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  maxTokens?: number;
}

/** An OpenAI-compatible endpoint's refusal, with what the error mapping reads (see `providerError`). */
export class EndpointError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly code: string | undefined,
    readonly headers: Headers | undefined,
  ) {
    super(message);
  }
}

/**
 * The models (by endpoint and id) whose chat template opens a think block itself, as their last
 * answer showed (only the block's end tag was in its content). Their next answers hold the
 * content back as thinking until that tag, so the thinking is not streamed as the answer; the
 * first answer of such a model shows it until the tag comes.
 */
const templateThinkers = new Set<string>();

const ROLES: Record<string, string> = { system: "system", human: "user", ai: "assistant", developer: "developer" };

/** A message as the chat completions API takes it: its role, and its content as it is (text, or parts with a cache breakpoint). */
function wireMessage(m: BaseMessage): { role: string; content: unknown } {
  return { role: ROLES[m.getType()] ?? "user", content: m.content };
}

/**
 * A chat model of any OpenAI-compatible endpoint that reads its stream with `StreamReader`: in
 * every provider's shape, the answer apart from its reasoning (never in the text, the word count or
 * what others read), its sources, how it ended, and its usage counted once. The text goes to the
 * callbacks' `handleLLMNewToken` as it arrives, without a message built per token; the answer is
 * one message at the end: its text as content, its reasoning, sources and ending in
 * `response_metadata`, its tokens in `usage_metadata` (the provider's cost in
 * `response_metadata.usage.cost`). Models that take tools are not served here.
 */
export class StreamChatModel extends BaseChatModel {
  constructor(private readonly options: StreamChatModelOptions) {
    super({});
  }

  _llmType(): string {
    return "debatt-openai-compatible";
  }

  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    const answer = await this.call(messages, options.signal, (text) => void runManager?.handleLLMNewToken(text));
    return { generations: [messageOf(answer, this.options.model)] };
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    // The tokens go to the callbacks as they come; the answer is one chunk at the end.
    const answer = await this.call(messages, options.signal, (text) => void runManager?.handleLLMNewToken(text));
    yield messageOf(answer, this.options.model);
  }

  /** Sends the request and reads its stream, handing each piece of text to `onText`. */
  private async call(messages: BaseMessage[], signal: AbortSignal | undefined, onText: (text: string) => void): Promise<StreamedAnswer> {
    const { baseUrl, apiKey, model, maxTokens } = this.options;
    const res = await fetch(`${baseUrl.replace(/\/+$/, "")}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({
        model,
        messages: messages.map(wireMessage),
        stream: true,
        stream_options: { include_usage: true },
        ...(maxTokens ? { max_tokens: maxTokens } : {}),
      }),
      signal,
    }).catch((err: Error) => {
      if (err.name === "AbortError" || signal?.aborted) throw err;
      throw new EndpointError(`Connection error. (${(err.cause as Error)?.message ?? err.message})`, undefined, undefined, undefined);
    });
    if (!res.ok) {
      const body = (await res.json().catch(() => undefined)) as { error?: { message?: string; code?: unknown } | string } | undefined;
      const e = typeof body?.error === "object" ? body.error : { message: typeof body?.error === "string" ? body.error : undefined };
      throw new EndpointError(`${res.status} ${e?.message ?? res.statusText}`, res.status, typeof e?.code === "string" ? e.code : undefined, res.headers);
    }
    const key = `${baseUrl}|${model}`;
    const reader = new StreamReader({ text: onText }, templateThinkers.has(key));
    const answer = await readResponse(res, reader, signal);
    // Learnt from its answers: whether the model's chat template opens a think block itself.
    if (answer.templateThinking) templateThinkers.add(key);
    else if (answer.ending !== "failed") templateThinkers.delete(key);
    // An error in the stream, or no stream at all (an HTML page): the provider failed, as a 502 would say.
    if (answer.ending === "failed") throw new EndpointError(answer.message ?? "the stream failed", 502, undefined, undefined);
    return answer;
  }
}

/** The answer as one message chunk: text as content, the rest as metadata, the usage once. */
function messageOf(answer: StreamedAnswer, model: string): ChatGenerationChunk {
  const u = answer.usage;
  const message = new AIMessageChunk({
    content: answer.text,
    response_metadata: {
      model_name: model,
      finish_reason: answer.ending,
      ...(answer.reasoning ? { reasoning: answer.reasoning } : {}),
      ...(answer.sources.length ? { sources: answer.sources } : {}),
      ...(answer.message ? { provider_message: answer.message } : {}),
      ...(u?.cost_usd !== undefined ? { usage: { cost: u.cost_usd } } : {}),
    },
    ...(u
      ? {
          usage_metadata: {
            input_tokens: u.input_tokens,
            output_tokens: u.output_tokens,
            total_tokens: u.input_tokens + u.output_tokens,
            input_token_details: { cache_read: u.cached_tokens },
            output_token_details: { reasoning: u.reasoning_tokens },
          },
        }
      : {}),
  });
  return new ChatGenerationChunk({ text: answer.text, message });
}
