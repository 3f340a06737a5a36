import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { NodeDeps } from "../../ports/node-deps.js";
import { emit } from "../../ports/emit.js";
import { inParticipantOrder, labelToModel } from "../../state/deliberation.js";
import { summarizeRevisions, type ReviseStateType, type ReviseUpdate } from "../../state/revise.js";
import { createLabelMap } from "../shared/labels.js";

/**
 * revise_relabel: the revisions are in. Emits `revision_complete` (revisions in participant order,
 * with the summary), then labels the REVISED answers with a NEW shuffled map, so that no model
 * can carry a letter over from the revision round, and emits `vote_start` with it.
 */
export function makeReviseRelabel(deps: NodeDeps) {
  return async function reviseRelabel(state: ReviseStateType, config: LangGraphRunnableConfig): Promise<ReviseUpdate> {
    const ctx = await deps.context(config);
    const revisions = inParticipantOrder(state, state.revisions, (r) => r.modelKey);
    emit(config, "revision_complete", { data: { revisions, summary: summarizeRevisions(revisions) } });
    const labels = Object.fromEntries(
      createLabelMap(
        revisions.map((r) => r.modelKey),
        ctx.run.seed,
        2,
      ),
    );
    emit(config, "vote_start", { data: { revisedLabelMap: labelToModel(state, labels) } });
    return { labels };
  };
}
