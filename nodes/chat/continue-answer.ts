import { AIMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { NodeDeps } from "../../ports/node-deps.js";
import type { State, StateUpdate } from "../../state/graph-state.js";
import { DeltaCoalescer } from "../shared/delta-coalescer.js";
import { ModelCallError, rethrowIfCancelled, streamMessage, textOf, withTimeout } from "../shared/model-call.js";
import { answerTokens } from "../../state/run-config.js";

/**
 * continue_answer: a follow-up to one participant of a finished run. That participant's model
 * answers, having read the run's question and its own words there (as its own messages), then the
 * follow-ups to it since with its answers, and the new one. Announced with `continue-start`, streamed
 * as `text_delta`; a failure ends with an `error` event, never a thrown run.
 */
export function makeContinueAnswer(deps: NodeDeps) {
  return async function continueAnswer(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
    const ctx = await deps.context(config);
    const c = state.continuation!;
    const followUp = state.messages[state.messages.length - 1];
    emit(config, "continue_start", { run_id: c.run_id, participant: c.participant });
    const system = ctx.prompts.render("deliberation.continue.system", { participant: c.participant.display, format: c.format, date: ctx.today() });
    const messages = [
      new SystemMessage(system),
      new HumanMessage(c.question),
      ...c.said.map((text) => new AIMessage(text)),
      ...c.follow_ups.flatMap((f) => [new HumanMessage(f.question), new AIMessage(f.answer)]),
      new HumanMessage(textOf(followUp?.content ?? "")),
    ];
    const coalescer = new DeltaCoalescer((delta) => emit(config, "text_delta", { delta }), ctx.coalesceMs);
    try {
      const model = deps.models.create({
        phase: "continue",
        participant: { ...c.participant },
        topic: textOf(followUp?.content ?? ""),
        maxTokens: answerTokens(ctx.run, "chat"),
        reasoning: ctx.run.reasoning,
      });
      const answer = await withTimeout(ctx.run.responseTimeoutMs, config.signal, (signal) => streamMessage(model, messages, signal, (d) => coalescer.push(d)));
      coalescer.flush();
      return { messages: [new AIMessage(textOf(answer.content))], answer: textOf(answer.content) };
    } catch (err) {
      coalescer.flush();
      rethrowIfCancelled(err);
      const message = `${c.participant.display} could not answer: ${(err as Error).message}`;
      ctx.log(message);
      emit(config, "error", { code: err instanceof ModelCallError ? err.code : "model_error", message });
      return {};
    }
  };
}
