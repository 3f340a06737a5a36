import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { runContext, type GraphDeps } from "../../ports/node-deps.js";
import { emit } from "../../ports/emit.js";
import type { RevisionResponse, RevisionSummary } from "../../state/deliberation.js";
import type { State, StateUpdate } from "../../state/graph-state.js";
import { inParticipantOrder, labelToModel } from "../shared/outcomes.js";
import { createLabelMap } from "../shared/labels.js";

/** Seed 000 RevisionSummary: how many revised, stood, merged, or gave no readable decision. */
export function summarizeRevisions(revisions: readonly RevisionResponse[]): RevisionSummary {
  const count = (d: RevisionResponse["decision"]) => revisions.filter((r) => r.decision === d).length;
  return { totalModels: revisions.length, revised: count("REVISE"), stood: count("STAND"), merged: count("MERGE"), parseFailed: count(null) };
}

/**
 * revise_relabel: the revisions are in. Emits `revision_complete` (revisions in participant order,
 * with the summary), then labels the REVISED answers with a NEW shuffled map, so that no model
 * can carry a letter over from the revision round (seed 000 "Label Map Strategy"), and emits
 * `vote_start` with it.
 */
export function makeReviseRelabel(deps: GraphDeps) {
  return async function reviseRelabel(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
    const ctx = await runContext(deps, config);
    const revisions = inParticipantOrder(state, state.revise_revisions, (r) => r.modelKey);
    emit(config, "revision_complete", { data: { revisions, summary: summarizeRevisions(revisions) } });
    const labels = Object.fromEntries(createLabelMap(revisions.map((r) => r.modelKey), ctx.run.seed, 2));
    emit(config, "vote_start", { data: { revisedLabelMap: labelToModel(state, labels) } });
    return { deliberation_labels: labels };
  };
}
