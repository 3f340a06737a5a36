import { answerOf } from "../../../state/deliberation.js";
import type { ReviseStateType } from "../../../state/revise.js";
import { runIdentityNames } from "../../shared/anonymity.js";
import { labelledResponses } from "../../shared/labels.js";
import type { RevisionTask } from "../revise-revision.js";

/**
 * One revision per model that answered, each with its OWN prompt: its own answer, and every other
 * answer under its round-1 label.
 */
export function revisionTasks(state: ReviseStateType): RevisionTask[] {
  const names = runIdentityNames(state);
  const labels = state.round1_labels;
  const byKey = new Map(state.members.map((p) => [p.key, p]));
  return Object.values(labels).map((key) => {
    const others = Object.fromEntries(Object.entries(labels).filter(([, k]) => k !== key));
    return {
      participant: byKey.get(key)!,
      question: state.question,
      ownResponse: answerOf(state, key),
      otherResponses: labelledResponses(others, (k) => answerOf(state, k), names),
      antiAnchoring: state.options.antiAnchoring,
      timeoutMs: state.timeout_ms,
    };
  });
}
