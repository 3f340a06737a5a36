import { Annotation } from "@langchain/langgraph";
import type { AnswerNotes } from "./answer.js";
import { appended, replace } from "./channels.js";
import type { Participant } from "./participants.js";
import { FormatInput, FormatOutput } from "./shared.js";

/** One /compare answer, with its reasoning, sources and a cut ending when it had them. */
export interface CompareAnswer extends AnswerNotes {
  key: string;
  display: string;
  status: "ok" | "error";
  text: string;
  word_count: number;
  latency_ms: number;
  error?: string;
}

/** What /compare takes from the top graph: the run, the question and the requested participants. */
export const CompareInput = Annotation.Root({
  run_id: FormatInput.spec.run_id,
  question: FormatInput.spec.question,
  participants: FormatInput.spec.participants,
});

/** What /compare gives back: the answers side by side, as the run's answer and the conversation's AI message. */
export const CompareOutput = Annotation.Root({ answer: FormatOutput.spec.answer, messages: FormatOutput.spec.messages });

/** The /compare subgraph's state: the keys it shares with the top graph, and its own. */
export const CompareState = Annotation.Root({
  ...CompareInput.spec,
  ...CompareOutput.spec,
  /** Who answers (the roster, or the requested subset). */
  members: replace<Participant[]>(() => []),
  /** The answers, one update per participant (appended in parallel). */
  answers: appended<CompareAnswer>(),
});
export type CompareStateType = typeof CompareState.State;
export type CompareUpdate = typeof CompareState.Update;
