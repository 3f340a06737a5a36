import { HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { NodeDeps } from "../../ports/node-deps.js";
import { whoIs, type CollectedAnswer } from "../../state/deliberation.js";
import type { DeliberationMode } from "../../state/formats.js";
import type { Participant } from "../../state/participants.js";
import { streamMessage } from "../shared/model-call.js";
import { collectedAnswer, streamAnswer } from "../shared/streamed-answer.js";
import { answerTokens } from "../../state/run-config.js";

/** What a `Send` to a deliberation format's stage-1 answer carries. */
export interface AnswerTask {
  mode: DeliberationMode;
  participant: Participant;
  question: string;
  /** Earlier turns of the conversation (empty for a new one). */
  history: BaseMessage[];
  timeoutMs: number;
}

/**
 * Stage 1 of the deliberation formats (one task per model, all in parallel): the model answers
 * the plain question after the conversation's last turns, streamed as `answer_delta` (stage
 * `collect`). It is never told its own name, so the answer has less to give its author away when
 * others judge it. A failure or timeout is this model's alone and is kept with its reason.
 */
export function makeDeliberationAnswer(deps: NodeDeps) {
  return async function deliberationAnswer(task: AnswerTask, config: LangGraphRunnableConfig): Promise<{ answers: CollectedAnswer[] }> {
    const ctx = await deps.context(config);
    const p = task.participant;
    const who = whoIs(p);
    const streamed = await streamAnswer(ctx, config, {
      mode: task.mode,
      stage: "collect",
      who,
      timeoutMs: task.timeoutMs,
      call: (signal, onDelta) => {
        const system = ctx.prompts.render("deliberation.answer.system", { date: ctx.today() });
        const model = deps.models.create({
          phase: "answer",
          participant: p,
          topic: task.question,
          maxTokens: answerTokens(ctx.run, task.mode),
          reasoning: ctx.run.reasoning,
        });
        return streamMessage(model, [new SystemMessage(system), ...task.history, new HumanMessage(task.question)], signal, onDelta);
      },
    });
    return { answers: [collectedAnswer(p, streamed)] };
  };
}
