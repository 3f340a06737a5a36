import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { JudgeRound } from "../../state/deliberation.js";
import type { State, StateUpdate } from "../../state/graph-state.js";
import { inParticipantOrder } from "../shared/outcomes.js";

/** A round's verdicts in the judges' order. */
export function roundOf(state: State, round: 1 | 2): JudgeRound[] {
  return inParticipantOrder(state, state.council_rounds.filter((r) => r.round === round), (r) => r.modelKey);
}

/** True when every verdict given is the same (PASS, WARN or FAIL). */
export function unanimous(rounds: readonly JudgeRound[]): boolean {
  const given = rounds.filter((r) => r.verdict).map((r) => r.verdict!.verdict);
  return given.length > 0 && given.every((v) => v === given[0]);
}

/**
 * council_review: a round is in. Emits `council_round_complete` with its verdicts and whether
 * they were unanimous. After round 1: no verdict at all stops the run with `error`; with
 * --debate and at least two verdicts, round 2 starts on the `agreed` branch when round 1 was
 * unanimous, else `disagreed` (seed 002's branch selection). A judge without a round-1 verdict
 * gets no round 2 (N-1 in round 2).
 */
export async function councilReview(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
  const round: 1 | 2 = state.council_rounds.some((r) => r.round === 2) ? 2 : 1;
  const verdicts = roundOf(state, round);
  const given = verdicts.filter((r) => r.status === "ok");
  emit(config, "council_round_complete", { round, verdicts, unanimous: unanimous(verdicts) });
  if (round === 2) return {};
  if (given.length === 0) {
    const message = "No judge returned a readable verdict in round 1.";
    emit(config, "error", { code: "all_judges_failed", message });
    return { deliberation_error: message };
  }
  if (!state.council_debate || given.length < 2) return {};
  const branch = unanimous(given) ? "agreed" : "disagreed";
  emit(config, "council_round_start", { round: 2, branch });
  return { council_branch: branch };
}
