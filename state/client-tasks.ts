import { replyTail } from "./replies/reply-tail.js";
import { cleanTitle, renderTitle } from "./replies/title.js";

/**
 * A chat client's housekeeping request: not a question for a deliberation, but a chore the client
 * asks the chat's model after a message (Open WebUI's title, tags, follow-ups, search queries,
 * autocompletion and emoji; LibreChat's title). It is answered with one call to the internal
 * model, in the shape the client asked for, never with a run.
 */
export interface ClientTask {
  /** What is asked: the JSON key of the answer (`title`, `tags`…), or a bare `title` or `emoji`. */
  kind: "title" | "tags" | "follow_ups" | "queries" | "text" | "prompt" | "emoji" | "tool_calls";
  /** The answer is a JSON object with `kind` as its one key. */
  json: boolean;
  /** What the conversation is about, as far as the request shows (its first user line). */
  topic: string;
  /** The message that asks, as the internal model is given it (at most MAX_CHORE_CHARS). */
  prompt: string;
}

/** The most of a chore's prompt the internal model is given: a task prompt and the chat's last messages. */
export const MAX_CHORE_CHARS = 16_000;

const JSON_KEYS = ["title", "tags", "follow_ups", "queries", "text", "prompt"] as const;

/**
 * Open WebUI's task prompts: `### Task:`, then the one-key JSON object asked for (an example whose
 * value is a string or a list), and the chat history or an output section.
 */
const JSON_ASK = new RegExp(
  `(?:JSON format|return in JSON format|respond only in JSON format)[^{]{0,40}\\{\\s*"(${JSON_KEYS.join("|")})"\\s*:\\s*(?:"[^"\\n]*"|\\[[^\\]]*\\])\\s*\\}`,
  "i",
);
const TASK_FRAME = (text: string) => /(^|\n)#{2,4}\s*\**Task\**:/i.test(text) && /<chat_history>|#{2,4}\s*\**Output/i.test(text);
/** Open WebUI's emoji task (its call mode). */
const EMOJI_ASK = /reflect the speaker's likely facial expression through a fitting emoji/i;
/** Open WebUI's tool choice (a chat with tools attached, before the answer): a system message. */
const TOOLS_ASK = /choose and return the correct tool\(s\) from the list of available tools[\s\S]{0,800}"tool_calls"/i;
/** LibreChat's title prompts: the completion method's, the older instruction's, the assistants endpoint's and the structured one's. */
const TITLE_ASKS = [
  /5-word-or-less title for the conversation/i,
  /concise title \(max 40 characters\) for a conversation that starts with/i,
  /analyze this conversation and provide:[\s\S]{0,200}detected language[\s\S]{0,200}concise title/i,
];

/**
 * The housekeeping task a request asks for, from its messages' text, or undefined for a real
 * question: Open WebUI's task prompts in the last message (framed as its templates are, so a
 * question that merely asks for JSON is a question), its tool choice in a system message, and
 * LibreChat's title prompts in the last message or a system message.
 */
export function clientTaskOf(messages: { role: string; text: string }[]): ClientTask | undefined {
  const last = messages.at(-1);
  if (!last || last.role !== "user") return undefined;
  const topic = topicOf(messages);
  const task = (kind: ClientTask["kind"], json: boolean, prompt: string): ClientTask => ({ kind, json, topic, prompt: prompt.slice(0, MAX_CHORE_CHARS) });
  const key = TASK_FRAME(last.text) ? (JSON_ASK.exec(last.text)?.[1] as ClientTask["kind"] | undefined) : undefined;
  if (key) return task(key, true, last.text);
  if (EMOJI_ASK.test(last.text)) return task("emoji", false, last.text);
  const systems = messages.filter((m) => m.role === "system" || m.role === "developer");
  const tools = systems.find((m) => TOOLS_ASK.test(m.text));
  if (tools) return task("tool_calls", true, tools.text);
  const title = [last, ...systems].find((m) => TITLE_ASKS.some((ask) => ask.test(m.text)));
  return title && task("title", false, title.text);
}

/** The conversation's first user line in a chat history the client quoted (`USER: …`, `User: …`), else the first user message. */
function topicOf(messages: { role: string; text: string }[]): string {
  for (const m of messages) {
    const quoted = /^(?:USER|User|Human):\s*(.+)$/m.exec(m.text)?.[1];
    if (quoted) return quoted.trim().slice(0, 500);
  }
  return messages.find((m) => m.role === "user")?.text.slice(0, 500) ?? "";
}

/**
 * The JSON value in a model's reply (in its first code fence, or after words or a think block), or
 * undefined; read in time linear in the reply, a long one from its end (`replyTail`).
 */
export function jsonValueIn(reply: string): unknown {
  const bare = fenced(replyTail(reply)).trim();
  for (const text of [bare, bare.slice(bare.search(/[[{]/))]) {
    try {
      return JSON.parse(text);
    } catch {
      // Tried next without what precedes the value.
    }
  }
  return undefined;
}

/** What the first closed code fence of `text` holds (its language tag aside), else all of `text`. */
function fenced(text: string): string {
  const open = /```(?:json)?[ \t]*\r?\n/.exec(text);
  if (!open) return text;
  const start = open.index + open[0].length;
  const end = text.indexOf("```", start);
  return end === -1 ? text : text.slice(start, end);
}

/** The JSON object in a model's reply, or undefined. */
function jsonIn(reply: string): Record<string, unknown> | undefined {
  const value = jsonValueIn(reply);
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((s) => typeof s === "string") ? v : undefined);

/**
 * The answer to a task in the shape the client asked for, from the model's reply (undefined when
 * the call failed): the JSON object with its one key when its value has the right type, else what
 * the task can do without a model (the title from the conversation's first line, `["General"]`
 * as tags, no follow-ups, no queries, no completion).
 */
export function taskAnswer(task: ClientTask, reply: string | undefined): string {
  const found = reply === undefined ? undefined : jsonIn(reply)?.[task.kind];
  switch (task.kind) {
    case "title": {
      const title = typeof found === "string" && found.trim() ? cleanTitle(found) : task.json || !reply?.trim() ? renderTitle(task.topic) : cleanTitle(reply);
      return task.json ? JSON.stringify({ title: title || renderTitle(task.topic) }) : title || renderTitle(task.topic);
    }
    case "tags":
      return JSON.stringify({ tags: strings(found)?.slice(0, 6) ?? ["General"] });
    case "follow_ups":
    case "queries":
      return JSON.stringify({ [task.kind]: strings(found)?.slice(0, 5) ?? [] });
    case "text":
    case "prompt":
      return JSON.stringify({ [task.kind]: typeof found === "string" ? found : "" });
    case "emoji":
      return /\p{Extended_Pictographic}/u.exec(reply ?? "")?.[0] ?? "🙂";
    case "tool_calls":
      // A deliberation picks none of a client's tools: its answer is its own.
      return JSON.stringify({ tool_calls: [] });
  }
}
