import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from "express";
import { z } from "zod";
import type { Write } from "../service/narration.js";
import { MARKDOWN_STYLES } from "../service/narration.js";
import { createNarrator } from "../service/narrator.js";
import { followRun } from "../service/follow-run.js";
import type { Settings } from "../state/config.js";
import { FORMATS, type FormatId } from "../state/formats.js";
import { detectLanguage } from "../state/language.js";
import { LANGS, translate, type Lang } from "../state/messages/index.js";
import { MAX_MESSAGE_CHARS, userText } from "../state/text.js";
import type { ClientPayload } from "../state/events.js";
import { NO_USAGE } from "../state/usage.js";
import { quotaKeyOf, userOf } from "./auth.js";
import { checkParticipants, parseJsonBody, participantsField, type ChatRouteDeps } from "./chat.js";
import { jsonBody } from "./json-body.js";
import { HttpError, toHttpError } from "./errors.js";
import { parseCommand } from "../state/commands.js";

/** The formats served as models, by model id. */
export const OPENAI_MODELS = {
  debatt: "debatt",
  "debatt-vote": "vote",
  "debatt-revise": "revise",
  "debatt-deep": "deep",
  "debatt-council": "council",
  "debatt-compare": "compare",
} as const satisfies Record<string, FormatId>;
type ModelId = keyof typeof OPENAI_MODELS;

/** When the model list says the models were made (they are formats, not weights: a fixed date). */
const CREATED = Date.UTC(2026, 0, 1) / 1000;

/** Largest request body (the server's limit): a chat client sends the whole conversation every time. */
const BODY_LIMIT = "256kb";

/** A message's content: text, or parts of which only text is understood. */
const content = z.union([z.string(), z.array(z.object({ type: z.string(), text: z.string().optional() }).passthrough()), z.null()]);

/**
 * The body of `POST /v1/chat/completions`. The OpenAI fields debatt does not use (temperature,
 * max_tokens, user, …) are accepted and ignored, since clients send them unasked; `participants`
 * is debatt's own (participant keys or names, as in the chat stream).
 */
const CompletionBody = z
  .object(
    {
      model: z.string({ error: "model must be a string, e.g. debatt or debatt-vote (GET /v1/models lists them)" }),
      messages: z
        .array(z.object({ role: z.enum(["system", "developer", "user", "assistant", "tool", "function"], { error: "a message's role must be system, developer, user, assistant or tool" }), content: content.optional() }).passthrough(), {
          error: "messages must be an array of {role, content}",
        })
        .min(1, "messages is empty: the last message is the question")
        .max(1000, "messages has more than 1000 entries"),
      stream: z.boolean({ error: "stream must be true or false" }).nullable().optional(),
      stream_options: z.object({ include_usage: z.boolean().optional() }).passthrough().nullable().optional(),
      n: z.literal(1, { error: "n must be 1: a deliberation gives one answer" }).nullable().optional(),
      participants: participantsField,
      max_cost_usd: z.number({ error: "max_cost_usd must be a number of US dollars" }).positive("max_cost_usd must be more than 0").max(10_000).optional(),
    },
    { error: "the body must be a JSON object" },
  )
  .passthrough();
type Message = z.infer<typeof CompletionBody>["messages"][number];

/** The text of a message; 400 for parts other than text (images, audio). */
function textOfMessage(m: Message): string {
  if (typeof m.content === "string") return m.content;
  if (!m.content) return "";
  const other = m.content.find((p) => p.type !== "text");
  if (other) throw new HttpError(400, "invalid_body", `only text content is understood; a ${m.role} message has a "${other.type}" part`);
  return m.content.map((p) => p.text ?? "").join("");
}

/** The model's format, or 404 `model_not_found`. */
function formatOf(model: string): FormatId {
  if (!Object.hasOwn(OPENAI_MODELS, model)) {
    throw new HttpError(404, "model_not_found", `the model "${model.slice(0, 64)}" does not exist; the models are ${Object.keys(OPENAI_MODELS).join(", ")}`);
  }
  return OPENAI_MODELS[model as ModelId];
}

