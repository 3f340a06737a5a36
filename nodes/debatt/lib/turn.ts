import { HumanMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../../ports/emit.js";
import type { NodeDeps, RunContext } from "../../../ports/node-deps.js";
import type { Turn } from "../../../state/debate.js";
import type { State } from "../../../state/graph-state.js";
import type { Participant } from "../../../state/participants.js";
import { countWords, preview } from "../../../state/text.js";
import { usageOfAnswer } from "../../../state/usage.js";
import { notesFields, type Source } from "../../../state/answer.js";
import { DeltaCoalescer } from "../../shared/delta-coalescer.js";
import { answerOrFailure, streamMessage } from "../../shared/model-call.js";
import { buildContextChain } from "./context-chain.js";
import { researchForTurn } from "./oneseek-research.js";
import { participantConversation, type DebateSoFar } from "./conversation.js";
import type { VoiceRuns } from "./voice-runs.js";
import { answerTokens } from "../../../state/run-config.js";

/** One participant's turn: start event, streamed answer (deltas), end event. Never throws for a model failure. */
export async function runTurn(
  deps: NodeDeps,
  ctx: RunContext,
  config: LangGraphRunnableConfig,
  debate: DebateSoFar,
  p: Participant,
  round: number,
  position: number,
): Promise<{ turn: Turn; text: string }> {
  const who = { model: p.display, model_key: p.key, round };
  emit(config, "debate_participant_start", { ...who, position });
  const started = performance.now();
  const topic = debate.topic;
  const coalescer = new DeltaCoalescer((delta) => emit(config, "debate_participant_delta", { ...who, delta }), ctx.coalesceMs);
  let researched: Source[] = [];
  const { text, error, answer, notes } = await answerOrFailure(ctx.run.responseTimeoutMs, config.signal, coalescer, async (signal, onDelta) => {
    // Only OneSeek's research reads the context chain (the others' prompts are their conversations).
    const research = p.oneseek
      ? await researchForTurn(deps, ctx, {
          oneseek: p,
          topic,
          round,
          context: buildContextChain(topic, round, debate.responses, debate.contextChars),
          date: ctx.today(),
          signal,
        })
      : null;
    const messages = participantConversation(ctx, debate, p, round);
    // OneSeek's research comes after the round's instruction: later calls leave it out, and their prefix stays the same.
    if (research) {
      messages.push(new HumanMessage(research.prompt));
      researched = research.sources;
    }
    const model = deps.models.create({ phase: "turn", participant: p, round, topic, maxTokens: answerTokens(ctx.run, "debatt"), reasoning: ctx.run.reasoning });
    return streamMessage(model, messages, signal, onDelta);
  });
  const latency = Math.round(performance.now() - started);
  const usage = answer && usageOfAnswer(p.model, answer, ctx.prices);
  const ok = error === undefined;
  // OneSeek's kept search results are its sources too, after those its provider gave (which its `[n]` count).
  if (researched.length > 0) {
    const given = notes.sources ?? [];
    notes.sources = [...given, ...researched.filter((r) => !given.some((s) => s.url === r.url))];
  }
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
    ...notesFields(notes),
  });
  const turn: Turn = {
    round,
    position,
    key: p.key,
    display: p.display,
    status: ok ? "ok" : "error",
    word_count,
    latency_ms: latency,
    ...(ok ? {} : { error, partial_text: text }),
    ...notesFields(notes),
  };
  return { turn, text };
}

/** /dvoice: an answered turn is spoken in the background while the debate goes on. */
export async function speakTurn(
  voice: VoiceRuns,
  state: Pick<State, "voice_mode" | "debate_id" | "debate_topic"> & { asked?: string },
  config: LangGraphRunnableConfig,
  ctx: RunContext,
  speaker: Participant,
  round: number,
  turn: Turn,
  text: string,
): Promise<void> {
  if (!state.voice_mode || turn.status !== "ok") return;
  const queue = await voice.queueFor(state.debate_id ?? "", state.asked || (state.debate_topic ?? ""), config, ctx.log);
  if (queue) queue.enqueue(speaker, round, text);
  else emit(config, "debate_voice_error", { model: speaker.display, round, error: "no speech provider is configured" });
}

/**
 * What a sequential round's finished turn adds to the state: its answer (when answered), the turn,
 * and the speaker's word total (only answered turns count towards it: the totals break ties).
 */
export function turnUpdate(
  state: Pick<State, "debate_word_counts">,
  turn: Turn,
  text: string,
): { debate_round_responses: Record<number, Record<string, string>>; debate_turns: Turn[]; debate_word_counts: Record<string, number> } {
  const ok = turn.status === "ok";
  return {
    debate_round_responses: ok ? { [turn.round]: { [turn.display]: text } } : {},
    debate_turns: [turn],
    debate_word_counts: { ...state.debate_word_counts, [turn.display]: (state.debate_word_counts[turn.display] ?? 0) + (ok ? turn.word_count : 0) },
  };
}
