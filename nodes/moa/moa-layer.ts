import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import { inParticipantOrder, stage1Response, whoIs } from "../../state/deliberation.js";
import type { MoaStateType, MoaUpdate } from "../../state/moa.js";
import { reportStage1 } from "../shared/outcomes.js";

/** The texts of a layer's answers that came (an empty reply comes as a failure). */
const texts = (answers: { status: string; response: string }[]) => answers.filter((a) => a.status === "ok").map((a) => a.response);

/**
 * moa_layer: a layer of proposers is in. The first layer's answers are reported as stage 1
 * (`stage1_complete`; below two answers the run stops there); a later layer's as
 * `moa_layer_complete`. Its answers become the references of the next layer, or of the
 * aggregator after the last; a later layer in which no proposer answered leaves the references
 * of the layer before. Then announces what comes next: `moa_layer_start` or `moa_aggregate_start`.
 */
export function moaLayer(state: MoaStateType, config: LangGraphRunnableConfig): MoaUpdate {
  const layer = state.layer + 1;
  let references = state.references;
  if (layer === 1) {
    const { ok, stop } = reportStage1(state, config, "stage1_complete");
    if (stop) return { ...stop, layer };
    references = { layer, texts: texts(ok) };
  } else {
    const answers = inParticipantOrder(
      state,
      state.proposals.filter((p) => p.layer === layer),
      (p) => p.key,
    );
    emit(config, "moa_layer_complete", {
      layer,
      data: answers.filter((a) => a.status === "ok").map(stage1Response),
      failed: answers.filter((a) => a.status === "error").map((a) => ({ ...whoIs(a), error: a.error ?? "failed" })),
    });
    const answered = texts(answers);
    if (answered.length > 0) references = { layer, texts: answered };
  }
  const from = { from: references.layer, references: references.texts.length };
  if (layer < state.layers - 1) emit(config, "moa_layer_start", { layer: layer + 1, ...from });
  else emit(config, "moa_aggregate_start", { ...whoIs(state.aggregator!), ...from });
  return { layer, references };
}
