import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { NodeDeps } from "../../ports/node-deps.js";
import { inParticipantOrder, whoIs, type CollectedAnswer } from "../../state/deliberation.js";
import type { MoaFinal, MoaStateType } from "../../state/moa.js";
import { streamMessage } from "../shared/model-call.js";
import { streamAnswer } from "../shared/streamed-answer.js";
import { withReferences } from "./lib/references.js";
import { answerTokens } from "../../state/run-config.js";

/** What the aggregator's step leaves: the final answer (the graph also makes it the run's `answer`) and why the aggregator failed, if it did. */
interface AggregateUpdate {
  final: MoaFinal;
  /** Left unset here: the graph (`answering`) makes the final's text the run's answer and last message. */
  answer?: string;
  final_error: string | null;
}

/** The answers of the layer the references came from, in the members' order. */
function answersOf(state: MoaStateType): CollectedAnswer[] {
  const { layer } = state.references;
  const answers = layer === 1 ? state.answers : state.proposals.filter((p) => p.layer === layer);
  return inParticipantOrder(state, answers, (a) => a.key);
}

/**
 * moa_aggregate: the aggregator reads the last layer's answers (unnamed, numbered) under the
 * aggregate-and-synthesize instruction and writes the run's answer, streamed as `answer_delta`
 * (stage `aggregate`). If it fails, the first answer of that layer stands in, marked `fallback`
 * with why. Emits `moa_final`.
 */
export function makeMoaAggregate(deps: NodeDeps) {
  return async function moaAggregate(state: MoaStateType, config: LangGraphRunnableConfig): Promise<AggregateUpdate> {
    const ctx = await deps.context(config);
    const aggregator = state.aggregator!;
    const { layer, texts } = state.references;
    const { text, error, usage, responseTimeMs } = await streamAnswer(ctx, config, {
      mode: "moa",
      stage: "aggregate",
      who: whoIs(aggregator),
      timeoutMs: state.timeout_ms,
      call: (signal, onDelta) => {
        const model = deps.models.create({
          phase: "aggregate",
          participant: aggregator,
          topic: state.question,
          maxTokens: answerTokens(ctx.run, "moa"),
          reasoning: ctx.run.reasoning,
        });
        return streamMessage(model, withReferences(ctx, state.question, texts), signal, onDelta);
      },
    });
    const read = { layer, references: texts.length, responseTimeMs, ...(usage ? { usage } : {}) };
    // (An empty reply comes as an error: an answer of the last layer is worth more to the person asking.)
    const failure = error;
    if (failure === undefined) {
      const final: MoaFinal = { answer: text, ...whoIs(aggregator), fallback: false, ...read };
      emit(config, "moa_final", { data: final });
      return { final, final_error: null };
    }
    // The references came from this layer's answers, so it has one.
    const first = answersOf(state).find((a) => a.status === "ok")!;
    ctx.log(`moa aggregator failed, answering with ${first.display}'s answer of layer ${layer}: ${failure}`);
    const final: MoaFinal = { answer: first.response, ...whoIs(first), fallback: true, error: failure, ...read };
    emit(config, "moa_final", { data: final });
    return { final, final_error: failure };
  };
}