/**
 * The message a run starts with: the question after the format's command. A question that
 * already begins with that command keeps it (and its options, e.g. `/council --debate …`); one
 * that begins with another format's command is refused, naming the model to use.
 */
function commandMessage(format: FormatId, question: string): string {
  const { command } = FORMATS[format];
  const first = question.trimStart().split(/\s/, 1)[0].toLowerCase();
  if (first === command) return question.trim();
  const other = (Object.keys(FORMATS) as FormatId[]).find((f) => FORMATS[f].command === first);
  if (other) {
    const model = Object.entries(OPENAI_MODELS).find(([, f]) => f === other)?.[0];
    throw new HttpError(400, "invalid_body", `the model runs ${command}, but the question asks for ${first}${model ? `: use the model ${model}` : ""}`);
  }
  return `${command} ${question.trim()}`;
}

/** The earlier messages as the run's history: questions and answers (system and tool messages are not the format's). */
function historyOf(messages: Message[]): BaseMessage[] {
  return messages.flatMap<BaseMessage>((m) => (m.role === "user" ? [new HumanMessage(textOfMessage(m))] : m.role === "assistant" ? [new AIMessage(textOfMessage(m))] : []));
}

/**
 * The reader's language: the first of English and Swedish that the request's Accept-Language
 * names, else the question's (clients send `*`, or nothing, far more often than a language).
 */
function readerLang(req: Request, question: string): Lang {
  const named = (req.get("accept-language") ?? "")
    .split(",")
    .map((part) => part.split(";")[0].trim().toLowerCase().slice(0, 2))
    .find((code) => (LANGS as readonly string[]).includes(code));
  return (named as Lang | undefined) ?? detectLanguage(question);
}

/** OpenAI's error type for a status. */
function errorType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 429) return "rate_limit_error";
  return status >= 500 ? "server_error" : "invalid_request_error";
}

/** An error in OpenAI's shape: `{error: {message, type, code, param}}`. */
function openaiError(err: HttpError) {
  return { error: { message: err.message, type: errorType(err.status), code: err.code, param: null } };
}

/** How a run's own error is answered when nothing was answered: its status. */
function statusOfRunError(code: string): number {
  if (["missing_topic", "unknown_option", "invalid_participants", "unknown_model", "invalid_mode_config", "empty_message"].includes(code)) return 400;
  if (code === "rate_limited") return 429;
  // The run's own budget is spent: payment is what it lacks.
  if (code === "budget_exceeded") return 402;
  if (code === "timeout") return 504;
  if (["shutting_down", "cancelled", "store_unavailable", "event_log_unavailable"].includes(code)) return 503;
  return 502;
}

/**
 * What a completion sends while the run goes on: the progress (as `reasoning_content`, inside a
 * `<think>` block of the content, or not at all) and the result (the content). A `<think>` block
 * closes when the result begins; progress after it is not sent in that mode.
 */
function progressWriter(mode: Settings["openaiProgress"], send: (delta: { content?: string; reasoning_content?: string }) => void) {
  let thinking = false;
  let resulted = false;
  const write: Write = (text, part = "progress") => {
    if (part === "result") {
      if (thinking) send({ content: "\n</think>\n\n" });
      thinking = false;
      resulted = true;
      send({ content: text });
    } else if (mode === "reasoning") send({ reasoning_content: text });
    else if (mode === "think" && !resulted) {
      if (!thinking) send({ content: "<think>\n" });
      thinking = true;
      send({ content: text });
    }
  };
  return {
    write,
    /** Closes an open `<think>` block (a run that ended without a result). */
    end: () => {
      if (thinking) send({ content: "\n</think>\n\n" });
      thinking = false;
    },
    get resulted() {
      return resulted;
    },
  };
}

/**
 * The OpenAI-compatible surface: `GET /v1/models` lists one model per format, and `POST
 * /v1/chat/completions` runs the format on the last user message (the earlier messages are the
 * history of the multi-turn formats), streamed as chat completion chunks or answered whole. The
 * deliberation's progress is narrated in the reader's language as `reasoning_content` (or a
 * `<think>` block, or not at all: `DEBATT_OPENAI_PROGRESS`), the result is the content. Errors
 * come in OpenAI's shape. Mount it at `/v1`; `identify` finds the user (the bearer token).
 */
