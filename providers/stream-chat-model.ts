import type { IncomingMessage } from "node:http";
import type { BaseMessage } from "@langchain/core/messages";
import { TextStreamChatModel, type Reply } from "./text-stream-model.js";
import { bodyText, post, readStream } from "./http-post.js";
import { StreamReader, type StreamedAnswer, type StreamUsage } from "./stream-reader.js";
import { reasoningFields, RequestShapes } from "./request-shape.js";
import { effortFor, retryRoom, thinkingRoom, type ReasoningEffort } from "../state/reasoning.js";
import { ANSWER_REQUESTS } from "../state/usage.js";

/** Where and what a model is called: the endpoint, its key, the model id and its token budget. */
export interface StreamChatModelOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  maxTokens?: number;
  /** How much it is asked to think (the run's or its roster entry's); absent: low for a model that reasons, else nothing. */
  reasoning?: ReasoningEffort;
  /** What each endpoint and model was learnt to take (shared by a factory's clients); absent: this client's own. */
  shapes?: RequestShapes;
}

/** How often one call is sent again after an endpoint refused one of its parameters (each is learnt once). */
const MAX_RESHAPES = 3;

/** An OpenAI-compatible endpoint's refusal, with what the error mapping reads (see `providerError`). */
export class EndpointError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly code: string | undefined,
    readonly headers: Record<string, string | string[] | undefined> | undefined,
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
 * call's `onText` (or the callbacks) as it arrives, without a message built per token; the answer
 * is one message at the end: its text as content, its reasoning, sources and ending in
 * `response_metadata`, its tokens in `usage_metadata` (the provider's cost in
 * `response_metadata.usage.cost`). Models that take tools are not served here.
 */
export class StreamChatModel extends TextStreamChatModel {
  private readonly shapes: RequestShapes;

  constructor(private readonly options: StreamChatModelOptions) {
    super({});
    this.shapes = options.shapes ?? new RequestShapes();
  }

  _llmType(): string {
    return "debatt-openai-compatible";
  }

  /**
   * The answer, with its effort's thinking room on top of its budget. An answer of a model that
   * thinks, which comes back empty because the thinking used the whole cap, is asked once more with
   * more room; the reply counts both requests and their tokens. A model that does not think is
   * never asked again: its empty answer under the cap is its answer.
   */
  protected async reply(messages: BaseMessage[], signal: AbortSignal | undefined, onText: (text: string) => void): Promise<Reply> {
    const { baseUrl, model, maxTokens, reasoning } = this.options;
    const effort = effortFor(model, undefined, reasoning, this.shapes.reasons(baseUrl, model));
    const first = await this.call(messages, signal, onText, effort, thinkingRoom(effort));
    const thought = Boolean(first.reasoning || first.usage?.reasoning_tokens);
    if (thought) this.shapes.noteReasoning(baseUrl, model);
    const thinks = thought || thinkingRoom(effort) > 0;
    if (maxTokens === undefined || !thinks || first.ending !== "length" || first.text.trim()) return replyOf(first, model);
    let second: StreamedAnswer;
    try {
      second = await this.call(messages, signal, onText, effort, retryRoom(effort));
    } catch (err) {
      // The first request was answered (and paid for): when the second fails, the first stands, empty and cut.
      if (signal?.aborted) throw err;
      return replyOf(first, model);
    }
    return replyOf({ ...second, usage: bothUsages(first.usage, second.usage) }, model, 2);
  }

