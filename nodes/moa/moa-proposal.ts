import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { NodeDeps } from "../../ports/node-deps.js";
import { whoIs } from "../../state/deliberation.js";
import type { MoaProposal } from "../../state/moa.js";
import type { Participant } from "../../state/participants.js";
import { streamMessage } from "../shared/model-call.js";
import { collectedAnswer, streamAnswer } from "../shared/streamed-answer.js";
import { withReferences } from "./lib/references.js";
import { answerTokens } from "../../state/run-config.js";

/** What a `Send` to a later layer's proposer carries. */
export interface ProposalTask {
  proposer: Participant;
  layer: number;
  question: string;
  /** The layer before's answers. */
  references: string[];
  timeoutMs: number;
}

/**
 * moa_proposal (one task per proposer, a layer's in parallel): the proposer answers the question
 * again, with the layer before's answers as references under the aggregate-and-synthesize
 * instruction, streamed as `answer_delta` (stage `proposal`). A failure or timeout is this
 * proposer's alone and is kept with its reason.
 */
export function makeMoaProposal(deps: NodeDeps) {
  return async function moaProposal(task: ProposalTask, config: LangGraphRunnableConfig): Promise<{ proposals: MoaProposal[] }> {
    const ctx = await deps.context(config);
    const p = task.proposer;
    const streamed = await streamAnswer(ctx, config, {
      mode: "moa",
      stage: "proposal",
      who: whoIs(p),
      timeoutMs: task.timeoutMs,
      call: (signal, onDelta) => {
        const model = deps.models.create({
          phase: "proposal",
          participant: p,
          topic: task.question,
          round: task.layer,
          maxTokens: answerTokens(ctx.run, "moa"),
          reasoning: ctx.run.reasoning,
        });
        return streamMessage(model, withReferences(ctx, task.question, task.references), signal, onDelta);
      },
    });
    return { proposals: [{ layer: task.layer, ...collectedAnswer(p, streamed) }] };
  };
}
