import { END, Send } from "@langchain/langgraph";
import { runIdentityNames } from "../nodes/shared/anonymity.js";
import type { BallotTask } from "../nodes/deliberation/deliberation-ballot.js";
import { conversationHistory, type AnswerTask } from "../nodes/deliberation/deliberation-answer.js";
import { labelledResponses } from "../nodes/shared/labels.js";
import type { DeliberationMode } from "../state/deliberation.js";
import type { State } from "../state/graph-state.js";

/** Edges the seed formats' subgraphs share. */

/** After a planner: one stage-1 answer task per model (in parallel), or the end (refused request). */
export function answerSends(state: State, mode: DeliberationMode): Send[] | typeof END {
  if (state.deliberation_error) return END;
  const history = conversationHistory(state.messages);
  return state.deliberation_participants.map(
    (participant) =>
      new Send("deliberation_answer", {
        mode,
        participant,
        question: state.deliberation_question ?? "",
        history,
        timeoutMs: state.deliberation_timeout_ms,
      } satisfies AnswerTask),
  );
}

/**
 * One vote task per model that answered in stage 1 (in parallel), over the texts under the
 * current labels (`deliberation_labels`), or the end when the run stopped.
 */
export function ballotSends(state: State, mode: DeliberationMode, promptKey: string, textOf: (key: string) => string): Send[] | typeof END {
  if (state.deliberation_error) return END;
  const question = state.deliberation_question ?? "";
  const names = runIdentityNames(state);
  const responses = labelledResponses(state.deliberation_labels, textOf, names);
  const labels = Object.keys(state.deliberation_labels);
  const answered = new Set(state.deliberation_answers.filter((a) => a.status === "ok").map((a) => a.key));
  return state.deliberation_participants
    .filter((p) => answered.has(p.key))
    .map((voter) => new Send("deliberation_ballot", { mode, promptKey, voter, question, responses, labels, names, timeoutMs: state.deliberation_timeout_ms } satisfies BallotTask));
}
