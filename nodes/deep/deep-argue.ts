import { HumanMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { NodeDeps } from "../../ports/node-deps.js";
import type { DebaterTurn } from "../../state/deep.js";
import { whoIs } from "../../state/deliberation.js";
import { parseArgument } from "../../state/replies/argument.js";
import { streamMessage } from "../shared/model-call.js";
import { streamAnswer } from "../shared/streamed-answer.js";
import type { ArgueTask } from "./lib/debaters.js";
import { answerTokens } from "../../state/run-config.js";

/**
 * deep_argue: one debater argues one round (one task per debater, in parallel) with the debater
 * prompt, answering in JSON. A failed call, a timeout or JSON that does not fit is this
 * debater's missing turn for the round, with the reason.
 */
export function makeDeepArgue(deps: NodeDeps) {
  return async function deepArgue(task: ArgueTask, config: LangGraphRunnableConfig): Promise<{ turns: DebaterTurn[] }> {
    const ctx = await deps.context(config);
    const p = task.participant;
    const started = performance.now();
    const { text, error, usage } = await streamAnswer(ctx, config, {
      mode: "deep",
      stage: "debate",
      who: whoIs(p),
      timeoutMs: task.timeoutMs,
      call: (signal, onDelta) => {
        const prompt = ctx.prompts.render("deep.debater", {
          question: task.question,
          own_response: task.ownResponse,
          other_responses: task.otherResponses,
          previous_round: task.previousRound,
        });
        const model = deps.models.create({
          phase: "debater",
          participant: p,
          round: task.round,
          topic: task.question,
          maxTokens: answerTokens(ctx.run, "deep"),
          reasoning: ctx.run.reasoning,
        });
        return streamMessage(model, [new HumanMessage(prompt)], signal, onDelta);
      },
    });
    const parsed = error ? { ok: false as const, reason: error } : parseArgument(text, task.position);
    const turn: DebaterTurn = {
      round: task.round,
      label: task.label,
      modelKey: p.key,
      display: p.display,
      model: p.model,
      status: parsed.ok ? "ok" : "error",
      ...(parsed.ok ? { argument: parsed.argument } : { error: parsed.reason }),
      responseTimeMs: Math.round(performance.now() - started),
      ...(usage ? { usage } : {}),
    };
    return { turns: [turn] };
  };
}
