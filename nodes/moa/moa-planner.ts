import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { NodeDeps } from "../../ports/node-deps.js";
import { whoIs } from "../../state/deliberation.js";
import { FORMATS } from "../../state/formats.js";
import { MoaOptionsSchema, type MoaStateType, type MoaUpdate } from "../../state/moa.js";
import { modelName } from "../../state/participants.js";
import { chairmanOf, planDeliberation, refuse } from "../shared/plan.js";
import { askedOf } from "../../state/shared.js";

/**
 * moa_planner: picks the proposers (the request's, else the whole roster), the aggregator (the
 * request's `aggregator`, else the internal model) and the layers (the request's `layers`, else
 * 3), and announces the run with `moa_start` and `stage1_start` (the first layer's answers).
 * /moa answers one question: no follow-ups.
 */
export function makeMoaPlanner(deps: NodeDeps) {
  return async function moaPlanner(state: MoaStateType, config: LangGraphRunnableConfig): Promise<MoaUpdate> {
    const plan = planDeliberation(deps, await deps.context(config), state, config, "moa");
    if (!plan.ok) return plan.update;
    // The service checks the options when a run starts; a run started elsewhere (LangGraph Studio) is checked here.
    const parsed = MoaOptionsSchema.safeParse(plan.options);
    if (!parsed.success)
      return refuse(config, "invalid_mode_config", `mode_config: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`).update;
    const own = parsed.data;
    const named = own.aggregator;
    const chosen = named
      ? chairmanOf(deps, named, config)
      : { ok: true as const, chairman: { key: "aggregator", display: modelName(deps.internalModel), model: deps.internalModel } };
    if (!chosen.ok) return chosen.update;
    const aggregator = chosen.chairman;
    const layers = own.layers ?? FORMATS.moa.rounds.default;
    emit(config, "moa_start", {
      conversationId: plan.conversationId,
      messageId: plan.id,
      mode: "moa",
      question: askedOf(state),
      participants: plan.participants.map(whoIs),
      aggregator: whoIs(aggregator),
      layers,
      simulated: deps.models.simulated,
    });
    emit(config, "stage1_start", {});
    return { ...plan.update, aggregator, layers };
  };
}
