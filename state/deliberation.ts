import { z } from "zod";
import type { Participant } from "./participants.js";

/**
 * Types of the seed formats (seeds 000, 001, 002, 004) as their documents define them. Payload
 * fields are camelCase like the seeds', so a client written against a seed reads them unchanged.
 */

/** The deliberation formats beside /debatt and /compare. */
export type DeliberationMode = "vote" | "revise" | "deep" | "council";

/**
 * Each format's command, how many models it takes, and what a model named twice means: one
 * participant (`merge`), or two with their own answers and labels (`separate`, seed 000 §F).
 */
export const MODE_MODELS: Record<DeliberationMode, { command: string; min: number; max: number; duplicates: "merge" | "separate"; byDefault?: number }> = {
  vote: { command: "/vote", min: 3, max: 7, duplicates: "merge" },
  revise: { command: "/revise", min: 3, max: 6, duplicates: "separate" },
  // Seed 004 names no count; every round asks every debater, so four by default keeps it affordable.
  deep: { command: "/deep", min: 2, max: 6, duplicates: "merge", byDefault: 4 },
  // One judge per perspective; three perspectives by default.
  council: { command: "/council", min: 2, max: 6, duplicates: "merge", byDefault: 3 },
};

/** Label → model id, e.g. `{"Response A": "openai/gpt-5"}` (seed 001 LabelMap). */
export type LabelMap = Record<string, string>;

/** Per-request settings of a format (the seeds' `modeConfig`, normalised). */
export interface ModeConfig {
  /** Models or participants to ask (roster keys, display names or model ids). */
  models?: string[];
  /** The tiebreaking chairman (roster key, display name or model id). */
  chairman?: string;
  /** Per-call timeout in ms. */
  timeoutMs?: number;
  /** /revise: seed 002's anti-anchoring protocol in the revision prompt. */
  antiAnchoring?: boolean;
  /** /deep: most debate rounds (seed 004: default 3, at least min_rounds 2). */
  maxRounds?: number;
  /** /council: run seed 002's second round, where judges review each other's verdicts. */
  debate?: boolean;
  /** /council: how long a judge has for round 2 before its round-1 verdict stands (seed 002: 90 s). */
  round2TimeoutMs?: number;
}

/** One stage-1 answer as kept in state: ok or failed, with who gave it. */
export interface CollectedAnswer {
  key: string;
  display: string;
  model: string;
  status: "ok" | "error";
  response: string;
  responseTimeMs: number;
  error?: string;
}

/** A successful stage-1 answer (seed Stage1Response; `display` and `modelKey` added). */
export interface Stage1Response {
  model: string;
  response: string;
  responseTimeMs: number;
  display: string;
  modelKey: string;
}

/** One vote (seed 001 VoteResponse; `display`, `modelKey` and `anonymityBreach` added). */
export interface VoteResponse {
  model: string;
  voteText: string;
  /** "Response A", or null when the vote could not be parsed or the model failed. */
  votedFor: string | null;
  responseTimeMs: number;
  display: string;
  modelKey: string;
  /** Why the vote is missing (model error or timeout), when it is. */
  error?: string;
  /** Names of participants or vendors the vote's text mentions (it may be guessing authors). */
  anonymityBreach: string[];
}

/** The vote round (seed 001 VoteRoundResult; `anonymityFlagged` added). */
export interface VoteRoundResult {
  votes: VoteResponse[];
  tallies: Record<string, number>;
  labelToModel: LabelMap;
  validVoteCount: number;
  invalidVoteCount: number;
  isTie: boolean;
  tiedLabels: string[];
  /** Votes whose text names a participant or vendor. */
  anonymityFlagged: number;
}

/** The chairman's tiebreak (seed 001 TiebreakerResult; `attempts` and `fallback` added). */
export interface TiebreakerResult {
  model: string;
  voteText: string;
  votedFor: string;
  responseTimeMs: number;
  /** Model calls made: 1, or 2 after an unparsable first answer. */
  attempts: number;
  /** True when both answers were unparsable and the first tied label (alphabetically) was taken. */
  fallback: boolean;
}

/** The declared winner (seed 001 VoteWinnerResult; `winnerDisplay` added). */
export interface VoteWinnerResult {
  winnerLabel: string;
  winnerModel: string;
  winnerResponse: string;
  voteCount: number;
  totalVotes: number;
  tiebroken: boolean;
  tiebreakerModel?: string;
  winnerDisplay: string;
}

/** A /revise decision (seed 000). */
export type RevisionDecision = "REVISE" | "STAND" | "MERGE";

/** One model's revision (seed 000 RevisionResponse; `display`, `modelKey`, `revisionText`, `error` added). */
export interface RevisionResponse {
  model: string;
  decision: RevisionDecision | null;
  reasoning: string | null;
  originalResponse: string;
  revisedResponse: string;
  originalWordCount: number;
  revisedWordCount: number;
  responseTimeMs: number;
  parseSuccess: boolean;
  display: string;
  modelKey: string;
  /** The model's whole reply (DECISION, REASONING, REVISED RESPONSE); empty when the call failed. */
  revisionText: string;
  /** With anti-anchoring: the model's restatement of its own position, made before it saw the others. */
  restatement?: string;
  /** Why the revision is missing (model error or timeout), when it is. */
  error?: string;
}

/** Seed 000 RevisionSummary. */
export interface RevisionSummary {
  totalModels: number;
  revised: number;
  stood: number;
  merged: number;
  parseFailed: number;
}

