import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { NodeDeps } from "../../ports/node-deps.js";
import { DeltaCoalescer } from "../shared/delta-coalescer.js";
import { emit } from "../../ports/emit.js";
import type { CompareAnswer } from "../../state/compare.js";
import type { Participant } from "../../state/participants.js";
import { answerOrFailure, streamMessage } from "../shared/model-call.js";
import { usageOfAnswer } from "../../state/usage.js";
import { countWords } from "../../state/text.js";
import { notesFields } from "../../state/answer.js";
import { answerTokens } from "../../state/run-config.js";

/** What a `Send` to compare_answer carries. */
export interface CompareTask {
  participant: Participant;
  question: string;
}

/**
 * compare_answer: one participant answers the /compare question, streamed (one task per
 * participant, all in parallel). A failure or timeout is this participant's only.
 */
export function makeCompareAnswer(deps: NodeDeps) {
  return async function compareAnswer(task: CompareTask, config: LangGraphRunnableConfig): Promise<{ answers: CompareAnswer[] }> {
    const ctx = await deps.context(config);
    const p = task.participant;
    const who = { model: p.display, model_key: p.key };
    emit(config, "compare_answer_start", who);
    const started = performance.now();
    const coalescer = new DeltaCoalescer((delta) => emit(config, "compare_answer_delta", { ...who, delta }), ctx.coalesceMs);
    const {
      text,
      error,
      answer: message,
      notes,
    } = await answerOrFailure(ctx.run.responseTimeoutMs, config.signal, coalescer, (signal, onDelta) => {
      const system = ctx.prompts.render("compare.answer.system", { participant: p.display, date: ctx.today() });
      const model = deps.models.create({
        phase: "compare",
        participant: p,
        topic: task.question,
        maxTokens: answerTokens(ctx.run, "compare"),
        reasoning: ctx.run.reasoning,
      });
      return streamMessage(model, [new SystemMessage(system), new HumanMessage(task.question)], signal, onDelta);
    });
    const usage = message && usageOfAnswer(p.model, message, ctx.prices);
    const answer: CompareAnswer = {
      key: p.key,
      display: p.display,
      status: error ? "error" : "ok",
      // A failed answer keeps what it streamed before it failed: the person has seen it.
      text,
      word_count: countWords(text),
      latency_ms: Math.round(performance.now() - started),
      ...(error ? { error } : {}),
      ...notesFields(notes),
    };
    emit(config, "compare_answer_end", {
      ...who,
      word_count: answer.word_count,
      latency_ms: answer.latency_ms,
      status: answer.status,
      ...(error ? { error } : {}),
      ...(usage ? { usage } : {}),
      ...notesFields(notes),
    });
    return { answers: [answer] };
  };
}
