import type { ClientEvent } from "../events.js";

/**
 * Which answer's text a delta event adds to (a participant's turn in a round, a /compare answer, a
 * model's text in one stage of a deliberation, the synthesis or chat reply), or undefined for an
 * event that streams no text. After `run-resumed` the first delta of each answer begins its text
 * anew: the step that wrote it runs again from its start, while the answers of steps already saved
 * are not sent again.
 */
export function restartKey(e: ClientEvent): string | undefined {
  switch (e.event) {
    case "debate-participant-delta":
      return `turn|${e.data.model_key}|${e.data.round}`;
    case "compare-answer-delta":
      return `compare|${e.data.model_key}`;
    case "answer-delta":
      return `answer|${e.data.mode}|${e.data.stage}|${e.data.modelKey}`;
    case "text-delta":
      return "text";
    default:
      return undefined;
  }
}
