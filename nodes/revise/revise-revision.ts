import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { NodeDeps } from "../../ports/node-deps.js";
import { whoIs } from "../../state/deliberation.js";
import type { RevisionResponse } from "../../state/revise.js";
import type { Participant } from "../../state/participants.js";
import { invokeText, streamMessage } from "../shared/model-call.js";
import { streamAnswer } from "../shared/streamed-answer.js";
import { resolveRevision } from "../../state/replies/revision.js";
import { countWords } from "../../state/text.js";
import { RevisionStream } from "./lib/revision-stream.js";
import { answerTokens } from "../../state/run-config.js";

/** What a `Send` to revise_revision carries: one model, its own answer and the others' (anonymised). */
export interface RevisionTask {
  participant: Participant;
  question: string;
  ownResponse: string;
  /** The other answers under their round-1 labels, rendered for this model (its own left out). */
  otherResponses: string;
  antiAnchoring: boolean;
  timeoutMs: number;
}

/**
 * revise_revision: one model reconsiders its answer after reading the others (one task per model,
 * in parallel, each with its own prompt) and decides REVISE, STAND or MERGE. With the
 * anti-anchoring option it first restates its own position, in the same conversation, before it is
 * shown any other answer, and may change only on a specific cited error. A failed call keeps the
 * original answer (decision null); the model still votes.
 */
export function makeReviseRevision(deps: NodeDeps) {
  return async function reviseRevision(task: RevisionTask, config: LangGraphRunnableConfig): Promise<{ revisions: RevisionResponse[] }> {
    const ctx = await deps.context(config);
    const p = task.participant;
    const who = whoIs(p);
    const started = performance.now();
    let restatement: string | undefined;
    const { text, error, usage } = await streamAnswer(ctx, config, {
      mode: "revise",
      stage: "revision",
      who,
      timeoutMs: task.timeoutMs,
      call: async (signal, onDelta) => {
        const model = deps.models.create({
          phase: "revision",
          participant: p,
          topic: task.question,
          maxTokens: answerTokens(ctx.run, "revise"),
          reasoning: ctx.run.reasoning,
        });
        const values = { question: task.question, own_response: task.ownResponse, other_responses: task.otherResponses };
        let messages: BaseMessage[];
        if (task.antiAnchoring) {
          const restate = new HumanMessage(ctx.prompts.render("revise.restate", values));
          restatement = (
            await invokeText(deps.models.create({ phase: "restate", participant: p, topic: task.question, reasoning: ctx.run.reasoning }), [restate], signal)
          ).trim();
          messages = [restate, new AIMessage(restatement), new HumanMessage(ctx.prompts.render("revise.revision.anti_anchoring", values))];
        } else {
          messages = [new HumanMessage(ctx.prompts.render("revise.revision", values))];
        }
        // The card shows the revised answer as it streams, not the DECISION/REASONING protocol before it.
        const shown = new RevisionStream();
        return streamMessage(model, messages, signal, (delta) => {
          const answer = shown.push(delta);
          if (answer) onDelta(answer);
        });
      },
    });
    const resolved = error
      ? { decision: null, reasoning: null, revisedResponse: task.ownResponse, parseSuccess: false }
      : resolveRevision(text, task.ownResponse);
    const revision: RevisionResponse = {
      model: p.model,
      ...resolved,
      originalResponse: task.ownResponse,
      originalWordCount: countWords(task.ownResponse),
      revisedWordCount: countWords(resolved.revisedResponse),
      responseTimeMs: Math.round(performance.now() - started),
      display: p.display,
      modelKey: p.key,
      revisionText: text,
      ...(restatement !== undefined ? { restatement } : {}),
      ...(error ? { error } : {}),
      ...(usage ? { usage } : {}),
    };
    return { revisions: [revision] };
  };
}