export function openaiRouter(deps: ChatRouteDeps, identify: RequestHandler[]): Router {
  const router = Router();
  router.use(...identify);
  router.use(jsonBody(BODY_LIMIT));
  const models = Object.keys(OPENAI_MODELS).map((id) => ({ id, object: "model", created: CREATED, owned_by: "debatt" }));
  router.get("/models", (_req, res) => {
    res.json({ object: "list", data: models });
  });
  router.get("/models/:id", (req, res) => {
    formatOf(String(req.params.id));
    res.json(models.find((m) => m.id === req.params.id));
  });
  router.post("/chat/completions", async (req: Request, res: Response) => {
    const body = parseJsonBody(req, CompletionBody, '{"model": "debatt", "messages": [{"role": "user", "content": "…"}]}');
    const format = formatOf(body.model);
    const last = body.messages.at(-1)!;
    if (last.role !== "user") throw new HttpError(400, "invalid_body", `the last message must be the user's question (it is a ${last.role} message)`);
    const parsed = userText("the last user message", MAX_MESSAGE_CHARS).safeParse(textOfMessage(last));
    if (!parsed.success) throw new HttpError(400, "invalid_body", parsed.error.issues.map((i) => i.message).join("; "));
    const question = parsed.data;
    const message = commandMessage(format, question);
    checkParticipants(deps.settings, parseCommand(message), body.participants);
    // A single-question format takes no history: only the last question is asked.
    const history = FORMATS[format].multiTurn ? historyOf(body.messages.slice(0, -1)) : [];
    const user = userOf(res);
    const configurable = body.max_cost_usd === undefined ? undefined : { max_cost_usd: body.max_cost_usd };
    const run = deps.service.start({ message, participants: body.participants, history, configurable, owner: user.id, quotaKey: quotaKeyOf(req, res) });
    const t = (key: Parameters<typeof translate>[1], values?: Record<string, string | number>) => translate(readerLang(req, question), key, values);
    const id = `chatcmpl-${run.runId}`;
    const created = Math.floor(Date.now() / 1000);
    res.setHeader("X-Debatt-Run-Id", run.runId);
    res.setHeader("X-Debatt-Conversation-Id", run.threadId);
    await (body.stream ? streamCompletion : wholeCompletion)({ deps, req, res, runId: run.runId, id, created, model: body.model, t, includeUsage: body.stream_options?.include_usage === true });
  });
  router.all("/chat/completions", (req) => {
    throw new HttpError(405, "method_not_allowed", `use POST for ${req.originalUrl}`, { Allow: "POST" });
  });
  router.use((req) => {
    throw new HttpError(404, "not_found", `no route ${req.method} ${req.originalUrl}; the OpenAI-compatible routes are GET /v1/models and POST /v1/chat/completions`);
  });
  router.use(openaiErrorHandler);
  return router;
}

/** What answering one completion needs. */
interface Completion {
  deps: ChatRouteDeps;
  req: Request;
  res: Response;
  runId: string;
  id: string;
  created: number;
  model: string;
  t: Parameters<typeof createNarrator>[2];
  /** `stream_options.include_usage`: a last chunk with the usage. */
  includeUsage: boolean;
}

/** What a completion learns of its run: the error it ended with, if any, and what its calls used. */
interface Narrated {
  failure?: { code: string; message: string };
  usage?: ClientPayload<"usage">;
}

/**
 * Reads the run's events into the narrator until `done`; returns the run's error, if it ended
 * with one, and its usage. A client that leaves first stops the run (it cannot come back for the
 * rest: the answer is not resumable through this API; the history keeps what was said).
 */
