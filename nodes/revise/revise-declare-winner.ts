import { AIMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { DebateWinnerResult, ReviseStateType, ReviseUpdate } from "../../state/revise.js";

/**
 * revise_declare_winner: the plurality winner's REVISED answer is the result. A tie goes to the
 * first tied label alphabetically, with no chairman: peers only.
 */
export async function reviseDeclareWinner(state: ReviseStateType, config: LangGraphRunnableConfig): Promise<ReviseUpdate> {
  const vote = state.tally!;
  const label = vote.isTie ? [...vote.tiedLabels].sort()[0] : Object.entries(vote.tallies).sort(([, a], [, b]) => b - a)[0][0];
  const key = state.labels[label];
  const revision = state.revisions.find((r) => r.modelKey === key)!;
  const winner: DebateWinnerResult = {
    winnerLabel: label,
    winnerModel: revision.model,
    winnerResponse: revision.revisedResponse,
    winnerDecision: revision.decision,
    voteCount: vote.tallies[label] ?? 0,
    totalVotes: vote.validVoteCount,
    tiebroken: vote.isTie,
    ...(vote.isTie ? { tiebreakerMethod: "alphabetical" as const } : {}),
    winnerDisplay: revision.display,
  };
  emit(config, "winner_declared", { data: winner });
  return { winner, answer: revision.revisedResponse, messages: [new AIMessage(revision.revisedResponse)] };
}