  /**
   * Sends the request and reads its stream, handing each piece of text to `onText`. A refusal of
   * one of its optional parameters (see RequestShapes) sends it again, written as the endpoint takes it.
   */
  private async call(
    messages: BaseMessage[],
    signal: AbortSignal | undefined,
    onText: (text: string) => void,
    effort: ReasoningEffort | undefined,
    room: number,
  ): Promise<StreamedAnswer> {
    const { baseUrl, apiKey, model, maxTokens } = this.options;
    const url = `${baseUrl.replace(/\/+$/, "")}/chat/completions`;
    const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json", accept: "text/event-stream" };
    const wire = messages.map(wireMessage);
    for (let reshaped = 0; ; reshaped++) {
      // Written anew on each try: a refusal learnt may have dropped a field, the room or part of the budget.
      const fields = this.shapes.fields(baseUrl, model, {
        maxTokens: maxTokens && maxTokens + (this.shapes.takesThinking(baseUrl, model) ? room : 0),
        stream_options: { include_usage: true },
        ...reasoningFields(baseUrl, effort),
      });
      const body = JSON.stringify({ model, messages: wire, stream: true, ...fields });
      const res = await post(url, headers, body, signal).catch((err: Error) => {
        if (signal?.aborted) throw err;
        throw new EndpointError(`Connection error. (${err.message})`, undefined, undefined, undefined);
      });
      const status = res.statusCode ?? 0;
      if (status >= 200 && status < 300) return this.read(res, signal, onText);
      const text = await bodyText(res, signal);
      if (reshaped < MAX_RESHAPES && this.shapes.learn(baseUrl, model, fields, status, text)) continue;
      throw refusal(status, text, res);
    }
  }

  /** Reads a successful response's stream. */
  private async read(res: IncomingMessage, signal: AbortSignal | undefined, onText: (text: string) => void): Promise<StreamedAnswer> {
    const { baseUrl, model } = this.options;
    const key = `${baseUrl}|${model}`;
    const reader = new StreamReader({ text: onText }, templateThinkers.has(key));
    const answer = await readStream(res, reader, signal);
    // Learnt from its answers: whether the model's chat template opens a think block itself.
    if (answer.templateThinking) templateThinkers.add(key);
    else if (answer.ending !== "failed") templateThinkers.delete(key);
    // An error in the stream, or no stream at all (an HTML page): the provider failed, as a 502 would say.
    if (answer.ending === "failed") throw new EndpointError(answer.message ?? "the stream failed", 502, undefined, undefined);
    return answer;
  }
}

/**
 * An endpoint's refusal as the error mapping reads it (`providerError`): its status, its code and
 * its message, from whichever error shape it wrote: OpenAI's `{error: {message, code}}`, a bare
 * `{error: "…"}` (xAI), a validation error whose message is itself an object (Mistral, vLLM), a
 * list of errors (Gemini), or `{detail: "…"}` (Azure AI inference).
 */
function refusal(status: number, text: string, res: IncomingMessage): EndpointError {
  if (status >= 300 && status < 400)
    return new EndpointError(
      `${status} the endpoint redirects to ${redirectTarget(res.headers.location)}: set its base URL to that address`,
      status,
      undefined,
      res.headers,
    );
  const parsed = parseJson(text);
  const top = (Array.isArray(parsed) ? parsed[0] : parsed) as Record<string, unknown> | undefined;
  const error = top && typeof top === "object" ? (top.error ?? top) : undefined;
  const fields = typeof error === "object" && error !== null ? (error as Record<string, unknown>) : { message: error };
  const said = fields.message ?? fields.detail;
  const message = typeof said === "string" ? said : said !== undefined ? JSON.stringify(said) : undefined;
  const code = typeof fields.code === "string" ? fields.code : undefined;
  return new EndpointError(`${status} ${message ?? res.statusMessage ?? ""}`.trim(), status, code, res.headers);
}

/** What two calls used together: every count added, the provider's cost where either gave one. */
function bothUsages(a: StreamUsage | undefined, b: StreamUsage | undefined): StreamUsage | undefined {
  if (!a || !b) return a ?? b;
  const cost = a.cost_usd === undefined && b.cost_usd === undefined ? undefined : (a.cost_usd ?? 0) + (b.cost_usd ?? 0);
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    cached_tokens: a.cached_tokens + b.cached_tokens,
    reasoning_tokens: a.reasoning_tokens + b.reasoning_tokens,
    ...(cost === undefined ? {} : { cost_usd: cost }),
  };
}

/** A JSON body, or undefined when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Where a redirect points, without its query (a key may hide there). */
function redirectTarget(location: string | undefined): string {
  if (!location) return "another address";
  return location.replace(/[?#].*$/, "");
}

/** The answer as debatt's models give it: text as content, the rest as metadata, the usage once (of every request it took). */
function replyOf(answer: StreamedAnswer, model: string, requests = 1): Reply {
  const u = answer.usage;
  return {
    text: answer.text,
    response_metadata: {
      model_name: model,
      ...(requests > 1 ? { [ANSWER_REQUESTS]: requests } : {}),
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
  };
}
