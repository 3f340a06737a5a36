import type { BaseChatModelParams } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import type { ModelFactory, ModelRequest } from "../../ports/models.js";
import { estimateTokens } from "../../state/usage.js";
import { TextStreamChatModel, type Reply } from "../text-stream-model.js";
import type { PhaseTable, SimulatedOptions } from "./context.js";
import { simulatedAnswer } from "./dispatch.js";

/** A chat model that streams `simulatedAnswer` in word-token pieces, at the pace of its options, honouring the abort signal. */
export class SimulatedChatModel extends TextStreamChatModel {
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

  protected async reply(messages: BaseMessage[], signal: AbortSignal | undefined, onText: (text: string) => void): Promise<Reply> {
    const tokens = simulatedAnswer(this.request, messages, this.options, this.answers).match(/\S+\s*/g) ?? [];
    const pieces: string[] = [];
    for (let i = 0; i < tokens.length; i += this.options.chunkTokens) pieces.push(tokens.slice(i, i + this.options.chunkTokens).join(""));
    await pace(pieces, this.options.latencyMs, this.options.chunkDelayMs, signal, onText);
    const text = pieces.join("");
    // As a provider does in its last chunk: what the call used (estimated from the text; no cost).
    const input_tokens = messages.reduce((n, m) => n + estimateTokens(m.text), 0);
    const output_tokens = estimateTokens(text);
    return { text, usage_metadata: { input_tokens, output_tokens, total_tokens: input_tokens + output_tokens } };
  }
}

/**
 * Hands `pieces` to `onText`, the first after `firstMs` and the others `gapMs` apart, as a provider's
 * stream arrives; rejects with the signal's reason as soon as it aborts. One timer per piece and one
 * abort listener per answer: a thousand debates' simulated streams cost little beside the debates.
 */
function pace(pieces: string[], firstMs: number, gapMs: number, signal: AbortSignal | undefined, onText: (text: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    let next = 0;
    let timer: NodeJS.Timeout | undefined;
    // Set by the abort listener: cheaper than asking the signal at every piece.
    let stopped = false;
    const onAbort = () => {
      stopped = true;
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const done = (err?: unknown) => {
      signal?.removeEventListener("abort", onAbort);
      if (err === undefined) resolve();
      else reject(err);
    };
    const step = () => {
      try {
        // Without a pause between pieces, they all go now (as one network read would bring them).
        do onText(pieces[next++]);
        while (gapMs <= 0 && next < pieces.length && !stopped);
      } catch (err) {
        return done(err);
      }
      if (stopped) return;
      if (next < pieces.length) timer = setTimeout(step, gapMs);
      else done();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    if (pieces.length === 0) timer = setTimeout(done, Math.max(0, firstMs));
    else if (firstMs > 0) timer = setTimeout(step, firstMs);
    else step();
  });
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
