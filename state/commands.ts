import { FORMAT_IDS, FORMATS, type DeliberationMode, type FormatFlags, type FormatId } from "./formats.js";
import { removeSpoofing } from "./text.js";

/** A slash command. */
export type SlashCommand = (typeof FORMATS)[FormatId]["command"];

/** What a chat message asks for. */
export type Command =
  | { kind: "debate"; topic: string; voice: boolean; options: FormatFlags }
  | { kind: "compare"; question: string }
  | { kind: "deliberation"; mode: DeliberationMode; question: string; options: FormatFlags }
  | { kind: "missing_topic"; command: SlashCommand }
  | { kind: "bad_option"; command: SlashCommand; option: string; allowed: string[] }
  | { kind: "chat"; text: string };

/** A slash command of the table (any case, after leading whitespace), then whitespace or the end. */
const COMMAND = new RegExp(String.raw`^\s*\/(${FORMAT_IDS.join("|")})(?=\s|$)([\s\S]*)$`, "i");
/**
 * One leading `--option` (any name a person might write: `--order`, `--max_cost_usd`,
 * `--round2TimeoutMs`), the word after it (which may be its value), and the whitespace after
 * them. Every such word is an option, known or refused: none becomes part of the topic.
 */
const OPTION = /^(--[a-z][\w-]*)(?:\s+([^\s-][^\s]*))?(?:\s+|$)/i;

/**
 * Reads a message: a format's command with its topic (and the options written before it), one
 * without a topic, or chat. A message is exactly one of them, so a debate is never also a
 * comparison.
 */
export function parseCommand(sent: string): Command {
  const message = removeSpoofing(sent);
  const m = COMMAND.exec(message);
  if (!m) return { kind: "chat", text: message.trim() };
  const format = m[1].toLowerCase() as FormatId;
  const command = FORMATS[format].command;
  const topic = m[2].trim();
  if (!topic) return { kind: "missing_topic", command };
  // The formats without options refuse one too, rather than debate "--fast …" as the topic.
  const option = OPTION.exec(topic);
  if (option && Object.keys(FORMATS[format].flags).length === 0) return { kind: "bad_option", command, option: option[1], allowed: [] };
  if (format === "compare") return { kind: "compare", question: topic };
  const parsed = parseOptions(format, topic);
  if ("kind" in parsed) return parsed;
  if (format === "debatt" || format === "dvoice") return { kind: "debate", topic: parsed.rest, voice: format === "dvoice", options: parsed.options };
  return { kind: "deliberation", mode: format, question: parsed.rest, options: parsed.options };
}

/**
 * A format's leading options (`--debate`, or an option with its value: `--order simultaneous`),
 * then its question or topic; a refusal naming an option the format lacks, or a missing topic.
 */
function parseOptions(format: DeliberationMode | "debatt" | "dvoice", text: string): { options: FormatFlags; rest: string } | Command {
  const { command, flags } = FORMATS[format];
  const allowed: Record<string, FormatFlags> = flags;
  let options: FormatFlags = {};
  let rest = text;
  for (let m = OPTION.exec(rest); m; m = OPTION.exec(rest)) {
    const withValue = m[2] === undefined ? undefined : `${m[1]} ${m[2]}`.toLowerCase();
    if (withValue !== undefined && withValue in allowed) {
      options = { ...options, ...allowed[withValue] };
      rest = rest.slice(m[0].length);
      continue;
    }
    const option = m[1].toLowerCase();
    if (!(option in allowed))
      return {
        kind: "bad_option",
        command,
        option: withValue !== undefined && Object.keys(allowed).some((a) => a.startsWith(`${option} `)) ? `${m[1]} ${m[2]}` : m[1],
        allowed: Object.keys(allowed),
      };
    options = { ...options, ...allowed[option] };
    // A flag without a value: the word after it is the start of the question.
    rest = rest.slice(m[1].length).trimStart();
  }
  rest = rest.trim();
  if (!rest) return { kind: "missing_topic", command };
  return { options, rest };
}

/**
 * Whether a message only gets an explanation of how to write it (a command without a topic, an
 * option the command lacks, an empty message): no model is asked, and nothing is filed in history.
 */
export function isUsageOnly(command: Command): boolean {
  return command.kind === "missing_topic" || command.kind === "bad_option" || (command.kind === "chat" && command.text === "");
}

/** The format a command runs, or undefined for chat and commands without a topic. */
export function formatOfCommand(command: Command): FormatId | undefined {
  switch (command.kind) {
    case "debate":
      return command.voice ? "dvoice" : "debatt";
    case "compare":
      return "compare";
    case "deliberation":
      return command.mode;
    default:
      return undefined;
  }
}

/** The format a message's command names, with a topic or without, or undefined for chat. */
export function commandFormatOf(message: string): FormatId | undefined {
  return COMMAND.exec(message)?.[1].toLowerCase() as FormatId | undefined;
}
