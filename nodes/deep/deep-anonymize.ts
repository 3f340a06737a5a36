import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { runContext, type GraphDeps } from "../../ports/node-deps.js";
import { emit } from "../../ports/emit.js";
import { whoIs } from "../../state/deliberation.js";
import type { State, StateUpdate } from "../../state/graph-state.js";
import { reportStage1 } from "../shared/outcomes.js";
import { createLabelMap } from "../shared/labels.js";

/** Seed 004's debater names: A, B, C, … */
export const debaterLabel = (index: number): string => String.fromCharCode(65 + index);

/** The debaters of a /deep run, by label ("A" → who). */
export function debatersOf(state: State): Record<string, ReturnType<typeof whoIs>> {
  const byKey = new Map(state.deliberation_participants.map((p) => [p.key, p]));
  return Object.fromEntries(Object.entries(state.deliberation_labels).map(([label, key]) => [label, whoIs(byKey.get(key)!)]));
}

/**
 * deep_anonymize: stage 1 is in (`stage1_complete`). Below two answers the run stops with
 * `error`; otherwise the answers are shuffled and named Debater A, B, C… (seed 004 step 1)
 * and round 1 starts.
 */
export function makeDeepAnonymize(deps: GraphDeps) {
  return async function deepAnonymize(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
    const ctx = await runContext(deps, config);
    const { ok, stop } = reportStage1(state, config, "stage1_complete");
    if (stop) return stop;
    const labels = Object.fromEntries(createLabelMap(ok.map((a) => a.key), ctx.run.seed, 1, debaterLabel));
    emit(config, "deep_round_start", { round: 1, debaters: debatersOf({ ...state, deliberation_labels: labels }) });
    return { deliberation_labels: labels, deep_round: 1 };
  };
}
