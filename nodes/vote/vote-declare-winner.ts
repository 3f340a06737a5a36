import { AIMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { VoteStateType, VoteUpdate, VoteWinnerResult } from "../../state/vote.js";

/**
 * vote_declare_winner: declares the plurality winner (or the chairman's pick) and outputs its
 * ORIGINAL, unmodified answer; that answer is also the conversation's assistant message.
 */
export async function voteDeclareWinner(state: VoteStateType, config: LangGraphRunnableConfig): Promise<VoteUpdate> {
  const round = state.tally!;
  const tiebreak = state.tiebreaker;
  const label = tiebreak?.votedFor ?? Object.entries(round.tallies).sort(([, a], [, b]) => b - a)[0][0];
  const key = state.labels[label];
  const answer = state.answers.find((a) => a.key === key)!;
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
  return { winner, answer: answer.response, messages: [new AIMessage(answer.response)] };
}
