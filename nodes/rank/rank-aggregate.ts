import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import { inParticipantOrder, labelToModel } from "../../state/deliberation.js";
import type { RankAggregate, RankStateType, RankUpdate } from "../../state/rank.js";
import { aggregateRankings } from "../../state/replies/ranking.js";

/**
 * rank_aggregate: the rankings are in. Averages the valid ones into the council's ranking (each
 * answer's mean place, best first, a tie to the earlier name), de-anonymised with its authors, and
 * emits `rank_aggregate` with the rankings that did not count and why. With no valid ranking the
 * council's ranking is empty; the chairman still reads every answer and ranking text.
 */
export async function rankAggregate(state: RankStateType, config: LangGraphRunnableConfig): Promise<RankUpdate> {
  const rankings = inParticipantOrder(state, state.rankings, (r) => r.modelKey);
  const byKey = new Map(state.members.map((p) => [p.key, p]));
  const authorOf = (label: string) => byKey.get(state.labels[label])!;
  const places = aggregateRankings(
    rankings.map((r) => ({ order: r.parsedRanking, valid: r.valid })),
    Object.keys(state.labels),
    (label) => authorOf(label).display,
  );
  const invalid = rankings.filter((r) => !r.valid);
  const aggregate: RankAggregate = {
    ranking: places.map((p) => {
      const author = authorOf(p.label);
      return { label: p.label, model: author.model, display: author.display, modelKey: author.key, averagePosition: p.averagePosition, rankings: p.rankings };
    }),
    labelToModel: labelToModel(state, state.labels),
    validRankings: rankings.length - invalid.length,
    invalidRankings: invalid.length,
    invalid: invalid.map((r) => ({ model: r.model, display: r.display, modelKey: r.modelKey, problem: r.problem ?? "no_ranking" })),
    anonymityFlagged: rankings.filter((r) => r.anonymityBreach.length > 0).length,
  };
  emit(config, "rank_aggregate", { data: aggregate });
  return { aggregate };
}
