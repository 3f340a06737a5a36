import { z } from "zod";
import { notesFields, type AnswerNotes } from "./answer.js";
import { AnswerNotesShape } from "./answer-schema.js";
import { UsageSchema, type Usage } from "./usage.js";
import { appended, replace } from "./channels.js";
import type { Participant } from "./participants.js";
import { FormatInput, FormatOutput } from "./shared.js";

/**
 * What the deliberation formats (/vote, /revise, /deep, /council) have in common: who takes part,
 * the first answers, the anonymous labels, the vote payloads, and the helpers over them. Payload
 * fields are camelCase and keep the names and shapes these formats' clients expect, so such a
 * client reads them unchanged; a field noted as "added" is an extension of the base payload.
 */

/** Who a deliberation-format payload is about. */
export const WhoSchema = z.object({ model: z.string(), display: z.string(), modelKey: z.string() });
export type Who = z.infer<typeof WhoSchema>;

/** Who a participant is in a deliberation-format payload. */
export function whoIs(p: Pick<Participant, "model" | "display" | "key">): Who {
  return { model: p.model, display: p.display, modelKey: p.key };
}

/** Label → model id, e.g. `{"Response A": "openai/gpt-5"}`. */
export const LabelMapSchema = z.record(z.string(), z.string());
export type LabelMap = z.infer<typeof LabelMapSchema>;

/** One stage-1 answer as kept in state: ok or failed, with who gave it, its reasoning, sources and a cut ending when it had them. */
export interface CollectedAnswer extends AnswerNotes {
  key: string;
  display: string;
  model: string;
  status: "ok" | "error";
  response: string;
  responseTimeMs: number;
  error?: string;
  /** What the call used, when the provider said. */
  usage?: Usage;
}

/** A successful stage-1 answer (`display`, `modelKey`, `usage` and the answer's notes `reasoning`, `sources`, `ending` added). */
export const Stage1ResponseSchema = z.object({
  model: z.string(),
  response: z.string(),
  responseTimeMs: z.number().int(),
  display: z.string(),
  modelKey: z.string(),
  usage: UsageSchema.optional(),
  ...AnswerNotesShape,
});
export type Stage1Response = z.infer<typeof Stage1ResponseSchema>;

/** The public form of a stage-1 answer. */
export function stage1Response(a: CollectedAnswer): Stage1Response {
  return {
    model: a.model,
    response: a.response,
    responseTimeMs: a.responseTimeMs,
    display: a.display,
    modelKey: a.key,
    ...(a.usage ? { usage: a.usage } : {}),
    ...notesFields(a),
  };
}

/** One vote (`display`, `modelKey` and `anonymityBreach` added). */
export const VoteResponseSchema = z.object({
  ...WhoSchema.shape,
  voteText: z.string(),
  /** "Response A", or null when the vote could not be parsed or the model failed. */
  votedFor: z.string().nullable(),
  responseTimeMs: z.number().int(),
  /** Why the vote is missing (model error or timeout), when it is. */
  error: z.string().optional(),
  /** Names of participants or vendors the vote's text mentions (it may be guessing authors). */
  anonymityBreach: z.array(z.string()),
  /** What the call used (added), when the provider said. */
  usage: UsageSchema.optional(),
});
export type VoteResponse = z.infer<typeof VoteResponseSchema>;

/** A counted vote, the part /vote's VoteRoundResult and /revise's DebateVoteResult share (no label map). */
export const CountedVotesSchema = z.object({
  votes: z.array(VoteResponseSchema),
  tallies: z.record(z.string(), z.number().int()),
  validVoteCount: z.number().int(),
  invalidVoteCount: z.number().int(),
  isTie: z.boolean(),
  tiedLabels: z.array(z.string()),
  /** Votes whose text names a participant or vendor. */
  anonymityFlagged: z.number().int(),
});

/** The fields every declared winner of /vote and /revise has (`winnerDisplay` added). */
export const WinnerSchema = z.object({
  winnerLabel: z.string(),
  winnerModel: z.string(),
  winnerResponse: z.string(),
  voteCount: z.number().int(),
  totalVotes: z.number().int(),
  tiebroken: z.boolean(),
  winnerDisplay: z.string(),
});

/** The channels of every deliberation format: who takes part, the per-call timeout, and why a run stopped early. */
export const panelChannels = {
  /** Who answers (and votes, argues or judges), resolved from the request and the roster. */
  members: replace<Participant[]>(() => []),
  /** Per-call timeout in ms. */
  timeout_ms: replace<number>(() => 0),
  /** Why the run stopped early (the `error` event was sent). */
  error: replace<string | null>(() => null),
};

/** Every deliberation format's state starts with these: the keys shared with the top graph, and the panel's. */
export const deliberationChannels = { ...FormatInput.spec, ...FormatOutput.spec, ...panelChannels };

/**
 * The channel of the formats whose final text a model writes, with a computed stand-in when that
 * model fails (/deep's synthesis, /council's report): why it failed, or null when the model wrote it.
 */
export const finalTextChannels = {
  final_error: replace<string | null>(() => null),
};

/** The channels of the formats that start with every member's answer: the answers and their current labels. */
export const answerChannels = {
  /** The first answers, one update per member. */
  answers: appended<CollectedAnswer>(),
  /** The current anonymisation, label → participant key ("Response A" → call_gpt). */
  labels: replace<Record<string, string>>(() => ({})),
};

/** The part of a deliberation format's state the shared helpers read. */
export interface PanelState {
  members: Participant[];
}

/** Items in the order of the run's members (parallel tasks finish in any order). */
export function inParticipantOrder<T>(state: PanelState, items: readonly T[], keyOf: (item: T) => string): T[] {
  const order = new Map(state.members.map((p, i) => [p.key, i]));
  return [...items].sort((a, b) => order.get(keyOf(a))! - order.get(keyOf(b))!);
}

/** A label map with model ids (`LabelMap`, as payloads carry it) from one with participant keys. */
export function labelToModel(state: PanelState, labels: Record<string, string>): LabelMap {
  const byKey = new Map(state.members.map((p) => [p.key, p.model]));
  return Object.fromEntries(Object.entries(labels).map(([label, key]) => [label, byKey.get(key)!]));
}

/** The stage-1 answer of a member (empty when it failed). */
export function answerOf(state: { answers: readonly CollectedAnswer[] }, key: string): string {
  return state.answers.find((a) => a.key === key)?.response ?? "";
}
