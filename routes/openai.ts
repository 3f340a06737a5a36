import { randomUUID } from "node:crypto";
import { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from "express";
import type { Usage } from "../state/usage.js";
import { parseJsonBody, type ChatRouteDeps } from "./chat.js";
import { HttpError, logUntold, toHttpError } from "./errors.js";
import { jsonBody } from "./json-body.js";
import { answerQuestion, costFields, endWhole, keepAlive, openaiError } from "./openai-answer.js";
import { OPENAI_MODELS } from "../service/formats.js";
import { CompletionBody, formatOf, resultShapeOf } from "./openai-request.js";
import type { Delta } from "./openai-result.js";
import { responsesHandler } from "./openai-responses.js";
import { SSE_HEADERS } from "./sse.js";

/** When the model list says the models were made (they are formats, not weights: a fixed date). */
const CREATED = Date.UTC(2026, 0, 1) / 1000;

/** Largest request body: a chat client sends the whole conversation every time, pasted documents and all. */
export const OPENAI_BODY_BYTES = 1024 * 1024;

/**
 * The OpenAI-compatible surface: `GET /v1/models` lists one model per format, and `POST
 * /v1/chat/completions` runs the format on the last user message (the earlier messages are the
 * history of the multi-turn formats), streamed as chat completion chunks or answered whole. The
 * deliberation's progress is narrated in the reader's language as `reasoning_content` (or a
 * `<think>` block, or not at all: `DEBATT_OPENAI_PROGRESS`) before the result, which is the
 * content. A client's housekeeping request (a title, tags, follow-ups…) is answered by one call to
 * the internal model, without a run. `POST /v1/responses` answers the same in the Responses API's
 * shape (see openai-responses.ts). Errors come in OpenAI's shape. Mount it at `/v1`; `identify`
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
    const completion = {
      deps,
      res,
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      stream: body.stream === true,
      includeUsage: body.stream_options?.include_usage === true,
    };
    const question = { format, shape, jsonField: "response_format", messages: body.messages, participants: body.participants, maxCostUsd: body.max_cost_usd };
    await answerQuestion(deps, req, res, question, (runId) => completionResponse({ ...completion, id: `chatcmpl-${runId ?? randomUUID()}` }));
  });
  router.post("/responses", responsesHandler(deps));
  router.all(["/chat/completions", "/responses"], (req) => {
    throw new HttpError(405, "method_not_allowed", `use POST for ${req.originalUrl}`, { Allow: "POST" });
  });
  router.use((req) => {
    throw new HttpError(
      404,
      "not_found",
      `no route ${req.method} ${req.originalUrl}; the OpenAI-compatible routes are GET /v1/models, POST /v1/chat/completions and POST /v1/responses`,
    );
  });
  router.use(openaiErrorHandler(deps.log));
  return router;
}

/** What writing one completion needs. */
interface Completion {
  deps: ChatRouteDeps;
  res: Response;
  id: string;
  created: number;
  model: string;
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
    ...costFields(u, simulated),
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
  const quiet = keepAlive(res, c.stream, c.deps.settings.sseKeepAliveMs);
  const send = (delta: Delta) => {
    quiet.refresh();
    if (!c.stream) {
      content += delta.content ?? "";
      reasoning += delta.reasoning_content ?? "";
    } else if (!res.destroyed) res.write(chunk(delta));
  };
  return {
    send,
    // A whole answer always has its usage; a stream, when it asked with stream_options.include_usage.
    reportsUsage: c.includeUsage || !c.stream,
    /** Ends the completion: its finish, what was told after the result, its usage. */
    finish(finishReason: string, after: string, usage: Usage, simulated: boolean): void {
      clearInterval(quiet);
      if (res.destroyed) return;
      const debatt = after ? { debatt: { after } } : {};
      if (c.stream) {
        res.write(chunk({}, finishReason, debatt));
        // As OpenAI does: a last chunk with no choices and the usage of the whole answer.
        if (c.includeUsage)
          res.write(
            `data: ${JSON.stringify({ id: c.id, object: "chat.completion.chunk", created: c.created, model: c.model, choices: [], usage: openaiUsage(usage, simulated) })}\n\n`,
          );
        res.end("data: [DONE]\n\n");
        return;
      }
      const message = { role: "assistant", content, ...(reasoning ? { reasoning_content: reasoning } : {}) };
      const body = {
        id: c.id,
        object: "chat.completion",
        created: c.created,
        model: c.model,
        choices: [{ index: 0, message, finish_reason: finishReason }],
        usage: openaiUsage(usage, simulated),
        ...debatt,
      };
      endWhole(res, body);
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

/** Answers every error of the `/v1` routes in OpenAI's shape, with the status and headers debatt gives it. */
const openaiErrorHandler =
  (log: (line: string) => void): ErrorRequestHandler =>
  (err, req, res, next) => {
    if (res.headersSent) return next(err);
    const http = toHttpError(err);
    logUntold(log, req, http, err);
    for (const [name, value] of Object.entries(http.headers)) res.setHeader(name, value);
    res.status(http.status).json(openaiError(http));
  };
