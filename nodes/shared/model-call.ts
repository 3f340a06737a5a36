import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { AIMessage, BaseMessage, MessageContent } from "@langchain/core/messages";
import { streamsText, type TextSinkOptions } from "../../ports/models.js";
import { endingFailure, notesOf, withoutOpenedThinking, type AnswerNotes } from "../../state/answer.js";
import { BudgetExceededError, DebattError, PROVIDER_ERROR_CODES, type ProviderErrorCode } from "../../state/errors.js";

/** Why a model call did not produce an answer: a provider's own code, or cancelled, or another failure. */
export type ModelFailure = "cancelled" | "model_error" | ProviderErrorCode;

/** A model call that failed, timed out or was cancelled; `code` says which. */
export class ModelCallError extends DebattError {
  declare readonly code: ModelFailure;
  constructor(code: ModelFailure, message: string) {
    super(code, message);
  }
}

/**
 * Runs `fn` with a signal that aborts when the run is cancelled or `ms` pass. It also rejects at
 * the deadline by itself, so a model that ignores its signal cannot hold the debate up.
 */
export async function withTimeout<T>(ms: number, runSignal: AbortSignal | undefined, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const timeout = new AbortController();
  // AbortSignal.any holds no listener on the run's signal, so eight parallel votes add none.
  const signal = runSignal ? AbortSignal.any([runSignal, timeout.signal]) : timeout.signal;
  const failure = () =>
    timeout.signal.aborted ? new ModelCallError("timeout", `timed out after ${ms} ms`) : new ModelCallError("cancelled", "the run was cancelled");
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(failure());
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  const timer = setTimeout(() => timeout.abort(), Math.max(0, ms));
  try {
    return await Promise.race([fn(signal), stop]);
  } catch (err) {
    if (err instanceof ModelCallError || err instanceof BudgetExceededError) throw err;
    if (signal.aborted) throw failure();
    // A provider's own code (a refused key, a missing model…) is kept, with its message.
    const code = DebattError.isInstance(err) && (PROVIDER_ERROR_CODES as readonly string[]).includes(err.code) ? (err.code as ModelFailure) : "model_error";
    throw new ModelCallError(code, (err as Error)?.message ?? String(err));
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}

/** Rethrows a cancelled run's error, or a spent budget's (the run stops); any other failure is the caller's to record. */
export function rethrowIfCancelled(err: unknown): void {
  if ((err instanceof ModelCallError && err.code === "cancelled") || err instanceof BudgetExceededError) throw err;
}

/**
 * Runs one participant's streamed answer under its timeout, handing each piece of text to the
 * coalescer and flushing it at the end. Returns the text, what the answer carries beside it (its
 * reasoning, sources, and how it ended when not whole) and the whole message when the call gives
 * one; or the failure as a message (an empty answer, a refusal or a content filter count as one)
 * with the text streamed before it, which the person has already seen. Only a cancelled run
 * throws, since anything else is this participant's failure alone.
 */
export async function answerOrFailure(
  timeoutMs: number,
  runSignal: AbortSignal | undefined,
  coalescer: { push(delta: string): void; flush(): void },
  call: (signal: AbortSignal, onDelta: (delta: string) => void) => Promise<string | AIMessage>,
): Promise<{ text: string; error?: string; answer?: AIMessage; notes: AnswerNotes }> {
  let streamed = "";
  // A model that ignores its stop may go on streaming after the call has ended: not into this answer.
  let open = true;
  try {
    const result = await withTimeout(timeoutMs, runSignal, (signal) =>
      call(signal, (delta) => {
        if (!open) return;
        streamed += delta;
        coalescer.push(delta);
      }),
    );
    // A whole message also says what the call used (its usage) and carries its notes, for the answer's end event.
    if (typeof result === "string") return result.trim() === "" ? { text: result, error: EMPTY, notes: {} } : { text: result, notes: {} };
    const text = textOf(result.content);
    const { providerMessage, ...notes } = notesOf(result.response_metadata);
    const error = endingFailure(notes.ending, text, providerMessage) ?? (text.trim() === "" ? EMPTY : undefined);
    return { text, answer: result, notes, ...(error === undefined ? {} : { error }) };
  } catch (err) {
    rethrowIfCancelled(err);
    // What streamed is kept, without any thinking it is known to have held.
    return {
      text: withoutOpenedThinking(streamed),
      error: err instanceof ModelCallError && err.code === "timeout" ? `timeout: ${err.message}` : (err as Error).message,
      notes: {},
    };
  } finally {
    open = false;
    coalescer.flush();
  }
}

const EMPTY = "the model returned an empty answer";

/** The text of a message's content, whether a string or a list of content parts. */
export function textOf(content: MessageContent): string {
  if (typeof content === "string") return content;
  return content.map((part) => (typeof part === "string" ? part : part.type === "text" ? String(part.text ?? "") : "")).join("");
}

/**
 * Receives a model call's tokens, for a model that does not take `onText`. A handler that prefers
 * streaming makes `invoke()` stream through the model's own chunk generator, without `stream()`'s
 * per-chunk async-context wrapper (which costs a tracing run tree per chunk). Handlers are
 * awaited, so tokens arrive in order and before `invoke()` returns.
 */
class TokenSink extends BaseCallbackHandler {
  name = "debatt_token_sink";
  readonly lc_prefer_streaming = true;
  constructor(private readonly onToken: (token: string) => void) {
    super();
    this.awaitHandlers = true;
  }
  override handleLLMNewToken(token: string): void {
    if (token) this.onToken(token);
  }
}

/**
 * Streams a model's answer, handing every piece of text to `onDelta`; returns the whole message.
 * The providers' models take `onDelta` as the call's `onText` and hand it each piece directly: no
 * LangChain callback, promise or message per token. Other models stream through a callback.
 */
export async function streamMessage(
  model: Pick<BaseChatModel, "invoke">,
  messages: BaseMessage[],
  signal: AbortSignal,
  onDelta: (delta: string) => void,
): Promise<AIMessage> {
  if (streamsText(model)) {
    const options: TextSinkOptions & { signal: AbortSignal } = { signal, onText: (text) => text && onDelta(text) };
    return model.invoke(messages, options);
  }
  return model.invoke(messages, { signal, callbacks: [new TokenSink(onDelta)] });
}

/** Streams a model's answer, handing every piece of text to `onDelta`; returns the whole text. */
export async function streamText(model: BaseChatModel, messages: BaseMessage[], signal: AbortSignal, onDelta: (delta: string) => void): Promise<string> {
  return textOf((await streamMessage(model, messages, signal, onDelta)).content);
}

/** Asks a model for one whole answer and returns its text. */
export async function invokeText(model: BaseChatModel, messages: BaseMessage[], signal: AbortSignal): Promise<string> {
  const answer = await model.invoke(messages, { signal });
  return textOf(answer.content);
}
