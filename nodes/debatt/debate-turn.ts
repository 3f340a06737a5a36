import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { NodeDeps } from "../../ports/node-deps.js";
import type { TurnTask } from "../../state/debate.js";
import type { StateUpdate } from "../../state/graph-state.js";
import { runTurn, speakTurn } from "./lib/turn.js";
import type { VoiceRuns } from "./lib/voice-runs.js";
import { askTurn } from "./lib/person.js";
import { isPerson } from "../../state/person.js";

/**
 * debate_turn: one participant's turn in a simultaneous round, run at once for every participant
 * through `Send`. Each sees the topic and every earlier round, not this one. Its answer and turn
 * are merged into the state; the round executor closes the round when all are in. A checkpointed
 * run resumed mid-round asks only the turns that had not finished.
 */
export function makeDebateTurn(deps: NodeDeps, voice: VoiceRuns) {
  return async function debateTurn(task: TurnTask, config: LangGraphRunnableConfig): Promise<StateUpdate> {
    const ctx = await deps.context(config);
    const { speaker, round } = task;
    // The person who joined writes their own answer: the round waits for them (the others answer meanwhile).
    const { turn, text } = isPerson(speaker)
      ? askTurn(config, speaker, round, task.position, task.word_limits[round - 1], ctx.run.personTimeoutMs)
      : await runTurn(deps, ctx, config, debateOf(task, ctx.run.contextChars), speaker, round, task.position);
    // /dvoice: spoken in the order the answers finish.
    await speakTurn(
      voice,
      { voice_mode: task.voice_mode, debate_id: task.debate_id, debate_topic: task.topic, asked: task.asked },
      config,
      ctx,
      speaker,
      round,
      turn,
      text,
    );
    return { debate_turns: [turn], ...(turn.status === "ok" ? { debate_round_responses: { [round]: { [speaker.display]: text } } } : {}) };
  };
}

/** What a simultaneous turn's speaker sees: the topic and every earlier round, not this one. */
function debateOf(task: TurnTask, contextChars: number) {
  return {
    topic: task.topic,
    participants: task.participants,
    orders: {},
    responses: task.responses,
    simultaneous: true,
    contextChars,
    wordLimits: task.word_limits,
  };
}
