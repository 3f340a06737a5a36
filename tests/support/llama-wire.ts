/**
 * The JSON bodies of llama.cpp's own `llama-server` (tools/server: server-task.cpp's
 * `to_json_oaicompat_chat*`, server-common.cpp's `format_error_response`), built for the test
 * server in `llama-server.ts` so that a client sees the shapes a real llama-server sends.
 */

/** Why generation ended, as llama-server reports it (`tool_calls` is not served here). */
export type FinishReason = "stop" | "length";

/** Token counts, OpenAI's `usage` object. */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** llama-server's `timings` object: prompt processing and generation, in tokens and milliseconds. */
export interface Timings {
  cache_n: number;
  prompt_n: number;
  prompt_ms: number;
  prompt_per_token_ms: number;
  prompt_per_second: number;
  predicted_n: number;
  predicted_ms: number;
  predicted_per_token_ms: number;
  predicted_per_second: number;
}

/** What every chunk and completion of one request shares. */
export interface ResponseIds {
  id: string;
  model: string;
  created: number;
  system_fingerprint: string;
}

/** The error types llama-server answers with, and their HTTP status. */
export const errorTypes = {
  invalid_request_error: 400,
  exceed_context_size_error: 400,
  not_found_error: 404,
  server_error: 500,
} as const;

/** An error type of `errorTypes`. */
export type ErrorType = keyof typeof errorTypes;

/** A llama-server error body: `{ error: { code, message, type, ...extra } }`. */
export function errorBody(type: ErrorType, message: string, extra: Record<string, unknown> = {}) {
  return { error: { code: errorTypes[type], message, type, ...extra } };
}

/** llama-server's answer to a prompt of `promptTokens` that does not fit a context of `contextSize`. */
export function exceedContextBody(promptTokens: number, contextSize: number) {
  return errorBody(
    "exceed_context_size_error",
    `request (${promptTokens} tokens) exceeds the available context size (${contextSize} tokens), try increasing it`,
    { n_prompt_tokens: promptTokens, n_ctx: contextSize },
  );
}

/** A fresh completion id, `chatcmpl-` and 32 letters or digits as llama-server makes them. */
export function completionId(): string {
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  let id = "chatcmpl-";
  for (let i = 0; i < 32; i++) id += alphabet[Math.floor(Math.random() * alphabet.length)];
  return id;
}

/** `usage` from the two counts. */
export function usageOf(promptTokens: number, completionTokens: number): Usage {
  return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
}

/** One `chat.completion.chunk`, in llama-server's key order. */
function chunk(ids: ResponseIds, choices: unknown[], extra: Record<string, unknown> = {}) {
  return { choices, created: ids.created, id: ids.id, model: ids.model, system_fingerprint: ids.system_fingerprint, object: "chat.completion.chunk", ...extra };
}

/** The first chunk of a stream: the role, and a null content. */
export function roleChunk(ids: ResponseIds) {
  return chunk(ids, [{ finish_reason: null, index: 0, delta: { role: "assistant", content: null } }]);
}

/** A chunk carrying generated text. */
export function contentChunk(ids: ResponseIds, content: string) {
  return chunk(ids, [{ finish_reason: null, index: 0, delta: { content } }]);
}

/**
 * The chunks that end a stream: the finish reason with an empty delta, then, when the client asked
 * for `stream_options.include_usage`, the usage with empty choices. The timings ride on the last.
 */
export function finalChunks(ids: ResponseIds, finishReason: FinishReason, usage: Usage, timings: Timings, includeUsage: boolean) {
  const finish = chunk(ids, [{ finish_reason: finishReason, index: 0, delta: {} }]);
  if (!includeUsage) return [{ ...finish, timings }];
  return [finish, chunk(ids, [], { usage, timings })];
}

/** A whole `chat.completion`, the non-streaming answer. */
export function completion(ids: ResponseIds, content: string, finishReason: FinishReason, usage: Usage, timings: Timings) {
  return {
    choices: [{ finish_reason: finishReason, index: 0, message: { role: "assistant", content } }],
    created: ids.created,
    model: ids.model,
    system_fingerprint: ids.system_fingerprint,
    object: "chat.completion",
    usage,
    id: ids.id,
    timings,
  };
}

/** What `/v1/models` lists about one model. */
export interface ModelListing {
  id: string;
  created: number;
  contextSize: number;
  trainContextSize: number;
  bytes: number;
}

/** The `/v1/models` body: OpenAI's list, with llama-server's `meta`. */
export function modelList(models: ModelListing[]) {
  return {
    object: "list",
    data: models.map((m) => ({
      id: m.id,
      object: "model",
      created: m.created,
      owned_by: "llamacpp",
      meta: { n_ctx: m.contextSize, n_ctx_train: m.trainContextSize, size: m.bytes },
    })),
  };
}

/** `timings` from the counts and the milliseconds spent on the prompt and on generation. */
export function timingsOf(promptTokens: number, cachedTokens: number, promptMs: number, predicted: number, predictedMs: number): Timings {
  const evaluated = promptTokens - cachedTokens;
  return {
    cache_n: cachedTokens,
    prompt_n: evaluated,
    prompt_ms: promptMs,
    prompt_per_token_ms: evaluated > 0 ? promptMs / evaluated : 0,
    prompt_per_second: promptMs > 0 ? (1000 * evaluated) / promptMs : 0,
    predicted_n: predicted,
    predicted_ms: predictedMs,
    predicted_per_token_ms: predicted > 0 ? predictedMs / predicted : 0,
    predicted_per_second: predictedMs > 0 ? (1000 * predicted) / predictedMs : 0,
  };
}
