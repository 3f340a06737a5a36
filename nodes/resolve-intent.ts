import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { HumanMessage } from "@langchain/core/messages";
import { emit } from "../graph/events.js";
import type { State, StateUpdate } from "../state/graph-state.js";
import { textOf } from "./model-call.js";

/** What a chat message asks for. */
export type Command =
  | { kind: "debate"; topic: string; voice: boolean }
  | { kind: "missing_topic"; command: "/debatt" | "/dvoice" }
  | { kind: "chat"; text: string };

/** `/debatt` or `/dvoice` (any case, after leading whitespace), then whitespace or the end. */
const DEBATE_COMMAND = /^\s*\/(debatt|dvoice)(?=\s|$)([\s\S]*)$/i;

/** Reads a message: a debate command with its topic, a debate command without one, or chat. */
export function parseCommand(message: string): Command {
  const m = DEBATE_COMMAND.exec(message);
  if (!m) return { kind: "chat", text: message.trim() };
  const command = `/${m[1].toLowerCase()}` as "/debatt" | "/dvoice";
  const topic = m[2].trim();
  if (!topic) return { kind: "missing_topic", command };
  return { kind: "debate", topic, voice: command === "/dvoice" };
}

/**
 * resolve_intent: routes `/debatt <topic>` and `/dvoice <topic>` to the debate path (the latter
 * also sets voice mode), a command without a topic to a clear message, anything else to the
 * supervisor's chat answer.
 */
export async function resolveIntent(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
  // The `message` input is consumed (cleared) so that a later run on the same thread that only
  // appends to `messages` (LangGraph Studio's chat) is not mistaken for the old message.
  const fromInput = state.message !== "";
  const lastHuman = [...state.messages].reverse().find((m) => HumanMessage.isInstance(m));
  const text = fromInput ? state.message : lastHuman ? textOf(lastHuman.content) : "";
  const base: StateUpdate = { message: "", voice_mode: false, ...(fromInput ? { messages: [new HumanMessage(text)] } : {}) };
  const command = parseCommand(text);
  switch (command.kind) {
    case "debate":
      return { ...base, route: "debate", voice_mode: command.voice, debate_topic: command.topic };
    case "missing_topic":
      emit(config, "error", {
        code: "missing_topic",
        message: `${command.command} needs a topic, e.g. "${command.command} Bör AI regleras?"`,
      });
      return { ...base, route: "usage" };
    case "chat":
      if (!command.text) {
        emit(config, "error", { code: "empty_message", message: "the message is empty: write a question or /debatt <topic>" });
        return { ...base, route: "usage" };
      }
      return { ...base, route: "supervisor" };
  }
}
