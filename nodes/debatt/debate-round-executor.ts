import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { DeltaCoalescer } from "../shared/delta-coalescer.js";
import { emit } from "../../ports/emit.js";
import type { VoiceRuns } from "./lib/voice-runs.js";
import type { NodeDeps, RunContext } from "../../ports/node-deps.js";
import { ROUNDS, type DebateStatus, type Turn } from "../../state/debate.js";
import { mergeRoundResponses, type State, type StateUpdate } from "../../state/graph-state.js";
import type { Participant } from "../../state/participants.js";
import { buildContextChain } from "./lib/context-chain.js";
import { answerOrFailure, streamMessage } from "../shared/model-call.js";
import { usageOfAnswer } from "../../state/usage.js";
import { researchForTurn } from "./lib/oneseek-research.js";
import { participantMessages } from "./lib/participant-prompts.js";
import { shuffleForRound } from "../shared/shuffle.js";
import { countWords, preview } from "../../state/text.js";

/** Fewest answers a round needs for the debate to go on. */
export const MIN_ANSWERS_PER_ROUND = 2;

/**
 * debate_round_executor: one participant turn per graph step (a loop edge back to itself), so a
 * checkpointed thread resumes after the last completed turn and Studio shows every turn.
 * Rounds 1–3 are strictly sequential in a freshly shuffled order per round; each speaker sees
 * the context chain. A failed turn is recorded and announced with status "error" and the round
 * goes on; a round with fewer than two answers ends the debate with an `error` event.
 */
export function makeDebateRoundExecutor(deps: NodeDeps, voice: VoiceRuns) {
  return async function debateRoundExecutor(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
    const ctx = await deps.context(config);
    const round = state.debate_current_round ?? 1;
    const spec = ROUNDS[round - 1];
    const byKey = new Map(state.debate_participants.map((p) => [p.key, p]));
    const update: StateUpdate = {};

    let order = state.debate_round_order[round];
    if (state.debate_turn_index === 0 || !order) {
      order = shuffleForRound(state.debate_participants.map((p) => p.key), state.debate_seed, round);
      update.debate_round_order = { ...state.debate_round_order, [round]: order };
      update.debate_status = `round_${round}` as DebateStatus;
      emit(config, "debate_round_start", { round, type: spec.type, order: order.map((k) => byKey.get(k)!.display) });
    }

    const index = state.debate_turn_index;
    const speaker = byKey.get(order[index])!;
    const { turn, text } = await runTurn(deps, ctx, config, state, speaker, round, index + 1, spec.words);
    // /dvoice: the answer is spoken in the background while the next participant thinks.
    if (state.voice_mode && turn.status === "ok") {
      const queue = await voice.queueFor(state.debate_id ?? "", state.debate_topic ?? "", config, ctx.log);
      if (queue) queue.enqueue(speaker, round, text);
      else emit(config, "debate_voice_error", { model: speaker.display, round, error: "no speech provider is configured" });
    }

    const added = turn.status === "ok" ? { [round]: { [speaker.display]: text } } : {};
    update.debate_round_responses = added;
    update.debate_turns = [turn];
    // Only answered turns count towards the totals (they break ties): a failed turn's words do not.
    update.debate_word_counts = {
      ...state.debate_word_counts,
      [speaker.display]: (state.debate_word_counts[speaker.display] ?? 0) + (turn.status === "ok" ? turn.word_count : 0),
    };

    if (index + 1 < order.length) return { ...update, debate_turn_index: index + 1 };

    // The round is complete.
    const responses = mergeRoundResponses(state.debate_round_responses, added);
    const answered = Object.keys(responses[round] ?? {}).length;
    emit(config, "debate_round_end", { round, participant_count: answered });
    if (answered < MIN_ANSWERS_PER_ROUND) {
      const message = `only ${answered} of ${order.length} participants answered round ${round}; a debate needs at least ${MIN_ANSWERS_PER_ROUND}`;
      emit(config, "error", { code: "too_few_answers", message });
      return { ...update, debate_turn_index: 0, debate_status: "error", debate_error: message };
    }
    if (round < ROUNDS.length) return { ...update, debate_turn_index: 0, debate_current_round: round + 1 };

    emit(config, "debate_round_start", {
      round: 4,
      type: "voting",
      order: state.debate_participants.map((p) => p.display),
    });
    return {
      ...update,
      debate_turn_index: 0,
      debate_current_round: 4,
      debate_status: "voting",
      debate_vote_context: buildContextChain(state.debate_topic ?? "", 4, responses, ctx.run.contextChars),
      debate_vote_deadline: Date.now() + ctx.run.voteRoundTimeoutMs,
    };
  };
}

/** One participant's turn: start event, streamed answer (deltas), end event. Never throws for a model failure. */
async function runTurn(
  deps: NodeDeps,
  ctx: RunContext,
  config: LangGraphRunnableConfig,
  state: State,
  p: Participant,
  round: number,
  position: number,
  words: number,
): Promise<{ turn: Turn; text: string }> {
  const who = { model: p.display, model_key: p.key, round };
  emit(config, "debate_participant_start", { ...who, position });
  const started = performance.now();
  const topic = state.debate_topic ?? "";
  const coalescer = new DeltaCoalescer((delta) => emit(config, "debate_participant_delta", { ...who, delta }), ctx.coalesceMs);
  const { text, error, answer } = await answerOrFailure(ctx.run.responseTimeoutMs, config.signal, coalescer, async (signal, onDelta) => {
    const context = buildContextChain(topic, round, state.debate_round_responses, ctx.run.contextChars);
    const research = p.oneseek ? await researchForTurn(deps, ctx, { oneseek: p, topic, round, context, date: ctx.today(), signal }) : null;
    const messages = participantMessages(ctx, {
      participant: p,
      participants: state.debate_participants,
      round,
      topic,
      context,
      wordLimit: words,
      research,
    });
    const model = deps.models.create({ phase: "turn", participant: p, round, topic, maxTokens: ctx.run.maxResponseTokens });
    return streamMessage(model, messages, signal, onDelta);
  });
  const latency = Math.round(performance.now() - started);
  const usage = answer && usageOfAnswer(p.model, answer, ctx.prices);
  const ok = error === undefined;
  if (!ok) ctx.log(`${p.display} failed in round ${round}: ${error}`);
  // A failed turn keeps what it streamed before it failed (the person has seen it): its words count.
  const word_count = countWords(text);
  emit(config, "debate_participant_end", {
    ...who,
    position,
    word_count,
    latency_ms: latency,
    response_preview: preview(text),
    status: ok ? "ok" : "error",
    ...(ok ? {} : { error }),
    ...(usage ? { usage } : {}),
  });
  const turn: Turn = { round, position, key: p.key, display: p.display, status: ok ? "ok" : "error", word_count, latency_ms: latency, ...(ok ? {} : { error, partial_text: text }) };
  return { turn, text };
}
