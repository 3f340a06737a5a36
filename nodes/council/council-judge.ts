import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { NodeDeps } from "../../ports/node-deps.js";
import { emit } from "../../ports/emit.js";
import type { JudgeRound } from "../../state/council.js";
import { whoIs } from "../../state/deliberation.js";
import { streamMessage } from "../shared/model-call.js";
import { streamAnswer } from "../shared/streamed-answer.js";
import type { JudgeTask } from "./lib/judges.js";
import { parseVerdict } from "../../state/replies/verdict.js";
import { judgeName, judgeOf, roundOneMessages, roundTwoMessages } from "./lib/verdict.js";
import { answerTokens } from "../../state/run-config.js";

/**
 * council_judge: one judge's verdict (one task per judge, in parallel). Round 1: its perspective
 * and the claim. Round 2 (--debate): the SAME conversation goes on (round 1's messages and its own
 * reply kept) with the others' full verdicts, the branch's steel-manning and the anti-anchoring
 * protocol; a verdict changed without a cited detail is flagged. A timeout is marked `timeout` (in
 * round 2 the round-1 verdict then stands); unreadable JSON is an error.
 */
export function makeCouncilJudge(deps: NodeDeps) {
  return async function councilJudge(task: JudgeTask, config: LangGraphRunnableConfig): Promise<{ rounds: JudgeRound[] }> {
    const ctx = await deps.context(config);
    const p = task.participant;
    const name = judgeName(task.index, task.perspective);
    const started = performance.now();
    const { text, error, usage } = await streamAnswer(ctx, config, {
      mode: "council",
      stage: `round${task.round}`,
      who: whoIs(p),
      timeoutMs: task.timeoutMs,
      call: (signal, onDelta) => {
        const round1 = roundOneMessages(ctx, name, task.perspective, task.claim);
        const messages = task.round === 1 ? round1 : roundTwoMessages(ctx, round1, task.ownReply ?? "", task.branch ?? "disagreed", task.otherVerdicts ?? "");
        const model = deps.models.create({
          phase: "judge",
          participant: p,
          round: task.round,
          topic: task.claim,
          maxTokens: answerTokens(ctx.run, "council"),
          reasoning: ctx.run.reasoning,
        });
        return streamMessage(model, messages, signal, onDelta);
      },
    });
    const parsed = error ? { ok: false as const, reason: error } : parseVerdict(text, name);
    const changed = parsed.ok && task.ownVerdict !== undefined && parsed.verdict.verdict !== task.ownVerdict.verdict;
    const judged: JudgeRound = {
      round: task.round,
      ...judgeOf(p, task.perspective),
      status: parsed.ok ? "ok" : error?.startsWith("timeout") ? "timeout" : "error",
      ...(parsed.ok
        ? {
            verdict: parsed.verdict,
            ...(parsed.restatement ? { restatement: parsed.restatement } : {}),
            ...(parsed.changeJustification ? { changeJustification: parsed.changeJustification } : {}),
            ...(changed && !parsed.changeJustification ? { unjustifiedChange: true } : {}),
          }
        : { error: parsed.reason }),
      text,
      responseTimeMs: Math.round(performance.now() - started),
      ...(usage ? { usage } : {}),
    };
    emit(config, "council_verdict", judged);
    return { rounds: [judged] };
  };
}
