import { AIMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { NodeDeps } from "../../ports/node-deps.js";
import { emit } from "../../ports/emit.js";
import type { DebaterTurn, DeepOutput, DeepRoundOutcome, DeepStateType, DeepUpdate } from "../../state/deep.js";
import { answerOf } from "../../state/deliberation.js";
import { lastArgument } from "./lib/debaters.js";
import { streamFinalText } from "../shared/streamed-answer.js";

/** One line per round for the output object's `debate_log`: each debater's stance and the moderator's numbers. */
function roundSummary(round: number, turns: DebaterTurn[], outcome: DeepRoundOutcome | undefined): string {
  const stances = turns
    .map((t) => (t.argument ? `${t.label} ${t.argument.stance} (${t.argument.revision}, ${t.argument.confidence})` : `${t.label} no argument`))
    .join("; ");
  const a = outcome?.assessment;
  const moderation = a ? `agreement ${a.agreement_score}, new points ${a.new_points_ratio}` : "no assessment";
  return `Round ${round}: ${stances}; ${moderation} → ${outcome?.reason ?? "continue"}`;
}

/**
 * The debate's output object, handed to Stage 3: the rounds completed, each debater's last stance
 * (its last valid argument; a debater that never argued keeps its first answer), the last
 * assessment's convergence status, and a one-line log per round.
 */
function deepOutput(state: DeepStateType): DeepOutput {
  const rounds = state.round;
  const final_stances = Object.entries(state.labels).map(([label, key]) => {
    const last = lastArgument(state, label);
    return last
      ? { debater: label, stance: last.stance, confidence: last.confidence, revised_position: last.revised_position }
      : { debater: label, stance: "maintain", confidence: 0, revised_position: answerOf(state, key) };
  });
  const last = state.outcomes.at(-1)?.assessment ?? null;
  return {
    mode: "deep",
    rounds_completed: rounds,
    final_stances,
    convergence_status: {
      agreement_score: last?.agreement_score ?? null,
      new_points_ratio: last?.new_points_ratio ?? null,
      consensus_answer: last?.consensus_answer ?? null,
      remaining_disagreements: last?.remaining_disagreements ?? [],
    },
    debate_log: Array.from({ length: rounds }, (_, i) =>
      roundSummary(
        i + 1,
        state.turns.filter((t) => t.round === i + 1),
        state.outcomes.find((o) => o.round === i + 1),
      ),
    ),
  };
}

/** The answer when the synthesis model fails: the consensus, else the most confident final position. */
function fallbackSynthesis(output: DeepOutput): string {
  if (output.convergence_status.consensus_answer) return output.convergence_status.consensus_answer;
  const best = [...output.final_stances].sort((a, b) => b.confidence - a.confidence)[0];
  return best?.revised_position ?? "";
}

/**
 * deep_synthesize: Stage 3. Emits the debate's output object (`deep_output`), then streams the
 * final answer the internal model writes from it (`answer_delta`, stage `synthesis`). If that model
 * fails, the consensus (or the most confident final position) is the answer, marked `fallback`.
 */
export function makeDeepSynthesize(deps: NodeDeps) {
  return async function deepSynthesize(state: DeepStateType, config: LangGraphRunnableConfig): Promise<DeepUpdate> {
    const ctx = await deps.context(config);
    const output = deepOutput(state);
    emit(config, "deep_output", { data: output });
    const question = state.question;
    const { text, error, usage } = await streamFinalText(deps, ctx, config, {
      mode: "deep",
      stage: "synthesis",
      display: "Syntes",
      phase: "deep_synthesis",
      topic: question,
      prompt: ctx.prompts.render("deep.synthesis", { question, debate_output: JSON.stringify(output, null, 2) }),
      timeoutMs: state.timeout_ms,
    });
    if (error) ctx.log(`deep synthesis failed, answering with the debate's consensus: ${error}`);
    const synthesis = error ? fallbackSynthesis(output) : text;
    emit(config, "deep_synthesis_complete", { data: { synthesis, fallback: Boolean(error), ...(error ? { error } : {}), ...(usage ? { usage } : {}) } });
    return { output, answer: synthesis, final_error: error ?? null, messages: [new AIMessage(synthesis)] };
  };
}
