import { Annotation } from "@langchain/langgraph";
import { accumulated, appended, replace } from "./channels.js";
import { ROUNDS, type Ballot, type Convergence, type DebateStatus, type Turn } from "./debate.js";
import type { DeliberationMode } from "./formats.js";
import type { Participant } from "./participants.js";
import type { Continuation } from "./continuation.js";
import { sharedChannels } from "./shared.js";

/** Round answers with `added` merged in, round by round (the reducer of `debate_round_responses`). */
export function mergeRoundResponses(
  current: Record<number, Record<string, string>>,
  added: Record<number, Record<string, string>>,
): Record<number, Record<string, string>> {
  const merged = { ...current };
  for (const [round, answers] of Object.entries(added)) merged[Number(round)] = { ...current[Number(round)], ...answers };
  return merged;
}

/**
 * The top graph's state: the message and where it goes, the keys it shares with the format
 * subgraphs (each of which has its own state: state/vote.ts, state/revise.ts, …), and /debatt's
 * own keys. Every key is declared: LangGraph drops undeclared keys silently.
 */
export const GraphState = Annotation.Root({
  /** The user's message, e.g. `/debatt Bör AI regleras?` (input). */
  message: replace<string>(() => ""),
  /** Where resolve_intent sent the message. */
  route: replace<"debate" | "compare" | DeliberationMode | "supervisor" | "continue" | "usage" | null>(() => null),
  /** A follow-up to one participant of a finished run (input; null for any other message). */
  continuation: replace<Continuation | null>(() => null),
  ...sharedChannels,

  /** True for /dvoice: the debate is also spoken (audio comes with the voice pipeline). */
  voice_mode: replace<boolean>(() => false),
  /** Id of this debate run (sent in `debate-init` as `debate_id`). */
  debate_id: replace<string | null>(() => null),
  /** Seed of the per-round shuffles, fixed at planning so a resumed run keeps its orders. */
  debate_seed: replace<number>(() => 0),
  /** The debaters of this run, in roster order. */
  debate_participants: replace<Participant[]>(() => []),
  /** The debate topic (the message without its command). */
  debate_topic: replace<string | null>(() => null),
  /** Round in progress: 1–3 spoken, 4 the vote. */
  debate_current_round: replace<number | null>(() => null),
  /** Speaking order (participant keys) of each spoken round, drawn when the round starts. */
  debate_round_order: replace<Record<number, string[]>>(() => ({})),
  /** Index into the current round's order of the next speaker. */
  debate_turn_index: replace<number>(() => 0),
  /**
   * Answers per round, by display name, in speaking order (round → display name → answer).
   * Each turn writes only its own answer, merged in here, so a step's write stays small however
   * long the debate grows (the planner resets it with Overwrite).
   */
  debate_round_responses: accumulated<Record<number, Record<string, string>>>(mergeRoundResponses, () => ({})),
  /** Every turn of rounds 1–3, including failed ones; each turn appends its own (reset by the planner). */
  debate_turns: appended<Turn>(),
  /** Ballots of the parallel vote; each vote task appends its own (reset by the planner). */
  debate_votes: appended<Ballot>(),
  /** Words spoken per participant over all rounds (the tiebreak). */
  debate_word_counts: replace<Record<string, number>>(() => ({})),
  /** Status life cycle: initializing → round_1 → … → complete (or error). */
  debate_status: replace<DebateStatus | null>(() => null),
  /** Characters of another participant's answer a speaker or voter is shown (the run's `context_chars`). */
  debate_context_chars: replace<number>(() => 600),
  /** Word limit of each spoken round (1–3), fixed at planning: /dvoice's come from the voice settings. */
  debate_word_limits: replace<number[]>(() => ROUNDS.map((r) => r.words)),
  /** /dvoice paced: each speaker's text waits until the previous speaker's audio starts playing. */
  debate_voice_paced: replace<boolean>(() => false),
  /** Epoch ms by which the whole vote round must have finished. */
  debate_vote_deadline: replace<number | null>(() => null),
  /** Computed vote results and the model's convergence analysis. */
  debate_results: replace<Convergence | null>(() => null),
  /** The final synthesis text (markdown, beginning with the debate-arena-data block). */
  debate_synthesis: replace<string | null>(() => null),
  /** Why a debate stopped early, if it did. */
  debate_error: replace<string | null>(() => null),
});

/** The state as nodes see it. */
export type State = typeof GraphState.State;
/** A partial update a node returns. */
export type StateUpdate = typeof GraphState.Update;
