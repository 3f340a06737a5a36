import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { StreamChatModel } from "./stream-chat-model.js";
import { nearestModel } from "./nearest-model.js";
import { PHASE_OUTPUT_CAPS } from "./output-caps.js";
import { RequestShapes } from "./request-shape.js";
import type { ModelFactory, ModelPhase, ModelRequest, TextSinkOptions } from "../ports/models.js";
import { ANSWERED_BY } from "../state/usage.js";
import type { Settings } from "../state/config.js";
import { DebattError, withoutAddresses, type ProviderErrorCode } from "../state/errors.js";
import type { Participant } from "../state/participants.js";
import { effortFor, thinkingRoom, type ReasoningEffort } from "../state/reasoning.js";
import { sleep } from "../state/sleep.js";

/** Where a model is called: the endpoint, the key, and the variable the key came from (for messages). */
export interface Endpoint {
  baseUrl: string;
  apiKey: string;
  keyVar: string;
}

/** An endpoint's URL fit for a message or an answer: without credentials, query or fragment (a key may hide there). */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, "")}`;
  } catch {
    return "(the configured endpoint)";
  }
}

/** OpenAI's own API: the endpoint when none is configured. */
const OPENAI_API = "https://api.openai.com/v1";

/** The tasks whose failure FALLBACK_MODEL stands in for: the final texts and the chairman. */
const FALLBACK_PHASES: ReadonlySet<ModelPhase> = new Set(["synthesis", "deep_synthesis", "council_report", "tiebreaker"]);

/** The longest Retry-After a rate-limited call waits for (the call's own timeout still bounds it). */
const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Where a model is called. A roster participant: at its own `baseUrl` with its own `apiKeyEnv`,
 * else at OPENAI_BASE_URL with OPENAI_API_KEY (OneSeek, whose model is the internal model's, at
 * ONESEEK_*). The internal model's own tasks, and a participant the roster does not have that
 * runs the internal model (the default /vote chairman): at ONESEEK_BASE_URL with ONESEEK_API_KEY,
 * else the global ones. A model a request names through ALLOWED_MODELS: the global endpoint.
 */
export function endpointOf(settings: Settings, participant: Participant | undefined): Endpoint {
  const own = participant && settings.roster.find((p) => p.key === participant.key);
  const internal = {
    baseUrl: settings.oneseekBaseUrl ?? settings.openaiBaseUrl ?? OPENAI_API,
    apiKey: settings.oneseekApiKey ?? settings.openaiApiKey ?? "",
    keyVar: settings.oneseekApiKey ? "ONESEEK_API_KEY" : "OPENAI_API_KEY",
  };
  if (own?.baseUrl || own?.apiKeyEnv) {
    const apiKey = own.apiKeyEnv ? settings.providerKeys[own.apiKeyEnv] : settings.openaiApiKey;
    return { baseUrl: own.baseUrl ?? settings.openaiBaseUrl ?? OPENAI_API, apiKey: apiKey ?? "", keyVar: own.apiKeyEnv ?? "OPENAI_API_KEY" };
  }
  if (!participant || (own ? own.oneseek : participant.model === settings.oneseekModel)) return internal;
  return { baseUrl: settings.openaiBaseUrl ?? OPENAI_API, apiKey: settings.openaiApiKey ?? "", keyVar: "OPENAI_API_KEY" };
}

/**
 * A provider's refusal or failure, with a code and a message that says what to do about it. The
 * message goes to the run's reader, so it names the model but not the endpoint or the key's
 * variable: `where` says those, for the operator's log.
 */
export class ProviderError extends DebattError {
  /** The endpoint and the key's variable, for the log. */
  where = "";
}

/** What an error from the OpenAI client carries. */
interface ClientError {
  status?: number;
  name?: string;
  message?: string;
  code?: string;
  headers?: Headers | Record<string, string>;
}

/** A response header of a client error, whichever shape its headers have. */
function headerOf(err: ClientError, name: string): string | undefined {
  const h = err.headers;
  if (!h) return undefined;
  return typeof (h as Headers).get === "function" ? ((h as Headers).get(name) ?? undefined) : (h as Record<string, string>)[name];
}

/** How long a rate-limited provider asks to wait (`retry-after-ms`, or `retry-after` in seconds or as a date), in ms. */
export function retryAfterMs(err: ClientError): number | undefined {
  const ms = Number(headerOf(err, "retry-after-ms"));
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headerOf(err, "retry-after");
  if (raw === undefined) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * A provider's error as a code and a message a person can act on: which model id, and what to do;
 * `where` names the endpoint and the key's variable for the operator's log (see ProviderError).
 * Aborts and errors that are not the provider's are returned as they are.
 */
export function providerError(err: unknown, model: string, endpoint: Endpoint): unknown {
  const e = (err ?? {}) as ClientError;
  if (e.name === "AbortError" || DebattError.isInstance(err)) return err;
  // The provider's own words may name an address (a connection refused): not for the reader.
  const detail = e.message ? `: ${withoutAddresses(e.message, "(the endpoint)").slice(0, 300)}` : "";
  const make = (code: ProviderErrorCode, text: string) => {
    const failure = new ProviderError(code, `${text} (${code}${e.status ? `, HTTP ${e.status}` : ""})`, { cause: err });
    failure.where = `${shownUrl(endpoint.baseUrl)}, key ${endpoint.keyVar}`;
    return failure;
  };
  if (e.name === "TimeoutError") return make("timeout", `the model provider did not answer in time for ${model}`);
  if (
    e.name === "ContextOverflowError" ||
    e.code === "context_length_exceeded" ||
    (e.status === 400 && /context (length|window)|maximum context|too many tokens/i.test(e.message ?? ""))
  ) {
    return make(
      "context_too_long",
      `the prompt is longer than ${model} takes; lower context_chars or max_response_tokens, or pick a model with a longer context`,
    );
  }
  if (e.status === 401 || e.status === 403)
    return make("auth_failed", `the model provider refused the key for ${model}; the server's log names the endpoint and the key's variable to check`);
  // OpenAI answers an account out of credit with 429 insufficient_quota: no wait will help.
  if (e.status === 402 || (e.status === 429 && e.code === "insufficient_quota"))
    return make("insufficient_credits", `the account behind the key for ${model} has no credits left; add credits, or use another key`);
  // OpenRouter answers an unknown id with 400 "<id> is not a valid model ID", OpenAI with 404.
  if (e.status === 404 || (e.status === 400 && /not a valid model id|model .{0,200} does not exist/i.test(e.message ?? "")))
    return make(
      "model_not_found",
      `the model ${model} does not exist at its provider (a retired or misspelt id?); check the roster's model ids against the endpoint's model list`,
    );
  if (e.status === 429) return make("rate_limited", `the model provider is rate-limiting the key for ${model}${detail}`);
  // The OpenAI client's APIConnectionError reaches us named "Error", saying "Connection error.".
  const unreachable =
    e.name === "APIConnectionError" ||
    err?.constructor?.name === "APIConnectionError" ||
    /ECONNREFUSED|ENOTFOUND|fetch failed|socket|connection error/i.test(e.message ?? "");
  if (e.status !== undefined || unreachable) {
    return make("provider_error", `the model provider failed for ${model}${detail}`);
  }
  return err;
}

/** A call's options, as far as guarding it goes: its signal, and where its text streams (`onText`, or a callback). */
interface CallOptions extends TextSinkOptions {
  signal?: AbortSignal;
  callbacks?: unknown[];
}

/** Anthropic's models, as OpenRouter names them (`anthropic/claude-…`), or any id naming Claude. */
const ANTHROPIC = /^anthropic\/|claude/i;

/**
 * The messages of a call to `model` with a prompt-cache breakpoint where the provider needs one:
 * Anthropic's models (behind OpenRouter, which passes `cache_control` on) cache a prompt prefix
 * only up to a marked block, so the last message is marked, and the next call of the same
 * conversation, which begins with all of this one, reads it from the cache. Other providers cache
 * a repeated prefix by themselves; their messages are left as they are.
 */
export function withCacheBreakpoint(model: string, input: unknown): unknown {
  if (!ANTHROPIC.test(model) || !Array.isArray(input) || input.length === 0) return input;
  const last = input.at(-1) as BaseMessage;
  if (!HumanMessage.isInstance(last) || typeof last.content !== "string") return input;
  const marked = new HumanMessage({ content: [{ type: "text", text: last.content, cache_control: { type: "ephemeral" } }] });
  return [...input.slice(0, -1), marked];
}

/** A call: the model's `invoke`, with its input and options. */
type Invoke = (input: unknown, options?: CallOptions) => Promise<unknown>;

/** The model another model stands in for a failed call with: its client and its name. */
interface Fallback {
  model: object;
  name: string;
  endpoint: Endpoint;
}

/**
 * Notes whether a call has streamed any text. Awaited, like the token sink, so the note is taken
 * before the next chunk is read: LangChain runs a handler that is not awaited later, from a queue,
 * and a failure right after the first tokens could then still be retried.
 */
class StreamWatch extends BaseCallbackHandler {
  name = "debatt_stream_watch";
  streamed = false;
  constructor() {
    super();
    this.awaitHandlers = true;
  }
  override handleLLMNewToken(): void {
    this.streamed = true;
  }
}

/**
 * `model` whose calls (also of its `bindTools` result) fail with ProviderError's codes, retry a
 * failed HTTP answer (a 429 after its Retry-After, a 5xx after a second or two), and, for the
 * final texts and the chairman, try `fallback` when the model fails. Neither happens once text has
 * streamed: it has been shown, and a second answer would follow the first's beginning.
 */
function guarded<T extends object>(model: T, name: string, endpoint: Endpoint, retries: number, log: (line: string) => void, fallback?: () => Fallback): T {
  return new Proxy(model, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop === "invoke") {
        return async (input: unknown, options: CallOptions = {}) => {
          // Whether text has streamed: noted as `onText` hands it on, or by a callback for a model without it.
          const { onText } = options;
          const watch = onText ? { streamed: false } : new StreamWatch();
          const watched = onText
            ? { ...options, onText: (text: string) => ((watch.streamed = true), onText(text)) }
            : { ...options, callbacks: [...(options.callbacks ?? []), watch as StreamWatch] };
          const call = (target as unknown as { invoke: Invoke }).invoke.bind(target);
          const marked = withCacheBreakpoint(name, input);
          for (let attempt = 0; ; attempt++) {
            try {
              return await call(marked, watched);
            } catch (raw) {
              const err = providerError(raw, name, endpoint);
              const status = (raw as ClientError).status;
              const retryable = (status === 429 && (raw as ClientError).code !== "insufficient_quota") || (status !== undefined && status >= 500);
              if (retryable && !watch.streamed && attempt < retries && !options.signal?.aborted) {
                const wait = status === 429 ? Math.min(retryAfterMs(raw as ClientError) ?? 1000, MAX_RETRY_AFTER_MS) : 1000 * 2 ** attempt;
                await sleep(wait, options.signal);
                continue;
              }
              // The operator learns where it failed; the reader, what failed.
              if (ProviderError.isInstance(err)) log(`model call failed: ${err.message} [${(err as ProviderError).where}]`);
              if (!fallback || watch.streamed || !ProviderError.isInstance(err) || options.signal?.aborted) throw err;
              const other = fallback();
              try {
                const stand = guarded(other.model, other.name, other.endpoint, retries, log) as { invoke: Invoke };
                const answer = (await stand.invoke(input, options)) as { response_metadata?: Record<string, unknown> };
                answer.response_metadata = { ...answer.response_metadata, [ANSWERED_BY]: other.name };
                return answer;
              } catch (second) {
                if (!ProviderError.isInstance(second)) throw second;
                throw new ProviderError(second.code, `${err.message}; the fallback model ${other.name} failed too: ${second.message}`, { cause: second });
              }
            }
          }
        };
      }
      if (prop === "bindTools" && typeof value === "function")
        return (...args: unknown[]) => guarded(value.apply(target, args) as object, name, endpoint, retries, log, fallback);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * Participants behind any OpenAI-compatible endpoint (OpenRouter, OpenAI, vLLM, Ollama, …), each
 * at its own endpoint with its own key where the roster says so. Clients are created per factory
 * and reused per (endpoint, model, token budget); timeouts and cancellation come from the
 * AbortSignal every call carries. Retries are debatt's own (see `guarded`): the OpenAI client's
 * would ignore Retry-After and could repeat text already shown.
 */
export class OpenAIModelFactory implements ModelFactory {
  readonly simulated = false;
  private readonly cache = new Map<string, BaseChatModel>();
  /** What each endpoint and model was learnt to take, shared by this factory's clients. */
  private readonly shapes = new RequestShapes();

  constructor(
    private readonly settings: Settings,
    /** Where a failed call's endpoint is named: the operator's log, never a client's event. */
    private readonly log: (line: string) => void = (line) => console.error(`[debatt] ${line}`),
  ) {}

  create(request: ModelRequest): BaseChatModel {
    const model = request.participant?.model ?? this.settings.oneseekModel;
    const endpoint = endpointOf(this.settings, request.participant);
    const { fallbackModel } = this.settings;
    // The supervisor calls tools (web search); every other phase wants text, read in every provider's shape.
    const tools = request.phase === "supervisor";
    const fallback =
      fallbackModel && FALLBACK_PHASES.has(request.phase) && fallbackModel !== model
        ? () => {
            const endpoint = endpointOf(this.settings, undefined);
            return {
              model: this.client(fallbackModel, endpoint, request.maxTokens ?? PHASE_OUTPUT_CAPS[request.phase], tools, request.reasoning),
              name: fallbackModel,
              endpoint,
            };
          }
        : undefined;
    const reasoning = request.reasoning ?? request.participant?.reasoning;
    const maxTokens = request.maxTokens ?? PHASE_OUTPUT_CAPS[request.phase];
    return guarded(this.client(model, endpoint, maxTokens, tools, reasoning), model, endpoint, this.settings.maxRetries, this.log, fallback);
  }

  /**
   * The client of a model at an endpoint, made once and reused: `StreamChatModel`, which reads
   * every provider's stream shape (reasoning apart, usage once), or for a phase that calls tools
   * LangChain's `ChatOpenAI`.
   */
  private client(model: string, endpoint: Endpoint, maxTokens: number | undefined, tools: boolean, reasoning?: ReasoningEffort): BaseChatModel {
    const id = `${endpoint.baseUrl}|${endpoint.keyVar}|${model}|${maxTokens ?? ""}|${tools}|${reasoning ?? ""}`;
    let chat = this.cache.get(id);
    if (!chat && !tools) {
      chat = new StreamChatModel({ baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey, model, maxTokens, reasoning, shapes: this.shapes });
      this.cache.set(id, chat);
    }
    if (!chat) {
      // The tools' path: LangChain's client, with the same thinking room (it sends the effort only to OpenAI's reasoning models).
      const effort = effortFor(model, undefined, reasoning, this.shapes.reasons(endpoint.baseUrl, model));
      chat = new ChatOpenAI({
        model,
        apiKey: endpoint.apiKey,
        configuration: { baseURL: endpoint.baseUrl },
        maxTokens: maxTokens && maxTokens + thinkingRoom(effort),
        ...(effort && effort !== "off" ? { reasoning: { effort } } : {}),
        maxRetries: 0,
        // Streamed calls report what they used (a last chunk with `usage`), as non-streamed ones do.
        streamUsage: true,
      });
      this.cache.set(id, chat);
    }
    return chat;
  }
}

/** What one endpoint says of the models configured at it. */
export interface EndpointHealth {
  base_url: string;
  /** The variable its key comes from (never the key). */
  key_var: string;
  /** `ok`: it listed its models; `no_model_list`: it answered, but serves no list; `auth_failed`: it refused the key; `unreachable`: no answer. */
  status: "ok" | "no_model_list" | "auth_failed" | "unreachable";
  /** The model ids configured at this endpoint (participants, the internal model, FALLBACK_MODEL). */
  models: string[];
  /** Those of them its list does not have (only with `ok`). */
  missing: string[];
  /** For each missing id, the listed id of the same vendor nearest to it (its successor, or what was meant). */
  nearest: Record<string, string>;
  error?: string;
}

/**
 * Asks every configured endpoint for its model list (`GET <baseUrl>/models`) and compares it with
 * the model ids configured at it, so that a retired or misspelt id is named before a run fails on it.
 */
export async function checkEndpoints(settings: Settings, timeoutMs = 5_000): Promise<EndpointHealth[]> {
  const byEndpoint = new Map<string, { endpoint: Endpoint; models: Set<string> }>();
  const add = (endpoint: Endpoint, model: string) => {
    const id = `${endpoint.baseUrl}|${endpoint.keyVar}`;
    const entry = byEndpoint.get(id) ?? { endpoint, models: new Set<string>() };
    entry.models.add(model);
    byEndpoint.set(id, entry);
  };
  for (const p of settings.roster) add(endpointOf(settings, p), p.model);
  add(endpointOf(settings, undefined), settings.oneseekModel);
  if (settings.fallbackModel) add(endpointOf(settings, undefined), settings.fallbackModel);
  return Promise.all(
    [...byEndpoint.values()].map(async ({ endpoint, models }): Promise<EndpointHealth> => {
      const base = {
        base_url: shownUrl(endpoint.baseUrl),
        key_var: endpoint.keyVar,
        models: [...models],
        missing: [] as string[],
        nearest: {} as Record<string, string>,
      };
      try {
        const res = await fetch(`${endpoint.baseUrl.replace(/\/+$/, "")}/models`, {
          headers: { authorization: `Bearer ${endpoint.apiKey}` },
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (res.status === 401 || res.status === 403)
          return { ...base, status: "auth_failed", error: `HTTP ${res.status}: the endpoint refused the key in ${endpoint.keyVar}` };
        const body = (await res.json().catch(() => undefined)) as { data?: { id?: unknown }[] } | undefined;
        if (!res.ok || !Array.isArray(body?.data)) return { ...base, status: "no_model_list" };
        const listed = new Set(body.data.map((m) => String(m.id)));
        const missing = base.models.filter((m) => !listed.has(m));
        const nearest = Object.fromEntries(missing.flatMap((m) => ((n) => (n ? [[m, n]] : []))(nearestModel(m, listed))));
        return { ...base, status: "ok", missing, nearest };
      } catch (err) {
        return { ...base, status: "unreachable", error: (err as Error).message };
      }
    }),
  );
}
