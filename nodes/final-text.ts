import { HumanMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { RunContext } from "../graph/deps.js";
import { DeltaCoalescer, emit } from "../graph/events.js";
import type { ModelPhase } from "../graph/models.js";
import type { DeliberationMode } from "../state/deliberation.js";
import { answerOrFailure, streamText } from "./model-call.js";

/** What the internal model writes last in a seed format, and how it streams. */
export interface FinalText {
  mode: DeliberationMode;
  /** `answer_delta`'s stage, e.g. `synthesis` or `report`. */
  stage: string;
  /** Shown as the writer, e.g. `Syntes`. */
  display: string;
  phase: ModelPhase;
  topic: string;
  prompt: string;
  timeoutMs: number;
}

/**
 * Streams the internal model's final text of a seed format (/deep's synthesis, /council's report)
 * as `answer_delta`, under its timeout. Returns the text, or the failure for the caller's fallback.
 */
export function streamFinalText(ctx: RunContext, config: LangGraphRunnableConfig, f: FinalText): Promise<{ text: string; error?: string }> {
  const who = { model: ctx.deps.settings.oneseekModel, display: f.display, modelKey: f.stage };
  const coalescer = new DeltaCoalescer((delta) => emit(config, "answer_delta", { mode: f.mode, stage: f.stage, ...who, delta }), ctx.coalesceMs);
  return answerOrFailure(f.timeoutMs, config.signal, coalescer, (signal) =>
    streamText(ctx.deps.models.create({ phase: f.phase, topic: f.topic }), [new HumanMessage(f.prompt)], signal, (d) => coalescer.push(d)),
  );
}
