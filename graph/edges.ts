import { END, Send } from "@langchain/langgraph";
import type { TurnTask, VoteTask } from "../state/debate.js";
import { isFormatId, type FormatId } from "../state/formats.js";
import type { State } from "../state/graph-state.js";
import { truncate } from "../state/text.js";
import { isPerson } from "../state/person.js";

/** Spoken rounds before the vote. */
const SPOKEN_ROUNDS = 3;

/** After resolve_intent: the debate, a format's subgraph, the supervisor's chat, or the end (a usage message was sent). */
export function routeAfterIntent(state: State): "debate_domain_planner" | FormatId | "supervisor" | "continue_answer" | typeof END {
  if (state.route === "debate") return "debate_domain_planner";
  if (state.route === "supervisor") return "supervisor";
  if (state.route === "continue") return "continue_answer";
  // Every other format runs in its subgraph, mounted under its name.
  if (state.route && isFormatId(state.route)) return state.route;
  return END;
}

/** After the planner: into round 1, or the end when the participants were invalid. */
export function routeAfterPlanner(state: State): "debate_round_executor" | typeof END {
  return state.debate_status === "error" ? END : "debate_round_executor";
}

/**
 * After the executor's step: the next round (a loop, one round per step; the person's turn, when
 * they joined, in a step of its own), or in a simultaneous debate every turn
 * of the round just opened (one `Send` per participant); the parallel vote (debate_vote, a call per
 * participant, see `voteTasks`); or the end when a round had too few answers.
 */
export function routeAfterTurn(state: State): "debate_round_executor" | "debate_person_turn" | "debate_vote" | "debate_voice_pipeline" | Send[] | typeof END {
  if (state.debate_status === "error") return afterDebate(state);
  const round = state.debate_current_round ?? 1;
  if (round <= SPOKEN_ROUNDS && state.options.order === "simultaneous") {
    const byKey = new Map(state.debate_participants.map((p) => [p.key, p]));
    return (state.debate_round_order[round] ?? []).map(
      (key, i) =>
        new Send("debate_turn", {
          speaker: byKey.get(key)!,
          round,
          position: i + 1,
          topic: state.debate_topic ?? "",
          asked: state.asked,
          participants: state.debate_participants,
          responses: state.debate_round_responses,
          word_limits: state.debate_word_limits,
          voice_mode: state.voice_mode,
          debate_id: state.debate_id,
        } satisfies TurnTask),
    );
  }
  if (round <= SPOKEN_ROUNDS) {
    // The person who joined is next: their own step waits for them.
    const next = state.debate_participants.find((p) => p.key === state.debate_round_order[round]?.[state.debate_turn_index]);
    return next && isPerson(next) ? "debate_person_turn" : "debate_round_executor";
  }
  return "debate_vote";
}

/** The parallel vote: one call per participant, every voter shown the same answers, cut once. */
export function voteTasks(state: State): VoteTask[] {
  const responses = shortened(state.debate_round_responses, state.debate_context_chars);
  return state.debate_participants.map((voter) => ({
    voter,
    participants: state.debate_participants,
    topic: state.debate_topic ?? "",
    debate: { orders: state.debate_round_order, responses, simultaneous: state.options.order === "simultaneous", wordLimits: state.debate_word_limits },
    deadline: state.debate_vote_deadline ?? Date.now(),
  }));
}

/** The answers as voters are shown them, cut to `chars` (once for every voter). */
function shortened(responses: Record<number, Record<string, string>>, chars: number): Record<number, Record<string, string>> {
  return Object.fromEntries(
    Object.entries(responses).map(([round, answers]) => [
      round,
      Object.fromEntries(Object.entries(answers).map(([name, text]) => [name, truncate(text, chars)])),
    ]),
  );
}

/** After the synthesis (or a debate that ended early): /dvoice finishes its audio, /debatt ends. */
export function afterDebate(state: State): "debate_voice_pipeline" | typeof END {
  return state.voice_mode ? "debate_voice_pipeline" : END;
}

/**
 * The graph's step limit, an upper bound on the steps one debate takes: resolve_intent, the
 * planner, at most a step per turn (a sequential round is one step, split only around the person's
 * turn; a simultaneous round takes two), the vote, convergence, synthesis and the voice pipeline;
 * plus headroom. A person who joins takes one more seat and up to two more steps a round (the step
 * that hands over to them, and the round's close after them). The formats' subgraphs run under the
 * same limit.
 */
export function recursionLimitFor(participants: number, person = false): number {
  return 2 + SPOKEN_ROUNDS * (participants + (person ? 3 : 0)) + 4 + 5;
}
