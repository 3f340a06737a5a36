import { AIMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { VoteWinnerResult } from "../../state/deliberation.js";
import type { State, StateUpdate } from "../../state/graph-state.js";

/**
 * vote_declare_winner: declares the plurality winner (or the chairman's pick) and outputs its ORIGINAL,
 * unmodified answer (seed 001 §A.4); that answer is also the conversation's assistant message.
 */
export async function voteDeclareWinner(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
  const round = state.vote_round!;
  const tiebreak = state.vote_tiebreaker;
  const label = tiebreak?.votedFor ?? Object.entries(round.tallies).sort(([, a], [, b]) => b - a)[0][0];
  const key = state.deliberation_labels[label];
  const answer = state.deliberation_answers.find((a) => a.key === key)!;
  const winner: VoteWinnerResult = {
    winnerLabel: label,
    winnerModel: answer.model,
    winnerResponse: answer.response,
    voteCount: round.tallies[label] ?? 0,
    totalVotes: round.validVoteCount,
    tiebroken: tiebreak !== null,
    ...(tiebreak ? { tiebreakerModel: tiebreak.model } : {}),
    winnerDisplay: answer.display,
  };
  emit(config, "winner_declared", { data: winner });
  return { vote_winner: winner, messages: [new AIMessage(answer.response)] };
}
