import { cleanTitle, renderTitle } from "./replies/title.js";

/**
 * A chat client's housekeeping request: not a question for a deliberation, but a chore the client
 * asks the chat's model after a message (Open WebUI's title, tags, follow-ups, search queries,
 * autocompletion and emoji; LibreChat's title). It is answered with one call to the internal
 * model, in the shape the client asked for, never with a run.
 */
export interface ClientTask {
  /** What is asked: the JSON key of the answer (`title`, `tags`…), or a bare `title` or `emoji`. */
  kind: "title" | "tags" | "follow_ups" | "queries" | "text" | "prompt" | "emoji";
  /** The answer is a JSON object with `kind` as its one key. */
  json: boolean;
  /** What the conversation is about, as far as the request shows (its first user line). */
  topic: string;
}

const JSON_KEYS = ["title", "tags", "follow_ups", "queries", "text", "prompt"] as const;

/** A request for a JSON object with one of the known keys (Open WebUI's templates, or a custom one of their kind). */
const JSON_ASK = new RegExp(`(?:JSON format|return in JSON format|respond only in JSON format)[^{]{0,40}\\{\\s*"(${JSON_KEYS.join("|")})"`, "i");
/** Open WebUI's emoji task (its call mode). */
const EMOJI_ASK = /reflect the speaker's likely facial expression through a fitting emoji/i;
/** LibreChat's title prompts: the completion method's, the older instruction's, the assistants endpoint's and the structured one's. */
const TITLE_ASKS = [
  /5-word-or-less title for the conversation/i,
  /concise title \(max 40 characters\) for a conversation that starts with/i,
  /analyze this conversation and provide:[\s\S]{0,200}detected language[\s\S]{0,200}concise title/i,
];

/**
 * The housekeeping task a request asks for, from its messages' text, or undefined for a real
 * question. Only a request that is wholly such a task counts: its last message asks for it.
 */
export function clientTaskOf(messages: { role: string; text: string }[]): ClientTask | undefined {
  const last = messages.at(-1);
  if (!last) return undefined;
  // The ask is in the last message, or (LibreChat) in a system message before a last user line.
  const asking = [last.text, ...messages.filter((m) => m.role === "system").map((m) => m.text)];
  const topic = topicOf(messages);
  for (const text of asking) {
    const key = JSON_ASK.exec(text)?.[1] as ClientTask["kind"] | undefined;
    if (key) return { kind: key, json: true, topic };
    if (EMOJI_ASK.test(text)) return { kind: "emoji", json: false, topic };
    if (TITLE_ASKS.some((ask) => ask.test(text))) return { kind: "title", json: false, topic };
  }
  return undefined;
}

/** The conversation's first user line in a chat history the client quoted (`USER: …`, `User: …`), else the first user message. */
function topicOf(messages: { role: string; text: string }[]): string {
  for (const m of messages) {
    const quoted = /^(?:USER|User|Human):\s*(.+)$/m.exec(m.text)?.[1];
    if (quoted) return quoted.trim();
  }
  return messages.find((m) => m.role === "user")?.text.slice(0, 500) ?? "";
}

/** The JSON object in a model's reply (fenced, or after a think block), or undefined. */
function jsonIn(reply: string): Record<string, unknown> | undefined {
  const start = reply.indexOf("{");
  const end = reply.lastIndexOf("}");
  if (start < 0 || end <= start) return undefined;
  try {
    const value: unknown = JSON.parse(reply.slice(start, end + 1));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
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
  }
}
