import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { NodeDeps } from "../../ports/node-deps.js";
import type { RankStateType, RankUpdate } from "../../state/rank.js";
import { createLabelMap } from "../shared/labels.js";
import { reportStage1 } from "../shared/outcomes.js";

/**
 * rank_anonymize: the answers are in. Emits `stage1_complete` (with who failed), stops with
 * `error` when fewer than two answered, else draws the labels (Response A, B, …, shuffled with the
 * run's seed) and emits `rank_rankings_start` with them.
 */
export function makeRankAnonymize(deps: NodeDeps) {
  return async function rankAnonymize(state: RankStateType, config: LangGraphRunnableConfig): Promise<RankUpdate> {
    const ctx = await deps.context(config);
    const { ok, stop } = reportStage1(state, config, "stage1_complete");
    if (stop) return stop;
    const labels = createLabelMap(
      ok.map((a) => a.key),
      ctx.run.seed,
      1,
    );
    emit(config, "rank_rankings_start", { labels: [...labels.keys()] });
    return { labels: Object.fromEntries(labels) };
  };
}
