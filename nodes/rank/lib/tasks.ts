import { answerOf, type CollectedAnswer, type PanelState } from "../../../state/deliberation.js";
import type { Participant } from "../../../state/participants.js";
import { runIdentityNames } from "../../shared/anonymity.js";
import { labelledResponses } from "../../shared/labels.js";
import type { RankingTask } from "../rank-ranking.js";

/** What the rankings are made from. */
interface RankingState extends PanelState {
  question: string;
  answers: CollectedAnswer[];
  labels: Record<string, string>;
  chairman: Participant | null;
  timeout_ms: number;
}

/**
 * One ranking per member that answered, over every answer under the run's labels (its own among
 * them, unmarked, as llm-council does: the same rendering for every ranker).
 */
export function rankingTasks(state: RankingState): RankingTask[] {
  const names = runIdentityNames(state);
  const responses = labelledResponses(state.labels, (key) => answerOf(state, key), names);
  const labels = Object.keys(state.labels);
  const answered = new Set(state.answers.filter((a) => a.status === "ok").map((a) => a.key));
  return state.members
    .filter((p) => answered.has(p.key))
    .map((ranker) => ({ ranker, question: state.question, responses, labels, names, timeoutMs: state.timeout_ms }));
}
