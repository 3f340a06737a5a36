import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { VoiceRuns } from "./lib/voice-runs.js";
import type { NodeDeps, RunContext } from "../../ports/node-deps.js";
import { ROUNDS, type DebateStatus } from "../../state/debate.js";
import { mergeRoundResponses, type State, type StateUpdate } from "../../state/graph-state.js";
import { runTurn, speakTurn, turnUpdate } from "./lib/turn.js";
import { isPerson } from "../../state/person.js";
import { debateSoFar } from "./lib/conversation.js";
import { shuffleForRound } from "../shared/shuffle.js";

/** A paced debate's waits (see VoiceRuns.paced); an unpaced debate's return at once. */
type Pace = ReturnType<VoiceRuns["paced"]>;
const UNPACED: Pace = { turn: () => Promise.resolve(), vote: () => Promise.resolve() };

/** Fewest answers a round needs for the debate to go on. */
export const MIN_ANSWERS_PER_ROUND = 2;

/**
 * debate_round_executor: runs the spoken rounds 1–3, each in a freshly shuffled order.
 *
 * Sequential (the default): one participant turn per graph step (a loop edge back to itself), so
 * a checkpointed thread resumes after the last completed turn and Studio shows every turn; each
 * speaker sees the context chain, this round's earlier speakers included.
 *
 * Simultaneous (`--order simultaneous`): this node opens a round, every participant answers it at
 * once in `debate_turn` (one `Send` each, seeing earlier rounds only), and this node then closes
 * it and opens the next.
 *
 * /dvoice paced: a turn (simultaneous: a round) starts only once the audio of the answer spoken
 * before it starts playing, and the vote only once all of it has played, so the text stays one
 * answer (simultaneous: one round) ahead of the sound at most.
 *
 * A failed turn is recorded and announced with status "error" and the round goes on; a round with
 * fewer than two answers ends the debate with an `error` event.
 *
 * A person who joined (`--with-me`) writes their own turn: when it comes, this step ends there and
 * `debate_person_turn` waits for them; after it, this node goes on with the next speaker (or closes
 * the round when theirs was the last turn).
 */
export function makeDebateRoundExecutor(deps: NodeDeps, voice: VoiceRuns) {
  return async function debateRoundExecutor(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
    const ctx = await deps.context(config);
    // /dvoice paced: nobody writes before the previous speaker's audio starts playing, and the
    // vote opens once everything has been heard; stalled speech holds a wait no longer than an answer may take.
    const pace = state.debate_voice_paced ? voice.paced(state.debate_id ?? "", ctx.run.responseTimeoutMs, config.signal) : UNPACED;
    if (state.options.order === "simultaneous") return simultaneousStep(state, config, ctx, pace);
    const round = state.debate_current_round ?? 1;
    const byKey = new Map(state.debate_participants.map((p) => [p.key, p]));
    let update: StateUpdate = {};
    let order = state.debate_round_order[round];
    await pace.turn();
    if (state.debate_turn_index === 0 || !order) {
      ({ order, update } = openRound(state, config, round));
    }

    const index = state.debate_turn_index;
    // The person's turn (`debate_person_turn`) was the round's last: the round closes without another.
    if (index >= order.length) return { ...update, ...closeRound(state, config, ctx, round, state.debate_round_responses, order.length) };
    const speaker = byKey.get(order[index])!;
    // The person writes their own turn, in a step of its own (`debate_person_turn`, which waits for them).
    if (isPerson(speaker)) return update;
    const debate = debateSoFar(state, { ...state.debate_round_order, [round]: order }, ctx.run.contextChars);
    const { turn, text } = await runTurn(deps, ctx, config, debate, speaker, round, index + 1);
    // /dvoice: the answer is spoken in the background while the next participant thinks.
    await speakTurn(voice, state, config, ctx, speaker, round, turn, text);
    const turned = { ...update, ...turnUpdate(state, turn, text) };

    if (index + 1 < order.length) return { ...turned, debate_turn_index: index + 1 };
    if (round === ROUNDS.length) await pace.vote();
    return {
      ...turned,
      ...closeRound(state, config, ctx, round, mergeRoundResponses(state.debate_round_responses, turned.debate_round_responses), order.length),
    };
  };
}

/** Opens a spoken round: draws its speaking order (returned with the update that keeps it) and announces it. */
function openRound(state: State, config: LangGraphRunnableConfig, round: number): { order: string[]; update: StateUpdate } {
  const byKey = new Map(state.debate_participants.map((p) => [p.key, p]));
  const order = shuffleForRound(
    state.debate_participants.map((p) => p.key),
    state.debate_seed,
    round,
  );
  emit(config, "debate_round_start", { round, type: ROUNDS[round - 1].type, order: order.map((k) => byKey.get(k)!.display) });
  return {
    order,
    update: { debate_round_order: { ...state.debate_round_order, [round]: order }, debate_status: `round_${round}` as DebateStatus, debate_turn_index: 0 },
  };
}

/**
 * Closes a spoken round: announces its end, stops the debate when too few answered, else moves on
 * to the next round or, after round 3, opens the vote (round 4) with the context every voter sees.
 */
function closeRound(
  state: State,
  config: LangGraphRunnableConfig,
  ctx: RunContext,
  round: number,
  responses: Record<number, Record<string, string>>,
  speakers: number,
): StateUpdate {
  const answered = Object.keys(responses[round] ?? {}).length;
  emit(config, "debate_round_end", { round, participant_count: answered });
  if (answered < MIN_ANSWERS_PER_ROUND) {
    const message = `only ${answered} of ${speakers} participants answered round ${round}; a debate needs at least ${MIN_ANSWERS_PER_ROUND}`;
    emit(config, "error", { code: "too_few_answers", message });
    return { debate_turn_index: 0, debate_status: "error", debate_error: message };
  }
  if (round < ROUNDS.length) return { debate_turn_index: 0, debate_current_round: round + 1 };

  emit(config, "debate_round_start", {
    round: 4,
    type: "voting",
    order: state.debate_participants.map((p) => p.display),
  });
  return {
    debate_turn_index: 0,
    debate_current_round: 4,
    debate_status: "voting",
    debate_vote_deadline: Date.now() + ctx.run.voteRoundTimeoutMs,
  };
}

/**
 * A simultaneous debate's step: before a round's answers are in, it opens the round (the
 * `debate_turn` tasks follow); once they are in (every task wrote its turn), it adds the round's
 * words to the totals, closes the round and opens the next (paced: once the sound has caught up).
 */
async function simultaneousStep(state: State, config: LangGraphRunnableConfig, ctx: RunContext, pace: Pace): Promise<StateUpdate> {
  const round = state.debate_current_round ?? 1;
  const turns = state.debate_turns.filter((t) => t.round === round);
  if (turns.length === 0) return openRound(state, config, round).update;
  const words = { ...state.debate_word_counts };
  for (const t of turns) if (t.status === "ok") words[t.display] = (words[t.display] ?? 0) + t.word_count;
  await (round === ROUNDS.length ? pace.vote() : pace.turn());
  const closed = closeRound(state, config, ctx, round, state.debate_round_responses, turns.length);
  const next = round + 1;
  const opened = closed.debate_status !== "error" && next <= ROUNDS.length ? openRound(state, config, next).update : {};
  return { ...closed, ...opened, debate_word_counts: words };
}
