import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { runContext, type GraphDeps } from "../../ports/node-deps.js";
import { emit } from "../../ports/emit.js";
import { whoIs, type JudgeRound, type Verdict } from "../../state/deliberation.js";
import type { StateUpdate } from "../../state/graph-state.js";
import type { Participant } from "../../state/participants.js";
import { judgeName, judgeOf, parseVerdict, roundOneMessages, roundTwoMessages } from "./lib/verdict.js";
import { streamText } from "../shared/model-call.js";
import { streamAnswer } from "../shared/streamed-answer.js";

/** What a `Send` to council_judge carries: one judge's round 1, or its round 2 in the same conversation. */
export interface JudgeTask {
  round: 1 | 2;
  participant: Participant;
  index: number;
  perspective: string;
  claim: string;
  timeoutMs: number;
  /** Round 2: the judge's own round-1 reply and verdict (its conversation so far). */
  ownReply?: string;
  ownVerdict?: Verdict;
  /** Round 2: the other judges' full round-1 JSON verdicts. */
  otherVerdicts?: string;
  branch?: "agreed" | "disagreed";
}

/**
 * council_judge: one judge's verdict (one task per judge, in parallel). Round 1: its perspective
 * and the claim. Round 2 (--debate): the SAME conversation goes on (round 1's messages and its own
 * reply kept) with the others' full verdicts, the branch's steel-manning and seed 002's
 * anti-anchoring protocol; a verdict changed without a cited detail is flagged. A timeout is
 * marked `timeout` (in round 2 the round-1 verdict then stands); unreadable JSON is an error.
 */
export function makeCouncilJudge(deps: GraphDeps) {
  return async function councilJudge(task: JudgeTask, config: LangGraphRunnableConfig): Promise<StateUpdate> {
    const ctx = await runContext(deps, config);
    const p = task.participant;
    const name = judgeName(task.index, task.perspective);
    const started = performance.now();
    const { text, error } = await streamAnswer(ctx, config, {
      mode: "council",
      stage: `round${task.round}`,
      who: whoIs(p),
      timeoutMs: task.timeoutMs,
      call: (signal, onDelta) => {
        const round1 = roundOneMessages(ctx, name, task.perspective, task.claim);
        const messages = task.round === 1 ? round1 : roundTwoMessages(ctx, round1, task.ownReply ?? "", task.branch ?? "disagreed", task.otherVerdicts ?? "");
        const model = deps.models.create({ phase: "judge", participant: p, round: task.round, topic: task.claim, maxTokens: ctx.run.maxResponseTokens });
        return streamText(model, messages, signal, onDelta);
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
    };
    emit(config, "council_verdict", judged);
    return { council_rounds: [judged] };
  };
}
