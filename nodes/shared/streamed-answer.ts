import { HumanMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { ModelPhase } from "../../ports/models.js";
import type { NodeDeps, RunContext } from "../../ports/node-deps.js";
import type { DeliberationMode } from "../../state/formats.js";
import { DeltaCoalescer } from "./delta-coalescer.js";
import type { AIMessage } from "@langchain/core/messages";
import { answerOrFailure, streamMessage } from "./model-call.js";
import { usageOfAnswer, type Usage } from "../../state/usage.js";
import { notesFields, type AnswerNotes } from "../../state/answer.js";
import type { CollectedAnswer } from "../../state/deliberation.js";
import type { Participant } from "../../state/participants.js";

/** One model call of a deliberation format whose text streams to clients as `answer_delta`. */
export interface StreamedAnswer {
  mode: DeliberationMode;
  /** `answer_delta`'s stage, e.g. `collect`, `vote` or `synthesis`. */
  stage: string;
  /** Who writes it, as the events name them. */
  who: { model: string; display: string; modelKey: string };
  timeoutMs: number;
  /** Makes the call, handing each piece of text to `onDelta`; resolves with the whole message (or its text). */
  call: (signal: AbortSignal, onDelta: (delta: string) => void) => Promise<string | AIMessage>;
}

/**
 * Runs a deliberation format's model call under its timeout, streaming its text as coalesced
 * `answer_delta` events and telling its end (`answer_end`). Returns the text, what it carries beside it (reasoning, sources, a cut
 * ending) and what the call used (when the provider said), or the failure with what streamed
 * before it (only a cancelled run throws).
 */
export async function streamAnswer(ctx: RunContext, config: LangGraphRunnableConfig, a: StreamedAnswer): Promise<StreamedResult> {
  const coalescer = new DeltaCoalescer((delta) => emit(config, "answer_delta", { mode: a.mode, stage: a.stage, ...a.who, delta }), ctx.coalesceMs);
  const started = performance.now();
  const { text, error, answer, notes } = await answerOrFailure(a.timeoutMs, config.signal, coalescer, a.call);
  const responseTimeMs = Math.round(performance.now() - started);
  emit(config, "answer_end", {
    mode: a.mode,
    stage: a.stage,
    ...a.who,
    status: error === undefined ? "ok" : "error",
    ...(error === undefined ? {} : { error }),
    responseTimeMs,
  });
  const usage = answer && usageOfAnswer(a.who.model, answer, ctx.prices);
  return { text, notes, responseTimeMs, ...(error === undefined ? {} : { error }), ...(usage ? { usage } : {}) };
}

/** A streamed call's outcome: its text (or why it failed), its notes, what it used, and how long it took (ms, as its `answer_end` says). */
export interface StreamedResult {
  text: string;
  error?: string;
  usage?: Usage;
  notes: AnswerNotes;
  responseTimeMs: number;
}

/**
 * A member's answer as the deliberation formats keep it, from its streamed call: the text, or
 * (failed) none and why, with how long it took, what the call used and its notes.
 */
export function collectedAnswer(p: Participant, r: StreamedResult): CollectedAnswer {
  return {
    key: p.key,
    display: p.display,
    model: p.model,
    status: r.error ? "error" : "ok",
    response: r.error ? "" : r.text,
    responseTimeMs: r.responseTimeMs,
    ...(r.error ? { error: r.error } : {}),
    ...(r.usage ? { usage: r.usage } : {}),
    ...notesFields(r.notes),
  };
}

/** What the internal model writes last in a deliberation format (/deep's synthesis, /council's report). */
export interface FinalText {
  mode: DeliberationMode;
  stage: string;
  /** Shown as the writer, e.g. `Syntes`. */
  display: string;
  phase: ModelPhase;
  topic: string;
  prompt: string;
  timeoutMs: number;
}

/** Streams the internal model's final text of a deliberation format; returns it (and its usage), or the failure for the caller's fallback. */
export function streamFinalText(deps: NodeDeps, ctx: RunContext, config: LangGraphRunnableConfig, f: FinalText): Promise<StreamedResult> {
  return streamAnswer(ctx, config, {
    mode: f.mode,
    stage: f.stage,
    who: { model: deps.internalModel, display: f.display, modelKey: f.stage },
    timeoutMs: f.timeoutMs,
    call: (signal, onDelta) => streamMessage(deps.models.create({ phase: f.phase, topic: f.topic }), [new HumanMessage(f.prompt)], signal, onDelta),
  });
}
