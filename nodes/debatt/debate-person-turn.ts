import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { NodeDeps } from "../../ports/node-deps.js";
import type { State, StateUpdate } from "../../state/graph-state.js";
import { isPerson } from "../../state/person.js";
import { askTurn } from "./lib/person.js";
import { turnUpdate } from "./lib/turn.js";

/**
 * debate_person_turn: in a sequential round, the turn of the person who joined the debate
 * (`--with-me`). The graph waits (LangGraph's `interrupt`, checkpointed) until the run resumes
 * with their text, or with a skip when they pass or their time runs out; the turn is then
 * announced and kept like a model's, and `debate_round_executor` goes on with the next speaker.
 */
export function makeDebatePersonTurn(deps: NodeDeps) {
  return async function debatePersonTurn(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
    const ctx = await deps.context(config);
    const round = state.debate_current_round ?? 1;
    const index = state.debate_turn_index;
    const person = state.debate_participants.find(isPerson)!;
    const { turn, text } = askTurn(config, person, round, index + 1, state.debate_word_limits[round - 1], ctx.run.personTimeoutMs);
    return { ...turnUpdate(state, turn, text), debate_turn_index: index + 1 };
  };
}