/** Seed 000 DebateVoteResult (`anonymityFlagged` added). */
export interface DebateVoteResult {
  votes: VoteResponse[];
  tallies: Record<string, number>;
  revisedLabelToModel: LabelMap;
  validVoteCount: number;
  invalidVoteCount: number;
  isTie: boolean;
  tiedLabels: string[];
  anonymityFlagged: number;
}

/** Seed 000 DebateWinnerResult (`winnerDisplay` added). */
export interface DebateWinnerResult {
  winnerLabel: string;
  winnerModel: string;
  winnerResponse: string;
  winnerDecision: RevisionDecision | null;
  voteCount: number;
  totalVotes: number;
  tiebroken: boolean;
  tiebreakerMethod?: "alphabetical";
  winnerDisplay: string;
}

/** /deep: one debater's structured argument in one round (seed 004's debater JSON). */
export const DebaterArgumentSchema = z.object({
  stance: z.enum(["maintain", "concede", "partial_concede"]),
  key_points: z.array(z.string()),
  counterpoints: z.array(z.object({ target: z.string(), point: z.string(), evidence: z.string() })),
  revision: z.enum(["no_change", "minor_update", "major_revision"]),
  revised_position: z.string(),
  confidence: z.number().min(0).max(1),
});
export type DebaterArgumentJson = z.infer<typeof DebaterArgumentSchema>;

/** /deep: a debater's round as kept in state: its argument, or why it has none. */
export interface DebaterTurn {
  round: number;
  /** "A", "B", … (seed 004: Debater A/B/C). */
  label: string;
  modelKey: string;
  display: string;
  model: string;
  status: "ok" | "error";
  argument?: DebaterArgumentJson;
  responseTimeMs: number;
  error?: string;
}

/** /deep: the moderator's assessment of a round (seed 004's moderator JSON). */
export const ModeratorAssessmentSchema = z.object({
  should_stop: z.boolean(),
  agreement_score: z.number().min(0).max(1),
  new_points_ratio: z.number().min(0).max(1),
  consensus_answer: z.string().nullable(),
  remaining_disagreements: z.array(z.string()),
  next_round_focus: z.string().nullable(),
});
export type ModeratorAssessment = z.infer<typeof ModeratorAssessmentSchema>;

/** Why a /deep debate stopped after a round, or that it goes on. */
export type StopReason = "converged" | "all_no_change" | "max_rounds" | "continue";

/** /deep: one round's moderation: the assessment (null when the moderator failed) and the computed decision. */
export interface DeepRoundOutcome {
  round: number;
  assessment: ModeratorAssessment | null;
  moderatorError?: string;
  stop: boolean;
  reason: StopReason;
}

/** Seed 004's "Output to Stage 3". */
export interface DeepOutput {
  mode: "deep";
  rounds_completed: number;
  final_stances: { debater: string; stance: string; confidence: number; revised_position: string }[];
  convergence_status: {
    agreement_score: number | null;
    new_points_ratio: number | null;
    consensus_answer: string | null;
    remaining_disagreements: string[];
  };
  debate_log: string[];
}

/** /council: a judge's verdict (seed 002's JSON verdict block). */
export const VerdictSchema = z.object({
  judge: z.string(),
  verdict: z.enum(["PASS", "WARN", "FAIL"]),
  confidence: z.enum(["HIGH", "MEDIUM", "LOW"]),
  key_insight: z.string(),
  findings: z.array(z.object({ severity: z.enum(["critical", "significant", "minor"]), description: z.string() })),
  recommendation: z.string(),
});
export type Verdict = z.infer<typeof VerdictSchema>;

/** /council: one judge's verdict in one round, or why there is none. */
export interface JudgeRound {
  round: 1 | 2;
  modelKey: string;
  display: string;
  model: string;
  perspective: string;
  status: "ok" | "error" | "timeout";
  verdict?: Verdict;
  /** Round 2: the judge's restatement of its round-1 position, made before reviewing the others. */
  restatement?: string;
  /** Round 2: the specific detail the judge cites for changing its verdict (seed 002's evidence bar). */
  changeJustification?: string;
  /** Round 2: the verdict changed without a cited detail. */
  unjustifiedChange?: boolean;
  /** The judge's whole reply (round 2 continues the conversation that holds it). */
  text: string;
  responseTimeMs: number;
  error?: string;
}

/** /council: the consolidated result. */
export interface CouncilResult {
  /** The final verdict per judge, from round 2 or (timed out, failed, or no --debate) round 1. */
  verdicts: (Verdict & { modelKey: string; display: string; perspective: string; source: "round1" | "round2" })[];
  counts: Record<"PASS" | "WARN" | "FAIL", number>;
  /** Unanimous, else the majority, else (a tie) the more severe verdict. */
  consensus: "PASS" | "WARN" | "FAIL";
  unanimous: boolean;
  /** Round 2: not run, complete, partly replaced by round-1 fallbacks, or failed (round-1 only). */
  round2: "skipped" | "complete" | "partial" | "failed";
  /** Round 2's branch: whether round 1 was unanimous. */
  branch?: "agreed" | "disagreed";
  /** A note for the report, e.g. that round 2 failed and round 1 was used. */
  note?: string;
}

/** The public form of a stage-1 answer. */
export function stage1Response(a: CollectedAnswer): Stage1Response {
  return { model: a.model, response: a.response, responseTimeMs: a.responseTimeMs, display: a.display, modelKey: a.key };
}

/** Who a participant is in a seed payload. */
export function whoIs(p: Participant): { model: string; display: string; modelKey: string } {
  return { model: p.model, display: p.display, modelKey: p.key };
}
