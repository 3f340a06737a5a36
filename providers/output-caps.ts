import type { ModelPhase } from "../ports/models.js";
import { RESPONSE_TOKENS } from "../state/run-config.js";

/** An answer's budget when its node gives none: the run's default. */
const ANSWER = RESPONSE_TOKENS.default;

/**
 * The output cap of each kind of call, used when its node sets none (a participant's answer takes
 * the run's budget instead): what its reply needs, with room to spare. Every phase has one, which
 * the compiler checks: without a cap a model that does not stop (a base model, a loop, a hostile
 * endpoint) writes until its context is full, minutes on a local model, a bill on a paid one and a
 * reply too long to read. A model that reasons gets its thinking room on top (state/reasoning.ts).
 */
export const PHASE_OUTPUT_CAPS: Record<ModelPhase, number> = {
  supervisor: ANSWER,
  continue: ANSWER,
  client_task: 500,
  json_result: 2 * ANSWER,
  turn: ANSWER,
  answer: ANSWER,
  compare: ANSWER,
  proposal: ANSWER,
  aggregate: ANSWER,
  revision: ANSWER,
  debater: ANSWER,
  judge: ANSWER,
  synthesis: 2 * ANSWER,
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
