import type { ModelPhase } from "../ports/models.js";

/**
 * The output cap of each kind of call whose node sets none: what its reply needs, with room to
 * spare. Without a cap a model that does not stop (a base model, a loop) writes until its context
 * is full, minutes on a local model and a bill on a paid one. A model that reasons gets its
 * thinking room on top (state/reasoning.ts).
 */
export const PHASE_OUTPUT_CAPS: Partial<Record<ModelPhase, number>> = {
  vote: 400,
  ballot: 400,
  tiebreaker: 400,
  ranking: 1_000,
  moderator: 500,
  convergence: 800,
  title: 60,
  research_plan: 300,
  research_check: 300,
  restate: 600,
  chairman: 1_600,
  deep_synthesis: 1_600,
  council_report: 1_600,
};
