import { notesFields, withoutOpenedThinking, type AnswerNotes } from "../state/answer.js";

/**
 * One participant's answer in one round (or one stage), as a card shows it, with its notes: the
 * reasoning, the sources and how it ended when that was not a whole answer.
 */
export interface CardRound extends AnswerNotes {
  text: string;
  status: "speaking" | "ok" | "error";
  wordCount?: number;
  latencyMs?: number;
  error?: string;
  /** The person's turn was skipped: no answer in time, or they passed. */
  skipped?: "timeout" | "passed";
}

/**
 * A card's answer with the notes of `data` in place of any it had (an answer given again keeps
 * none of the last one's). An answer with reasoning loses from its streamed text the thinking a
 * chat template opened itself (shown live until its end tag came).
 */
export function withNotes(round: CardRound, data: unknown): CardRound {
  const { reasoning: _reasoning, sources: _sources, ending: _ending, ...rest } = round;
  const notes = notesFields(data);
  return { ...rest, ...(notes.reasoning ? { text: withoutOpenedThinking(rest.text) } : {}), ...notes };
}
