import { unwrapSystemText, unwrapUserText, type Material } from "../state/client-material.js";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { Request } from "express";
import { z } from "zod";
import { OPENAI_MODELS } from "../service/formats.js";
import { FORMAT_IDS, FORMATS, type FormatId } from "../state/formats.js";
import { detectLanguage } from "../state/language.js";
import { LANGS, type Lang } from "../state/messages/index.js";
import { MAX_MESSAGE_CHARS, userText } from "../state/text.js";
import { participantsField } from "./chat.js";
import { HttpError } from "./errors.js";
import { fileMaterial, isFilePart } from "./openai-files.js";

/** The longest stop sequence: the result is held back by as much while it streams. */
const MAX_STOP_CHARS = 1_000;

/** A message's content: text, or parts (text and refusals are read, and files whose text can be read, as material; images, audio and other files are not). */
const content = z.union([
  z.string(),
  z.array(z.object({ type: z.string(), text: z.string().optional(), refusal: z.string().optional() }).passthrough()),
  z.null(),
]);

const ROLE = z.enum(["system", "developer", "user", "assistant", "tool", "function"], {
  error: "a message's role must be system, developer, user, assistant or tool",
});

/** The JSON a client may ask the result to be: any object, or one of a schema. */
const ResponseFormat = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("text") }).passthrough(),
    z.object({ type: z.literal("json_object") }).passthrough(),
    z
      .object({
        type: z.literal("json_schema"),
        json_schema: z.object({ name: z.string().optional(), schema: z.record(z.string(), z.unknown()).optional() }).passthrough(),
      })
      .passthrough(),
  ],
  { error: 'response_format must be {"type": "text"}, {"type": "json_object"} or {"type": "json_schema", "json_schema": {...}}' },
);

/** A whole number of tokens, more than 0, in the field `name`. */
export const tokens = (name: string) =>
  z
    .number({ error: `${name} must be a whole number of tokens` })
    .int(`${name} must be a whole number of tokens`)
    .positive(`${name} must be more than 0`)
    .nullable()
    .optional();

/** debatt's `max_cost_usd`: a budget for the run, in US dollars. */
export const maxCostUsdField = z
  .number({ error: "max_cost_usd must be a number of US dollars" })
  .positive("max_cost_usd must be more than 0")
  .max(10_000)
  .optional();

/**
 * The body of `POST /v1/chat/completions`. Fields that change what the answer is are honoured
 * (`response_format`, `max_tokens`/`max_completion_tokens`, `stop`) or refused by name
 * (`tool_choice` that forces a tool, `logprobs`, audio); the others (temperature, seed, user…)
 * are accepted and ignored, since clients send them unasked. `participants` is debatt's own.
 */
export const CompletionBody = z
  .object(
    {
      model: z.string({ error: "model must be a string, e.g. debatt or debatt-vote (GET /v1/models lists them)" }),
      messages: z
        .array(z.object({ role: ROLE, content: content.optional(), refusal: z.string().nullable().optional() }).passthrough(), {
          error: "messages must be an array of {role, content}",
        })
        .min(1, "messages is empty: the last message is the question")
        .max(1000, "messages has more than 1000 entries"),
      stream: z.boolean({ error: "stream must be true or false" }).nullable().optional(),
      stream_options: z.object({ include_usage: z.boolean().optional() }).passthrough().nullable().optional(),
      n: z.literal(1, { error: "n must be 1: a deliberation gives one answer" }).nullable().optional(),
      response_format: ResponseFormat.nullable().optional(),
      max_tokens: tokens("max_tokens"),
      max_completion_tokens: tokens("max_completion_tokens"),
      stop: z
        .union([z.string(), z.array(z.string())], { error: "stop must be a string or an array of strings" })
        .refine((stop) => !Array.isArray(stop) || stop.length <= 4, "stop takes at most 4 sequences")
        .refine(
          (stop) => (Array.isArray(stop) ? stop : [stop]).every((s) => s.length <= MAX_STOP_CHARS),
          `a stop sequence may be at most ${MAX_STOP_CHARS} characters`,
        )
        .nullable()
        .optional(),
      participants: participantsField,
      max_cost_usd: maxCostUsdField,
    },
    { error: "the body must be a JSON object" },
  )
  .passthrough();
/** A checked `POST /v1/chat/completions` body. */
export type CompletionRequest = z.infer<typeof CompletionBody>;
/** A chat message, as a request's `messages` bring it. */
export type ChatMessage = CompletionRequest["messages"][number];

/** The largest JSON Schema a result may be asked to follow (it is written into the internal model's prompt). */
const MAX_SCHEMA_CHARS = 16_000;
/** The tool choices that force no tool. */
const FREE_TOOL_CHOICES = ["auto", "none"];

