import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { HumanMessage } from "@langchain/core/messages";
import { emit } from "../../ports/emit.js";
import type { State, StateUpdate } from "../../state/graph-state.js";
import type { DeliberationMode, ModeConfig } from "../../state/deliberation.js";
import { textOf } from "../shared/model-call.js";

/** What a chat message asks for. */
export type Command =
  | { kind: "debate"; topic: string; voice: boolean }
  | { kind: "compare"; question: string }
  | { kind: "deliberation"; mode: DeliberationMode; question: string; options: ModeConfig }
  | { kind: "missing_topic"; command: SlashCommand }
  | { kind: "bad_option"; command: SlashCommand; option: string; allowed: string[] }
  | { kind: "chat"; text: string };

/** The slash commands. */
export type SlashCommand = "/debatt" | "/dvoice" | "/compare" | `/${DeliberationMode}`;

/** A slash command (any case, after leading whitespace), then whitespace or the end. */
const COMMAND = /^\s*\/(debatt|dvoice|compare|vote|revise|deep|council)(?=\s|$)([\s\S]*)$/i;

/** The options a format takes before its question, e.g. `/council --debate <claim>`. */
const OPTIONS: Record<DeliberationMode, Record<string, ModeConfig>> = {
  vote: {},
  revise: { "--anti-anchoring": { antiAnchoring: true } },
  deep: {},
  council: { "--debate": { debate: true } },
};
const DELIBERATIONS = new Set<string>(["/vote", "/revise", "/deep", "/council"]);

/**
 * Reads a message: a debate or compare command with its topic, one without, or chat. A message is
 * exactly one of them, so a debate is never also a comparison (seed 003 §2).
 */
export function parseCommand(message: string): Command {
  const m = COMMAND.exec(message);
  if (!m) return { kind: "chat", text: message.trim() };
  const command = `/${m[1].toLowerCase()}` as SlashCommand;
  const topic = m[2].trim();
  if (!topic) return { kind: "missing_topic", command };
  if (command === "/compare") return { kind: "compare", question: topic };
  if (DELIBERATIONS.has(command)) return parseDeliberation(command, topic);
  return { kind: "debate", topic, voice: command === "/dvoice" };
}

/** A format's leading `--options`, then its question. */
function parseDeliberation(command: SlashCommand, rest: string): Command {
  const mode = command.slice(1) as DeliberationMode;
  const allowed = OPTIONS[mode];
  let options: ModeConfig = {};
  let question = rest;
  for (let m = /^(--[a-z][a-z-]*)(?:\s+|$)/i.exec(question); m; m = /^(--[a-z][a-z-]*)(?:\s+|$)/i.exec(question)) {
    const option = m[1].toLowerCase();
    if (!(option in allowed)) return { kind: "bad_option", command, option: m[1], allowed: Object.keys(allowed) };
    options = { ...options, ...allowed[option] };
    question = question.slice(m[0].length);
  }
  question = question.trim();
  if (!question) return { kind: "missing_topic", command };
  return { kind: "deliberation", mode, question, options };
}

/**
 * resolve_intent: routes `/debatt <topic>` and `/dvoice <topic>` to the debate path (the latter
 * also sets voice mode), `/compare <question>` to the compare subgraph, `/vote`, `/revise` and
 * `/deep <question>` to their subgraphs, a command without a topic
 * to a clear message, anything else to the supervisor's chat answer.
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
    case "compare":
      return { ...base, route: "compare", compare_question: command.question };
    case "deliberation":
      // Options in the message (`--debate`) add to those of the request (`modeConfig`).
      return { ...base, route: command.mode, deliberation_question: command.question, mode_config: { ...state.mode_config, ...command.options } };
    case "bad_option":
      emit(config, "error", {
        code: "unknown_option",
        message: `${command.command} has no option ${command.option}; ${command.allowed.length ? `its options: ${command.allowed.join(", ")}` : "it takes no options"}`,
      });
      return { ...base, route: "usage" };
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
