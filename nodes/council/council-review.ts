import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { CouncilStateType, CouncilUpdate } from "../../state/council.js";
import { roundOf, unanimous } from "./lib/verdict.js";

/**
 * council_review: a round is in. Emits `council_round_complete` with its verdicts and whether
 * they were unanimous. After round 1: no verdict at all stops the run with `error`; with
 * --debate and at least two verdicts, round 2 starts on the `agreed` branch when round 1 was
 * unanimous, else `disagreed`. A judge without a round-1 verdict gets no round 2.
 */
export async function councilReview(state: CouncilStateType, config: LangGraphRunnableConfig): Promise<CouncilUpdate> {
  const round: 1 | 2 = state.rounds.some((r) => r.round === 2) ? 2 : 1;
  const verdicts = roundOf(state, round);
  const given = verdicts.filter((r) => r.status === "ok");
  emit(config, "council_round_complete", { round, verdicts, unanimous: unanimous(verdicts) });
  if (round === 2) return {};
  if (given.length === 0) {
    const message = "No judge returned a readable verdict in round 1.";
    emit(config, "error", { code: "all_judges_failed", message });
    return { error: message };
  }
  if (!state.options.debate || given.length < 2) return {};
  const branch = unanimous(given) ? "agreed" : "disagreed";
  emit(config, "council_round_start", { round: 2, branch });
  return { branch };
}