/** What the result must be: JSON (of a schema), at most so many tokens, cut at a stop sequence. */
export interface ResultShape {
  json?: { schema?: Record<string, unknown> };
  maxTokens?: number;
  stop: string[];
}

/**
 * What the request asks of the result, or 400 naming a parameter that cannot be honoured: a
 * deliberation's models answer in text, with no tools, no token probabilities and no audio.
 */
export function resultShapeOf(
  body: Partial<Pick<CompletionRequest, "response_format" | "max_tokens" | "max_completion_tokens" | "stop">> & Record<string, unknown>,
  jsonField = "response_format",
): ResultShape {
  const extra = body as Record<string, unknown>;
  const choice = extra.tool_choice;
  if (choice !== undefined && choice !== null && !(typeof choice === "string" && FREE_TOOL_CHOICES.includes(choice))) {
    const why = choice === "required" || typeof choice === "object" ? "a deliberation calls no tools" : "it is none of auto, none, required or a tool";
    throw new HttpError(
      400,
      "invalid_body",
      `tool_choice ${JSON.stringify(choice).slice(0, 100)} cannot be honoured: ${why}; leave it out, or send "auto" or "none"`,
    );
  }
  if (typeof extra.function_call === "object" && extra.function_call !== null)
    throw new HttpError(400, "invalid_body", "function_call cannot force a function: a deliberation calls no functions");
  if (extra.logprobs === true || (typeof extra.top_logprobs === "number" && extra.top_logprobs > 0)) {
    throw new HttpError(400, "invalid_body", "logprobs cannot be given: the answer is a deliberation's, written from several models' answers");
  }
  if ((Array.isArray(extra.modalities) && extra.modalities.includes("audio")) || (extra.audio !== undefined && extra.audio !== null)) {
    throw new HttpError(400, "invalid_body", "audio output cannot be given: the answer is text (for a spoken debate, see /dvoice)");
  }
  const format = body.response_format;
  const json = format?.type === "json_object" ? {} : format?.type === "json_schema" ? { schema: format.json_schema.schema } : undefined;
  if (json?.schema && JSON.stringify(json.schema).length > MAX_SCHEMA_CHARS)
    throw new HttpError(400, "invalid_body", `${jsonField}: the JSON Schema is longer than ${MAX_SCHEMA_CHARS} characters`);
  const maxTokens = body.max_completion_tokens ?? body.max_tokens ?? undefined;
  const stop = body.stop == null ? [] : (Array.isArray(body.stop) ? body.stop : [body.stop]).filter((s) => s !== "");
  return { ...(json ? { json } : {}), ...(maxTokens ? { maxTokens } : {}), stop };
}

/** The model's format, or 404 `model_not_found`. */
export function formatOf(model: string): FormatId {
  if (!Object.hasOwn(OPENAI_MODELS, model)) {
    throw new HttpError(404, "model_not_found", `the model "${model.slice(0, 64)}" does not exist; the models are ${Object.keys(OPENAI_MODELS).join(", ")}`);
  }
  return OPENAI_MODELS[model];
}

/**
 * The message a run starts with: the question after the format's command. A question that
 * already begins with that command keeps it (and its options, e.g. `/council --debate …`); one
 * that begins with another format's command is refused, naming the model to use.
 */
export function commandMessage(format: FormatId, question: string): string {
  const { command } = FORMATS[format];
  const first = question.trimStart().split(/\s/, 1)[0].toLowerCase();
  if (first === command) return question.trim();
  const other = FORMAT_IDS.find((f) => FORMATS[f].command === first);
  if (other) {
    const model = Object.entries(OPENAI_MODELS).find(([, f]) => f === other)?.[0];
    throw new HttpError(400, "invalid_body", `the model runs ${command}, but the question asks for ${first}${model ? `: use the model ${model}` : ""}`);
  }
  return `${command} ${question.trim()}`;
}

/**
 * What an assistant message said, without the thinking a client sends back with it: a `<think>`
 * block (debatt's own narration in `think` mode, or any model's) and Open WebUI's folded
 * reasoning (`<details type="reasoning">`).
 */
function withoutThinking(text: string): string {
  return text
    .replace(/<think>[\s\S]*?(?:<\/think>|$)\s*/g, "")
    .replace(/<details\s+type="reasoning"[\s\S]*?<\/details>\s*/g, "")
    .trim();
}

/**
 * A message's text (text and refusal parts), the kinds of the parts that are not text, and the
 * material a client wrapped around a user's or put in a system message (see `client-material`):
 * a user message's text is what the person typed.
 */
