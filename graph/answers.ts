import { AIMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";

/** The keys of a state update that hold a run's answer (typed loosely: each state's update types differ). */
interface AnswerUpdate {
  answer?: unknown;
  messages?: unknown;
}

/**
 * A node whose update gives the run's answer (`answerOf`) with that answer also where every format
 * keeps it: in `answer`, and as the conversation's last AI message. A node that already writes
 * either keeps its own; an update without an answer (a failed step) is left as it is.
 */
export function answering<S, U extends AnswerUpdate>(node: (state: S, config: LangGraphRunnableConfig) => Promise<U>, answerOf: (update: U) => unknown) {
  return async (state: S, config: LangGraphRunnableConfig): Promise<U> => {
    const update = await node(state, config);
    const answer = answerOf(update);
    if (typeof answer !== "string" || answer === "") return update;
    return { ...update, answer: update.answer ?? answer, messages: update.messages ?? [new AIMessage(answer)] };
  };
}

/** The text of the last message of an update when it is an AI message (the chat's answer). */
export function lastAiText(update: AnswerUpdate): string | undefined {
  const last = Array.isArray(update.messages) ? update.messages.at(-1) : undefined;
  return AIMessage.isInstance(last) && typeof last.content === "string" ? last.content : undefined;
}
