import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import {
  inParticipantOrder,
  labelToModel,
  stage1Response,
  type CollectedAnswer,
  type LabelMap,
  type PanelState,
  type Stage1Response,
  type VoteResponse,
} from "../../state/deliberation.js";
import { tallyLetterVotes, type LetterTally } from "../../state/replies/letter-vote.js";

/** Fewest first answers a deliberation format goes on with. */
export const MIN_ANSWERS = 2;

/** What the stage-1 report reads. */
interface AnsweredState extends PanelState {
  answers: CollectedAnswer[];
}

/** Stage 1 as its completion event reports it, and whether the run can go on (at least two answers). */
interface Stage1Outcome {
  ok: CollectedAnswer[];
  payload: { data: Stage1Response[]; failed: { model: string; display: string; modelKey: string; error: string }[] };
  /** Set when fewer than two models answered: the `error` to emit. */
  error?: { code: "all_models_failed" | "too_few_answers"; message: string };
}

/** Sorts stage 1's answers, splits off the failures and applies the two-answer minimum. */
function stage1Outcome(state: AnsweredState): Stage1Outcome {
  const answers = inParticipantOrder(state, state.answers, (a) => a.key);
  const ok = answers.filter((a) => a.status === "ok");
  const payload = {
    data: ok.map(stage1Response),
    failed: answers.filter((a) => a.status === "error").map((a) => ({ model: a.model, display: a.display, modelKey: a.key, error: a.error ?? "failed" })),
  };
  if (ok.length >= MIN_ANSWERS) return { ok, payload };
  return {
    ok,
    payload,
    error:
      ok.length === 0
        ? { code: "all_models_failed", message: "All models failed to answer; nothing to deliberate on." }
        : { code: "too_few_answers", message: `Only ${ok.length} model answered; at least ${MIN_ANSWERS} answers are needed.` },
  };
}

/**
 * Emits stage 1's outcome as `event` (/vote's and /deep's `stage1_complete`, /revise's
 * `round1_complete`); below two answers also the `error`, with the update that stops the run.
 */
export function reportStage1(
  state: AnsweredState,
  config: LangGraphRunnableConfig,
  event: "stage1_complete" | "round1_complete",
): { ok: CollectedAnswer[]; stop?: { error: string } } {
  const outcome = stage1Outcome(state);
  emit(config, event, outcome.payload);
  if (!outcome.error) return { ok: outcome.ok };
  emit(config, "error", outcome.error);
  return { ok: outcome.ok, stop: { error: outcome.error.message } };
}

/** The counted votes of a run under its current labels. */
export interface CountedVotes {
  votes: VoteResponse[];
  tally: LetterTally;
  labelToModel: LabelMap;
  anonymityFlagged: number;
}

/** Counts the ballots against the current labels. */
export function countBallots(state: PanelState & { ballots: VoteResponse[]; labels: Record<string, string> }): CountedVotes {
  const votes = inParticipantOrder(state, state.ballots, (v) => v.modelKey);
  return {
    votes,
    tally: tallyLetterVotes(votes, new Set(Object.keys(state.labels))),
    labelToModel: labelToModel(state, state.labels),
    anonymityFlagged: votes.filter((v) => v.anonymityBreach.length > 0).length,
  };
}

/** The error when no vote counted. */
export const ALL_VOTES_INVALID = { code: "all_votes_invalid", message: "All votes failed to parse." } as const;
