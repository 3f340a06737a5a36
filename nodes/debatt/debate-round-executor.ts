import { task, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { VoiceRuns } from "./lib/voice-runs.js";
import type { NodeDeps, RunContext } from "../../ports/node-deps.js";
import { ROUNDS, type DebateStatus, type Turn } from "../../state/debate.js";
import { mergeRoundResponses, type State, type StateUpdate } from "../../state/graph-state.js";
import { runTurn, speakTurn, turnUpdate } from "./lib/turn.js";
import { isPerson } from "../../state/person.js";
import { debateSoFar } from "./lib/conversation.js";
import { shuffleForRound } from "../shared/shuffle.js";
import { asTheNode } from "../shared/node-writer.js";

/** A paced debate's waits (see VoiceRuns.paced); an unpaced debate's return at once. */
type Pace = ReturnType<VoiceRuns["paced"]>;
const UNPACED: Pace = { turn: () => Promise.resolve(), vote: () => Promise.resolve() };

/** Fewest answers a round needs for the debate to go on. */
export const MIN_ANSWERS_PER_ROUND = 2;

/**
 * debate_round_executor: runs the spoken rounds 1–3, each in a freshly shuffled order.
 *
 * Sequential (the default): a round per graph step (a loop edge back to itself), each turn a
 * LangGraph `task` of its own in that step (`debate_round_turn`), run one after the other; each
 * speaker sees the context chain, this round's earlier speakers included. LangGraph saves each
 * turn's result as it finishes, so a checkpointed thread resumed mid-round asks again only the
 * turns that had not finished (the others are neither asked nor announced again), while only the
 * round's end writes the state: the whole state is saved three times a debate, not after each turn.
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
    return sequentialStep(deps, voice, state, config, ctx, pace);
  };
}

/**
 * A sequential round from its next speaker on: each model's turn a task, until the round ends
 * (then it closes) or the person who joined is next (then their step follows).
 */
async function sequentialStep(
  deps: NodeDeps,
  voice: VoiceRuns,
  state: State,
  config: LangGraphRunnableConfig,
  ctx: RunContext,
  pace: Pace,
): Promise<StateUpdate> {
  const round = state.debate_current_round ?? 1;
  const byKey = new Map(state.debate_participants.map((p) => [p.key, p]));
  const opening = state.debate_turn_index === 0 || !state.debate_round_order[round];
  const { order, update } = opening ? drawRound(state, round) : { order: state.debate_round_order[round], update: {} };
  const first = opening ? 0 : state.debate_turn_index;
  const orders = { ...state.debate_round_order, [round]: order };
  // The round as it goes: each turn adds its answer, the next speaker sees it.
  const so = { responses: state.debate_round_responses, words: { ...state.debate_word_counts }, turns: [] as Turn[] };
  const asNode = asTheNode(config);
  // Made anew for each step: a turn's id comes from its place among the step's turns. Everything a
  // finished turn did (the round's announcement before the first, its audio) is skipped when its
  // result is taken from the checkpoint.
  const turnTask = task("debate_round_turn", async (index: number): Promise<{ turn: Turn; text: string }> => {
    await pace.turn();
    if (opening && index === first) announceRound(state, asNode, round, order);
    const speaker = byKey.get(order[index])!;
    const debate = debateSoFar({ ...state, debate_round_responses: so.responses }, orders, ctx.run.contextChars);
    const done = await runTurn(deps, ctx, asNode, debate, speaker, round, index + 1);
    // /dvoice: the answer is spoken in the background while the next participant thinks.
    await speakTurn(voice, state, asNode, ctx, speaker, round, done.turn, done.text);
    return done;
  });
  const sofar = (): StateUpdate => ({
    ...update,
    debate_turns: so.turns,
    debate_round_responses: { [round]: so.responses[round] ?? {} },
    debate_word_counts: so.words,
  });

  for (let index = first; index < order.length; index++) {
    // LangGraph stops racing a step against the run's stop once the step's first task has settled:
    // a stop that came as a turn ended ends the step before the next speaker starts or is handed over to.
    config.signal?.throwIfAborted();
    // The person writes their own turn, in a step of its own (`debate_person_turn`, which waits for them).
    if (isPerson(byKey.get(order[index])!)) {
      await pace.turn();
      if (opening && index === first) announceRound(state, config, round, order);
      return { ...sofar(), debate_turn_index: index };
    }
    const { turn, text } = await turnTask(index);
    const added = turnUpdate({ debate_word_counts: so.words }, turn, text);
    so.turns.push(turn);
    so.words = added.debate_word_counts;
    so.responses = mergeRoundResponses(so.responses, added.debate_round_responses);
  }
  // Every turn is in (the person's, when theirs was the round's last, in the step before this one).
  if (round === ROUNDS.length) await pace.vote();
  return { ...sofar(), ...closeRound(state, config, ctx, round, so.responses, order.length) };
}

/** Draws a spoken round's speaking order, returned with the update that keeps it. */
function drawRound(state: State, round: number): { order: string[]; update: StateUpdate } {
  const order = shuffleForRound(
    state.debate_participants.map((p) => p.key),
    state.debate_seed,
    round,
  );
  return {
    order,
    update: { debate_round_order: { ...state.debate_round_order, [round]: order }, debate_status: `round_${round}` as DebateStatus, debate_turn_index: 0 },
  };
}

/** Announces a spoken round and its speaking order. */
function announceRound(state: State, config: LangGraphRunnableConfig, round: number, order: string[]): void {
  const byKey = new Map(state.debate_participants.map((p) => [p.key, p]));
  emit(config, "debate_round_start", { round, type: ROUNDS[round - 1].type, order: order.map((k) => byKey.get(k)!.display) });
}

/** Opens a spoken round: draws its speaking order (returned with the update that keeps it) and announces it. */
function openRound(state: State, config: LangGraphRunnableConfig, round: number): { order: string[]; update: StateUpdate } {
  const drawn = drawRound(state, round);
  announceRound(state, config, round, drawn.order);
  return drawn;
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
