import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { CollectedAnswer, PanelState } from "../../state/deliberation.js";
import type { DeliberationMode } from "../../state/formats.js";
import type { Participant } from "../../state/participants.js";
import type { AnswerTask } from "../deliberation/deliberation-answer.js";
import type { BallotTask } from "../deliberation/deliberation-ballot.js";
import { runIdentityNames } from "./anonymity.js";
import { labelledResponses } from "./labels.js";

/** Turns of earlier conversation a follow-up is answered with: the last 10. */
export const HISTORY_TURNS = 10;

/**
 * The conversation before the current question, cut to its last 10 turns (a turn: the user's
 * question and the assistant's answer). The current question is the thread's last message; the
 * user's earlier messages lose their slash command, so models see the questions as asked.
 */
export function conversationHistory(messages: readonly BaseMessage[]): BaseMessage[] {
  return messages
    .slice(0, -1)
    .slice(-2 * HISTORY_TURNS)
    .map((m) => (HumanMessage.isInstance(m) && typeof m.content === "string" ? new HumanMessage(m.content.replace(/^\s*\/[a-z]+\s+/i, "")) : m));
}

/** What the first answers are made from. */
interface AskingState extends PanelState {
  question: string;
  messages: BaseMessage[];
  timeout_ms: number;
}

/** Every member's first answer, each with the conversation's last turns. */
export function answerTasks(state: AskingState, mode: DeliberationMode): AnswerTask[] {
  const history = conversationHistory(state.messages);
  return state.members.map((participant) => ({ mode, participant, question: state.question, history, timeoutMs: state.timeout_ms }));
}

/** What the votes are made from. */
interface VotingState extends PanelState {
  question: string;
  answers: CollectedAnswer[];
  labels: Record<string, string>;
  chairman?: Participant | null;
  timeout_ms: number;
}

/**
 * One vote per member that gave a first answer, over the texts under the current labels (the
 * same rendering for every voter).
 */
export function ballotTasks(state: VotingState, mode: DeliberationMode, promptKey: string, textOf: (key: string) => string): BallotTask[] {
  const names = runIdentityNames(state);
  const responses = labelledResponses(state.labels, textOf, names);
  const labels = Object.keys(state.labels);
  const answered = new Set(state.answers.filter((a) => a.status === "ok").map((a) => a.key));
  return state.members
    .filter((p) => answered.has(p.key))
    .map((voter) => ({ mode, promptKey, voter, question: state.question, responses, labels, names, timeoutMs: state.timeout_ms }));
}
