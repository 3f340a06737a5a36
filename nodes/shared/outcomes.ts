import type { CollectedAnswer, LabelMap, VoteResponse } from "../../state/deliberation.js";
import { stage1Response, type Stage1Response } from "../../state/deliberation.js";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { State, StateUpdate } from "../../state/graph-state.js";
import { tallyLetterVotes, type LetterTally } from "./letter-vote.js";

/** Fewest stage-1 answers a seed format goes on with (seeds 000 and 001 §F). */
export const MIN_ANSWERS = 2;

/** Items in the order of the run's participants (parallel tasks finish in any order). */
export function inParticipantOrder<T>(state: State, items: readonly T[], keyOf: (item: T) => string): T[] {
  const order = new Map(state.deliberation_participants.map((p, i) => [p.key, i]));
  return [...items].sort((a, b) => order.get(keyOf(a))! - order.get(keyOf(b))!);
}

/** Stage 1 as the seeds report it, and whether the run can go on (at least two answers). */
interface Stage1Outcome {
  ok: CollectedAnswer[];
  payload: { data: Stage1Response[]; failed: { model: string; display: string; modelKey: string; error: string }[] };
  /** Set when fewer than two models answered: the `error` to emit. */
  error?: { code: "all_models_failed" | "too_few_answers"; message: string };
}

/** Sorts stage 1's answers, splits off the failures and applies the two-answer minimum. */
function stage1Outcome(state: State): Stage1Outcome {
  const answers = inParticipantOrder(state, state.deliberation_answers, (a) => a.key);
  const ok = answers.filter((a) => a.status === "ok");
  const payload = {
    data: ok.map(stage1Response),
    failed: answers.filter((a) => a.status === "error").map((a) => ({ model: a.model, display: a.display, modelKey: a.key, error: a.error ?? "failed" })),
  };
  if (ok.length >= MIN_ANSWERS) return { ok, payload };
  return {
    ok,
    payload,
    error: ok.length === 0
      ? { code: "all_models_failed", message: "All models failed to answer; nothing to deliberate on." }
      : { code: "too_few_answers", message: `Only ${ok.length} model answered; at least ${MIN_ANSWERS} answers are needed.` },
  };
}

/**
 * Emits stage 1's outcome as `event` (seed 001's `stage1_complete`, seed 000's `round1_complete`);
 * below two answers also the `error`, with the update that stops the run.
 */
export function reportStage1(state: State, config: LangGraphRunnableConfig, event: "stage1_complete" | "round1_complete"): { ok: CollectedAnswer[]; stop?: StateUpdate } {
  const outcome = stage1Outcome(state);
  emit(config, event, outcome.payload);
  if (!outcome.error) return { ok: outcome.ok };
  emit(config, "error", outcome.error);
  return { ok: outcome.ok, stop: { deliberation_error: outcome.error.message } };
}

/** A label map with model ids (the seeds' LabelMap) from one with participant keys. */
export function labelToModel(state: State, labels: Record<string, string>): LabelMap {
  const byKey = new Map(state.deliberation_participants.map((p) => [p.key, p.model]));
  return Object.fromEntries(Object.entries(labels).map(([label, key]) => [label, byKey.get(key)!]));
}

/** The counted votes of a run under its current labels (seed 001 tallyVotes). */
export interface CountedVotes {
  votes: VoteResponse[];
  tally: LetterTally;
  labelToModel: LabelMap;
  anonymityFlagged: number;
}

/** Counts `vote_ballots` against `deliberation_labels`. */
export function countBallots(state: State): CountedVotes {
  const votes = inParticipantOrder(state, state.vote_ballots, (v) => v.modelKey);
  return {
    votes,
    tally: tallyLetterVotes(votes, new Set(Object.keys(state.deliberation_labels))),
    labelToModel: labelToModel(state, state.deliberation_labels),
    anonymityFlagged: votes.filter((v) => v.anonymityBreach.length > 0).length,
  };
}

/** The seeds' §F error when no vote counted. */
export const ALL_VOTES_INVALID = { code: "all_votes_invalid", message: "All votes failed to parse." } as const;

/** The stage-1 answer of a participant (empty when it failed). */
export function answerOf(state: State, key: string): string {
  return state.deliberation_answers.find((a) => a.key === key)?.response ?? "";
}
