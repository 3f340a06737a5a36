import { HumanMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { NodeDeps } from "../../ports/node-deps.js";
import { whoIs } from "../../state/deliberation.js";
import type { Participant } from "../../state/participants.js";
import type { RankingResponse } from "../../state/rank.js";
import { parseRanking } from "../../state/replies/ranking.js";
import { namesMentioned } from "../shared/anonymity.js";
import { streamMessage } from "../shared/model-call.js";
import { streamAnswer } from "../shared/streamed-answer.js";

/** What a `Send` to rank_ranking carries: one ranking model and what every one of them is shown. */
export interface RankingTask {
  ranker: Participant;
  question: string;
  /** The anonymised answers, rendered once for all rankers (each ranker's own among them, unmarked). */
  responses: string;
  /** The labels in play, Response A… in the order shown. */
  labels: string[];
  /** Names that would identify an author (for flagging the ranking's text). */
  names: string[];
  timeoutMs: number;
}

/**
 * rank_ranking: one model reads every anonymised answer, evaluates each and ranks them all (one
 * task per model that answered, in parallel), streamed as `answer_delta` (stage `ranking`). The
 * reply is read with `parseRanking`; a failed call or a ranking that does not rank every answer
 * exactly once is kept, marked invalid with why. Emits `rank_ranking` as soon as it lands.
 */
export function makeRankRanking(deps: NodeDeps) {
  return async function rankRanking(task: RankingTask, config: LangGraphRunnableConfig): Promise<{ rankings: RankingResponse[] }> {
    const ctx = await deps.context(config);
    const who = whoIs(task.ranker);
    const { text, error, usage, responseTimeMs } = await streamAnswer(ctx, config, {
      mode: "rank",
      stage: "ranking",
      who,
      timeoutMs: task.timeoutMs,
      call: (signal, onDelta) => {
        const prompt = ctx.prompts.render("rank.ranking", { question: task.question, responses: task.responses });
        const model = deps.models.create({
          phase: "ranking",
          participant: task.ranker,
          topic: task.question,
          candidates: task.labels,
          reasoning: ctx.run.reasoning,
        });
        return streamMessage(model, [new HumanMessage(prompt)], signal, onDelta);
      },
    });
    const parsed = parseRanking(error ? "" : text, task.labels);
    const ranking: RankingResponse = {
      ...who,
      rankingText: text,
      parsedRanking: parsed.order,
      valid: !error && parsed.valid,
      ...(error ? { problem: "failed" as const } : parsed.problem ? { problem: parsed.problem } : {}),
      source: parsed.source,
      missing: parsed.missing,
      repeated: parsed.repeated,
      unknown: parsed.unknown,
      responseTimeMs,
      ...(error ? { error } : {}),
      anonymityBreach: namesMentioned(text, task.names, task.question),
      ...(usage ? { usage } : {}),
    };
    emit(config, "rank_ranking", { data: ranking });
    return { rankings: [ranking] };
  };
}
