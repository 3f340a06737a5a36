import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { runContext, type GraphDeps } from "../graph/deps.js";
import { emit } from "../graph/events.js";
import { stage1Response } from "../state/deliberation.js";
import type { State, StateUpdate } from "../state/graph-state.js";
import { createLabelMap } from "./labels.js";

/** Fewest stage-1 answers a vote can choose between (seed 001 §F). */
export const MIN_ANSWERS_TO_VOTE = 2;

/**
 * vote_anonymize: stage 1 is in. Emits `stage1_complete` (with who failed), stops with `error`
 * when fewer than two answered (seed 001 §F), else draws a fresh shuffled label map for the
 * vote and emits `vote_round_start`.
 */
export function makeVoteAnonymize(deps: GraphDeps) {
  return async function voteAnonymize(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
    const ctx = await runContext(deps, config);
    const order = new Map(state.deliberation_participants.map((p, i) => [p.key, i]));
    const answers = [...state.deliberation_answers].sort((a, b) => order.get(a.key)! - order.get(b.key)!);
    const ok = answers.filter((a) => a.status === "ok");
    emit(config, "stage1_complete", {
      data: ok.map(stage1Response),
      failed: answers.filter((a) => a.status === "error").map((a) => ({ model: a.model, display: a.display, modelKey: a.key, error: a.error ?? "failed" })),
    });
    if (ok.length < MIN_ANSWERS_TO_VOTE) {
      const message = ok.length === 0
        ? "All models failed to answer; nothing to vote on."
        : `Only ${ok.length} model answered; a vote needs at least ${MIN_ANSWERS_TO_VOTE} answers.`;
      emit(config, "error", { code: ok.length === 0 ? "all_models_failed" : "too_few_answers", message });
      return { deliberation_error: message };
    }
    const labels = createLabelMap(ok.map((a) => a.key), ctx.run.seed, 1);
    emit(config, "vote_round_start", {});
    return { deliberation_labels: Object.fromEntries(labels) };
  };
}