function readMessage(m: ChatMessage): { text: string; left: string[]; material: Material[] } {
  const parts = typeof m.content === "string" ? [m.content] : (m.content ?? []).flatMap((p) => (p.type === "text" ? [p.text ?? ""] : []));
  if (m.role === "user") {
    const { text, material } = unwrapUserText(parts);
    const files = filesOf(m);
    return { text, material: [...material, ...files.material], left: files.left };
  }
  if (m.role === "system" || m.role === "developer") return { ...unwrapSystemText(parts.join("")), left: leftOf(m) };
  const said = (text: string) => (m.role === "assistant" ? withoutThinking(text) : text);
  if (typeof m.content === "string") return { text: said(m.content), left: [], material: [] };
  if (!m.content) return { text: m.role === "assistant" && m.refusal ? m.refusal : "", left: [], material: [] };
  const text = m.content.map((p) => (p.type === "text" ? (p.text ?? "") : p.type === "refusal" ? (p.refusal ?? "") : "")).join("");
  return { text: said(text), left: leftOf(m), material: [] };
}

/** A user message's files that can be read as text (material), and the kinds of its other parts that are not text (left out). */
function filesOf(m: ChatMessage): { material: Material[]; left: string[] } {
  const material: Material[] = [];
  const left: string[] = [];
  if (typeof m.content === "string" || !m.content) return { material, left };
  for (const p of m.content) {
    if (p.type === "text" || p.type === "refusal") continue;
    const file = isFilePart(p) ? fileMaterial(p, material.length) : undefined;
    if (file) material.push(file);
    else left.push(p.type);
  }
  return { material, left };
}

/** The kinds of a message's parts that are not text (images, audio, files). */
const leftOf = (m: ChatMessage): string[] =>
  typeof m.content === "string" || !m.content ? [] : m.content.filter((p) => p.type !== "text" && p.type !== "refusal").map((p) => p.type);

/** Each message's role and text (its text and refusal parts; an assistant's thinking left out), as a client's chore is read. */
export function messageTexts(messages: ChatMessage[]): { role: string; text: string }[] {
  return messages.map((m) => ({ role: m.role, text: readMessage(m).text }));
}

/** A conversation as a request brings it: the question, the history before it, every message's text, and the parts left out. */
export interface ReadConversation {
  question: string;
  history: BaseMessage[];
  /** The kinds of the parts that are not text (images, audio, files), left out. */
  left: string[];
  /** What the client retrieved for the question (from the system messages and the question's own), by source. */
  material: Material[];
}

/**
 * Reads the request's messages: the last must be the user's question (its text; its other parts
 * are left out, and it is refused only when nothing else is left); the earlier user and assistant
 * messages are the history (the formats that take one), their other parts left out too.
 */
export function readConversation(messages: ChatMessage[], multiTurn: boolean): ReadConversation {
  const last = messages.at(-1)!;
  if (last.role !== "user")
    throw new HttpError(
      400,
      "invalid_body",
      `the last message must be the user's question (it is ${/^[aeiou]/.test(last.role) ? "an" : "a"} ${last.role} message)`,
    );
  const read = messages.map(readMessage);
  const current = read.at(-1)!;
  if (current.text.trim() === "" && current.material.length > 0) {
    throw new HttpError(400, "invalid_body", "the last user message has no text, only files: ask the question about them in a text part");
  }
  if (current.text.trim() === "" && current.left.length > 0) {
    throw new HttpError(
      400,
      "invalid_body",
      `the last user message has no text, only ${[...new Set(current.left)].join(", ")} parts: the models read text only`,
    );
  }
  const parsed = userText("the last user message", MAX_MESSAGE_CHARS).safeParse(current.text);
  if (!parsed.success) throw new HttpError(400, "invalid_body", parsed.error.issues.map((i) => i.message).join("; "));
  const earlier = messages.slice(0, -1);
  const history = multiTurn
    ? earlier.flatMap<BaseMessage>((m, i) =>
        m.role === "user" ? [new HumanMessage(read[i].text)] : m.role === "assistant" && read[i].text ? [new AIMessage(read[i].text)] : [],
      )
    : [];
  const used = multiTurn ? read : [current];
  // The material of the question: what the client put in front of it, or in the system messages (not earlier turns').
  const material = [...messages.flatMap((m, i) => (m.role === "system" || m.role === "developer" ? read[i].material : [])), ...current.material];
  return {
    question: parsed.data,
    history,
    left: [...new Set(used.flatMap((r) => r.left))],
    material,
  };
}

/**
 * The reader's language: the first of English and Swedish that the request's Accept-Language
 * names, else the question's (clients send `*`, or nothing, far more often than a language).
 */
export function readerLang(req: Request, question: string): Lang {
  const named = (req.get("accept-language") ?? "")
    .split(",")
    .map((part) => part.split(";")[0].trim().toLowerCase().slice(0, 2))
    .find((code) => (LANGS as readonly string[]).includes(code));
  return (named as Lang | undefined) ?? detectLanguage(question);
}
