import type { StopReason } from "../../../state/deep.js";

/** The convergence thresholds: enough agreement, few enough new points. */
export const AGREEMENT_TO_STOP = 0.8;
export const NEW_POINTS_TO_STOP = 0.15;

/** What the stopping rule looks at after a round. */
export interface RoundFacts {
  round: number;
  minRounds: number;
  maxRounds: number;
  /** The moderator's numbers; null when its assessment failed. */
  agreementScore: number | null;
  newPointsRatio: number | null;
  /** The `revision` of each debater that argued this round. */
  revisions: readonly string[];
}

/**
 * The exit rule, computed from the moderator's numbers and the debaters' revisions, never from the
 * moderator's own `should_stop`: stop when `agreement_score ≥ 0.8 and new_points_ratio ≤ 0.15`, or
 * every debater chose `no_change`, or the round reached `max_rounds`; but never before
 * `min_rounds` (at least one rebuttal).
 */
export function stoppingDecision(f: RoundFacts): { stop: boolean; reason: StopReason } {
  if (f.round >= f.minRounds) {
    if (f.agreementScore !== null && f.newPointsRatio !== null && f.agreementScore >= AGREEMENT_TO_STOP && f.newPointsRatio <= NEW_POINTS_TO_STOP) {
      return { stop: true, reason: "converged" };
    }
    if (f.revisions.length > 0 && f.revisions.every((r) => r === "no_change")) return { stop: true, reason: "all_no_change" };
  }
  if (f.round >= f.maxRounds) return { stop: true, reason: "max_rounds" };
  return { stop: false, reason: "continue" };
}
