import { randomUUID } from "node:crypto";
import { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from "express";
import { MARKDOWN_STYLES } from "../service/narration.js";
import { createNarrator } from "../service/narrator.js";
import { followRun } from "../service/follow-run.js";
import { answerAsJson, answerClientTask } from "../service/one-call.js";
import { clientTaskOf, type ClientTask } from "../state/client-tasks.js";
import { parseCommand } from "../state/commands.js";
import type { ClientPayload } from "../state/events.js";
import { FORMATS } from "../state/formats.js";
import { translate, type MessageKey } from "../state/messages/index.js";
import { addUsage, NO_USAGE, type Usage } from "../state/usage.js";
import { quotaKeyOf, userOf } from "./auth.js";
import { checkParticipants, parseJsonBody, type ChatRouteDeps } from "./chat.js";
import { HttpError, toHttpError } from "./errors.js";
import { jsonBody } from "./json-body.js";
import { commandMessage, CompletionBody, formatOf, OPENAI_MODELS, readConversation, readerLang, resultShapeOf, type ResultShape } from "./openai-request.js";
import { completionWriter, ResultLimit, type Delta } from "./openai-result.js";
import { SSE_HEADERS } from "./sse.js";

export { OPENAI_MODELS } from "./openai-request.js";

/** When the model list says the models were made (they are formats, not weights: a fixed date). */
const CREATED = Date.UTC(2026, 0, 1) / 1000;

/** Largest request body: a chat client sends the whole conversation every time, pasted documents and all. */
export const OPENAI_BODY_BYTES = 1024 * 1024;

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
 * The OpenAI-compatible surface: `GET /v1/models` lists one model per format, and `POST
 * /v1/chat/completions` runs the format on the last user message (the earlier messages are the
 * history of the multi-turn formats), streamed as chat completion chunks or answered whole. The
 * deliberation's progress is narrated in the reader's language as `reasoning_content` (or a
 * `<think>` block, or not at all: `DEBATT_OPENAI_PROGRESS`) before the result, which is the
 * content. A client's housekeeping request (a title, tags, follow-ups…) is answered by one call to
 * the internal model, without a run. Errors come in OpenAI's shape. Mount it at `/v1`; `identify`
 * finds the user (the bearer token).
 */
export function openaiRouter(deps: ChatRouteDeps, identify: RequestHandler[]): Router {
  const router = Router();
  router.use(...identify);
  router.use(jsonBody(OPENAI_BODY_BYTES));
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
    const shape = resultShapeOf(body);
    if (shape.json && !deps.oneCall) throw new HttpError(400, "invalid_body", "response_format cannot be honoured here: no model is set to write the answer as JSON");
    const conversation = readConversation(body.messages, FORMATS[format].multiTurn);
    const t = (key: MessageKey, values?: Record<string, string | number>) => translate(readerLang(req, conversation.question), key, values);
    const answer = { deps, req, res, created: Math.floor(Date.now() / 1000), model: body.model, t, shape, stream: body.stream === true, includeUsage: body.stream_options?.include_usage === true };
    const task = deps.oneCall && clientTaskOf(conversation.texts);
    if (task) return answerTask({ ...answer, id: `chatcmpl-${randomUUID()}` }, task, conversation.texts);
    const message = commandMessage(format, conversation.question);
    checkParticipants(deps.settings, parseCommand(message), body.participants);
    const user = userOf(res);
    const configurable = body.max_cost_usd === undefined ? undefined : { max_cost_usd: body.max_cost_usd };
    const run = deps.service.start({ message, participants: body.participants, history: conversation.history, configurable, owner: user.id, quotaKey: quotaKeyOf(req, res) });
    res.setHeader("X-Debatt-Run-Id", run.runId);
    res.setHeader("X-Debatt-Conversation-Id", run.threadId);
    const left = conversation.left.length > 0 ? t("openai.partsLeftOut", { parts: conversation.left.join(", ") }) : undefined;
    await completeRun({ ...answer, id: `chatcmpl-${run.runId}`, runId: run.runId, left });
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
  id: string;
  created: number;
  model: string;
  t: (key: MessageKey, values?: Record<string, string | number>) => string;
  shape: ResultShape;
  stream: boolean;
  /** `stream_options.include_usage`: a last chunk with the usage. */
  includeUsage: boolean;
}

/**
 * OpenAI's `usage` of a completion: the tokens of every model call made for it, cached ones among
 * the prompt's, reasoning ones among the completion's, and (debatt's addition) the cost in USD
 * where it is known.
 */
function openaiUsage(u: Usage, simulated: boolean) {
  return {
    prompt_tokens: u.input_tokens,
    completion_tokens: u.output_tokens,
    total_tokens: u.input_tokens + u.output_tokens,
    prompt_tokens_details: { cached_tokens: u.cached_tokens },
    completion_tokens_details: { reasoning_tokens: u.reasoning_tokens },
    cost: !simulated && u.unpriced_calls < u.calls ? u.cost_usd : null,
    model_calls: u.calls,
    unpriced_calls: u.unpriced_calls,
  };
}

/**
 * A completion's response as it is written: SSE chunks (`stream: true`) or one JSON object at
 * the end. Either way something goes out while the answer is awaited: a keep-alive comment on a
 * stream, spaces before a whole answer's JSON (leading whitespace is valid JSON), whenever the
 * response has been quiet for `SSE_KEEPALIVE_MS`; so proxies with an idle timeout do not cut a
 * slow run. A whole answer that has begun so is 200 whatever comes: an error is then the body.
 */
function completionResponse(c: Completion) {
  const { res } = c;
  const chunk = (delta: Delta | Record<string, never>, finish: string | null = null, extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ id: c.id, object: "chat.completion.chunk", created: c.created, model: c.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
  let content = "";
  let reasoning = "";
  if (c.stream) {
    res.writeHead(200, SSE_HEADERS);
    res.write(chunk({ role: "assistant", content: "" } as Delta));
  }
  const quiet = setInterval(() => {
    if (res.writableEnded || res.destroyed) return;
    if (c.stream) res.write(": keep-alive\n\n");
    else {
      if (!res.headersSent) res.writeHead(200, { "Content-Type": "application/json; charset=utf-8" });
      res.write(" ");
    }
  }, c.deps.settings.sseKeepAliveMs);
  quiet.unref();
  const send = (delta: Delta) => {
    quiet.refresh();
    if (!c.stream) {
      content += delta.content ?? "";
      reasoning += delta.reasoning_content ?? "";
    } else if (!res.destroyed) res.write(chunk(delta));
  };
  return {
    send,
    /** Ends the completion: its finish, what was told after the result, its usage. */
    finish(finishReason: string, after: string, usage: Usage, simulated: boolean): void {
      clearInterval(quiet);
      if (res.destroyed) return;
      const debatt = after ? { debatt: { after } } : {};
      if (c.stream) {
        res.write(chunk({}, finishReason, debatt));
        // As OpenAI does: a last chunk with no choices and the usage of the whole answer.
        if (c.includeUsage) res.write(`data: ${JSON.stringify({ id: c.id, object: "chat.completion.chunk", created: c.created, model: c.model, choices: [], usage: openaiUsage(usage, simulated) })}\n\n`);
        res.end("data: [DONE]\n\n");
        return;
      }
      const message = { role: "assistant", content, ...(reasoning ? { reasoning_content: reasoning } : {}) };
      const body = { id: c.id, object: "chat.completion", created: c.created, model: c.model, choices: [{ index: 0, message, finish_reason: finishReason }], usage: openaiUsage(usage, simulated), ...debatt };
      if (res.headersSent) res.end(JSON.stringify(body));
      else res.json(body);
    },
    /** Ends the completion with an error: an error chunk on a stream, else the error's status (or, begun already, its body). */
    fail(err: HttpError): void {
      clearInterval(quiet);
      if (res.destroyed) return;
      if (c.stream) return void res.end(`data: ${JSON.stringify(openaiError(err))}\n\ndata: [DONE]\n\n`);
      if (res.headersSent) return void res.end(JSON.stringify(openaiError(err)));
      throw err;
    },
  };
}

/** A client's housekeeping task, answered by one call to the internal model (no run, no history). */
async function answerTask(c: Completion, task: ClientTask, texts: { role: string; text: string }[]): Promise<void> {
  const left = new AbortController();
  const leave = () => left.abort();
  c.res.on("close", leave);
  const out = completionResponse(c);
  try {
    const { text, usage } = await answerClientTask(c.deps.oneCall!, task, texts, left.signal);
    const limit = new ResultLimit(c.shape);
    out.send({ content: limit.push(text) + limit.flush() });
    out.finish(limit.ended === "length" ? "length" : "stop", "", usage ?? { ...NO_USAGE, calls: 1, unpriced_calls: 1 }, c.deps.oneCall!.models.simulated);
  } catch (err) {
    if (left.signal.aborted) return;
    out.fail(toHttpError(err));
  } finally {
    c.res.off("close", leave);
  }
}

/**
 * Answers a completion with its run: the run's events narrated into the response until `done`.
 * A client that leaves first stops the run (it cannot come back for the rest: the answer is not
 * resumable through this API; the history keeps what was said). A JSON result is written from the
 * run's answer at the end.
 */
async function completeRun(c: Completion & { runId: string; left?: string }): Promise<void> {
  const gone = new AbortController();
  const leave = () => {
    if (!c.res.writableFinished) gone.abort();
  };
  c.res.on("close", leave);
  const out = completionResponse(c);
  const writer = completionWriter(c.deps.settings.openaiProgress, c.shape, out.send);
  const narrator = createNarrator(writer.write, MARKDOWN_STYLES, c.t);
  let report: ClientPayload<"usage"> | undefined;
  try {
    if (c.left) writer.write(`${c.left}\n`);
    const failure = await followRun(c.deps.service, c.runId, gone.signal, (e) => {
      if (e.event === "usage") report = e.data;
      narrator(e);
    }, "the OpenAI-compatible client left before the answer was complete");
    if (c.res.destroyed) return;
    let usage = report?.total ?? NO_USAGE;
    if (c.shape.json && writer.answer.trim()) {
      const written = await answerAsJson(c.deps.oneCall!, writer.answer, c.shape.json.schema, gone.signal);
      if (written.usage) usage = addUsage(usage, written.usage);
      if (written.json === undefined) return out.fail(new HttpError(502, "model_error", "the answer could not be written as JSON of the schema asked for (response_format); try again, or ask without it"));
      writer.sendResult(written.json);
    }
    writer.end();
    if (failure && !writer.resulted) return out.fail(new HttpError(statusOfRunError(failure.code), failure.code as never, failure.message));
    out.finish(writer.finishReason, writer.after, usage, report?.simulated ?? false);
  } finally {
    c.res.off("close", leave);
  }
}

/** Answers every error of the `/v1` routes in OpenAI's shape, with the status and headers debatt gives it. */
const openaiErrorHandler: ErrorRequestHandler = (err, _req, res, next) => {
  if (res.headersSent) return next(err);
  const http = toHttpError(err);
  for (const [name, value] of Object.entries(http.headers)) res.setHeader(name, value);
  res.status(http.status).json(openaiError(http));
};