async function narrate(c: Completion, write: Write): Promise<Narrated> {
  const left = new AbortController();
  const leave = () => {
    if (!c.res.writableFinished) left.abort();
  };
  c.res.on("close", leave);
  const narrator = createNarrator(write, MARKDOWN_STYLES, c.t);
  let usage: ClientPayload<"usage"> | undefined;
  try {
    const failure = await followRun(
      c.deps.service,
      c.runId,
      left.signal,
      (e) => {
        if (e.event === "usage") usage = e.data;
        narrator(e);
      },
      "the OpenAI-compatible client left before the answer was complete",
    );
    return { failure, usage };
  } finally {
    c.res.off("close", leave);
  }
}

/**
 * OpenAI's `usage` of a completion: the tokens of every model call the run made, cached ones
 * among the prompt's, reasoning ones among the completion's, and (debatt's addition) the cost in USD where it is known.
 */
function openaiUsage(usage: ClientPayload<"usage"> | undefined) {
  const u = usage?.total ?? NO_USAGE;
  return {
    prompt_tokens: u.input_tokens,
    completion_tokens: u.output_tokens,
    total_tokens: u.input_tokens + u.output_tokens,
    prompt_tokens_details: { cached_tokens: u.cached_tokens },
    completion_tokens_details: { reasoning_tokens: u.reasoning_tokens },
    cost: usage && !usage.simulated && u.unpriced_calls < u.calls ? u.cost_usd : null,
    model_calls: u.calls,
    unpriced_calls: u.unpriced_calls,
  };
}

/** `stream: true`: chat completion chunks as SSE, then `[DONE]`; an error after the headers as an `error` chunk. */
async function streamCompletion(c: Completion): Promise<void> {
  const { res } = c;
  res.writeHead(200, { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache", Connection: "keep-alive", "X-Accel-Buffering": "no" });
  const chunk = (delta: Record<string, string>, finish: string | null = null) =>
    res.write(`data: ${JSON.stringify({ id: c.id, object: "chat.completion.chunk", created: c.created, model: c.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
  chunk({ role: "assistant", content: "" });
  const writer = progressWriter(c.deps.settings.openaiProgress, (delta) => chunk(delta as Record<string, string>));
  const { failure, usage } = await narrate(c, writer.write);
  if (res.destroyed) return;
  writer.end();
  if (failure && !writer.resulted) {
    const status = statusOfRunError(failure.code);
    res.write(`data: ${JSON.stringify(openaiError(new HttpError(status, failure.code as never, failure.message)))}\n\n`);
  } else chunk({}, "stop");
  // As OpenAI does: a last chunk with no choices and the usage of the whole answer.
  if (c.includeUsage) res.write(`data: ${JSON.stringify({ id: c.id, object: "chat.completion.chunk", created: c.created, model: c.model, choices: [], usage: openaiUsage(usage) })}\n\n`);
  res.end("data: [DONE]\n\n");
}

/** `stream` absent or false: the whole completion once the run is done; a run that failed without an answer as an error. */
async function wholeCompletion(c: Completion): Promise<void> {
  let content = "";
  let reasoning = "";
  const writer = progressWriter(c.deps.settings.openaiProgress, (delta) => {
    content += delta.content ?? "";
    reasoning += delta.reasoning_content ?? "";
  });
  const { failure, usage } = await narrate(c, writer.write);
  if (c.res.destroyed) return;
  writer.end();
  if (failure && !writer.resulted) throw new HttpError(statusOfRunError(failure.code), failure.code as never, failure.message);
  const message = { role: "assistant", content, ...(reasoning ? { reasoning_content: reasoning } : {}) };
  c.res.json({ id: c.id, object: "chat.completion", created: c.created, model: c.model, choices: [{ index: 0, message, finish_reason: "stop" }], usage: openaiUsage(usage) });
}

/** Answers every error of the `/v1` routes in OpenAI's shape, with the status and headers debatt gives it. */
const openaiErrorHandler: ErrorRequestHandler = (err, _req, res, next) => {
  if (res.headersSent) return next(err);
  const http = toHttpError(err);
  for (const [name, value] of Object.entries(http.headers)) res.setHeader(name, value);
  res.status(http.status).json(openaiError(http));
};
