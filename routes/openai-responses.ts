import { randomUUID } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import type { Usage } from "../state/usage.js";
import { userOf } from "./auth.js";
import { parseJsonBody, type ChatRouteDeps } from "./chat.js";
import type { HttpError } from "./errors.js";
import { answerQuestion, costFields, endWhole, keepAlive, type AnswerOutput } from "./openai-answer.js";
import { formatOf } from "./openai-request.js";
import { chatMessages, conversationOf, responseShapeOf, ResponsesBody, type ResponsesRequest } from "./openai-responses-request.js";
import type { Delta } from "./openai-result.js";
import { SSE_HEADERS } from "./sse.js";

/**
 * `POST /v1/responses`, OpenAI's Responses API (what `@ai-sdk/openai`'s `openai(id)` and other
 * current clients call): the same answer as a chat completion, in the Responses API's shape. The
 * input's last message is the question, its earlier messages the history of the multi-turn formats;
 * `previous_response_id` continues that response's conversation. The deliberation's progress is a
 * `reasoning` item (its summary text; `DEBATT_OPENAI_PROGRESS`), the result a `message` item;
 * streamed as the API's events, or answered whole as one `response`.
 */
export function responsesHandler(deps: ChatRouteDeps): RequestHandler {
  return async (req: Request, res: Response) => {
    const body = parseJsonBody(req, ResponsesBody, '{"model": "debatt", "input": "…"}');
    const format = formatOf(body.model);
    const shape = responseShapeOf(body);
    const user = userOf(res);
    const threadId = body.previous_response_id ? await conversationOf(deps, user, body.previous_response_id, format) : undefined;
    const messages = await chatMessages(deps, user, body.input);
    const responding = { deps, res, created: Math.floor(Date.now() / 1000), model: body.model, stream: body.stream === true, echo: echoOf(body) };
    const question = { format, shape, jsonField: "text.format", messages, participants: body.participants, maxCostUsd: body.max_cost_usd, threadId };
    await answerQuestion(deps, req, res, question, (runId) => responseWriter({ ...responding, key: runId ?? randomUUID() }));
  };
}

/** What a response repeats of its request, as the API does. */
function echoOf(body: ResponsesRequest) {
  const extra = body as Record<string, unknown>;
  return {
    instructions: typeof extra.instructions === "string" ? extra.instructions : null,
    max_output_tokens: body.max_output_tokens ?? null,
    previous_response_id: body.previous_response_id ?? null,
    text: { format: body.text?.format ?? { type: "text" } },
    tool_choice: extra.tool_choice ?? "auto",
    tools: Array.isArray(extra.tools) ? extra.tools : [],
    metadata: extra.metadata ?? {},
    parallel_tool_calls: false,
    temperature: null,
    top_p: null,
  };
}

/**
 * The Responses API's `usage`: the tokens of every model call made for the answer, cached ones
 * among the input's, reasoning ones among the output's, and debatt's cost fields.
 */
function responsesUsage(u: Usage, simulated: boolean) {
  return {
    input_tokens: u.input_tokens,
    input_tokens_details: { cached_tokens: u.cached_tokens },
    output_tokens: u.output_tokens,
    output_tokens_details: { reasoning_tokens: u.reasoning_tokens },
    total_tokens: u.input_tokens + u.output_tokens,
    ...costFields(u, simulated),
  };
}

/** What writing one response needs. */
interface Responding {
  deps: ChatRouteDeps;
  res: Response;
  /** The response's id after its `resp_` (its items' after `rs_` and `msg_`): the run's id, or a new one. */
  key: string;
  created: number;
  model: string;
  stream: boolean;
  echo: ReturnType<typeof echoOf>;
}

/**
 * A response as it is written: the Responses API's events (`stream: true`: `response.created`,
 * the reasoning item with its summary's deltas, the message item with its text's deltas,
 * `response.completed`), each with its `sequence_number`; or one `response` object at the end. The
 * reasoning item holds all the progress and comes first (the writer sends no progress once the
 * result has begun). Kept alive while quiet, as a chat completion is.
 */
function responseWriter(r: Responding): AnswerOutput {
  const { res } = r;
  let sequence = 0;
  const emit = (type: string, fields: Record<string, unknown>) => {
    if (r.stream && !res.destroyed) res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...fields })}\n\n`);
  };
  /** The items that are done, in order. */
  const output: Record<string, unknown>[] = [];
  let at: "start" | "reasoning" | "message" = "start";
  const reasoning = { item_id: `rs_${r.key}`, output_index: 0, summary_index: 0 };
  const message = { item_id: `msg_${r.key}`, output_index: 0, content_index: 0 };
  let thought = "";
  let text = "";
  const summaryPart = () => ({ type: "summary_text", text: thought });
  const textPart = () => ({ type: "output_text", text, annotations: [], logprobs: [] });
  const reasoningItem = (done: boolean) => ({ id: reasoning.item_id, type: "reasoning", summary: done ? [summaryPart()] : [] });
  const messageItem = (status: string) => ({
    id: message.item_id,
    type: "message",
    role: "assistant",
    status,
    content: status === "in_progress" ? [] : [textPart()],
  });
  const snapshot = (status: string, fields: Record<string, unknown> = {}) => ({
    id: `resp_${r.key}`,
    object: "response",
    created_at: r.created,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    model: r.model,
    output: [...output],
    output_text: text,
    ...r.echo,
    usage: null,
    ...fields,
  });

  const openReasoning = () => {
    at = "reasoning";
    reasoning.output_index = output.length;
    emit("response.output_item.added", { output_index: reasoning.output_index, item: reasoningItem(false) });
    emit("response.reasoning_summary_part.added", { ...reasoning, part: { type: "summary_text", text: "" } });
  };
  const closeReasoning = () => {
    emit("response.reasoning_summary_text.done", { ...reasoning, text: thought });
    emit("response.reasoning_summary_part.done", { ...reasoning, part: summaryPart() });
    output.push(reasoningItem(true));
    emit("response.output_item.done", { output_index: reasoning.output_index, item: reasoningItem(true) });
  };
  /** Opens the message item (closing the reasoning first), unless it is open. */
  const toMessage = () => {
    if (at === "message") return;
    if (at === "reasoning") closeReasoning();
    at = "message";
    message.output_index = output.length;
    emit("response.output_item.added", { output_index: message.output_index, item: messageItem("in_progress") });
    emit("response.content_part.added", { ...message, part: { ...textPart(), text: "" } });
  };
  const closeMessage = (status: string) => {
    emit("response.output_text.done", { ...message, text, logprobs: [] });
    emit("response.content_part.done", { ...message, part: textPart() });
    output.push(messageItem(status));
    emit("response.output_item.done", { output_index: message.output_index, item: messageItem(status) });
  };

  if (r.stream) {
    res.writeHead(200, SSE_HEADERS);
    emit("response.created", { response: snapshot("in_progress") });
    emit("response.in_progress", { response: snapshot("in_progress") });
  }
  const quiet = keepAlive(res, r.stream, r.deps.settings.sseKeepAliveMs);
  return {
    // The Responses API always ends with the usage (`response.completed`), and its cost.
    reportsUsage: true,
    send(delta: Delta): void {
      quiet.refresh();
      if (delta.reasoning_content && at !== "message") {
        if (at === "start") openReasoning();
        thought += delta.reasoning_content;
        emit("response.reasoning_summary_text.delta", { ...reasoning, delta: delta.reasoning_content });
      }
      if (delta.content) {
        toMessage();
        text += delta.content;
        emit("response.output_text.delta", { ...message, delta: delta.content, logprobs: [] });
      }
    },
    finish(finishReason: "stop" | "length", after: string, usage: Usage, simulated: boolean): void {
      clearInterval(quiet);
      if (res.destroyed) return;
      const cut = finishReason === "length";
      toMessage();
      closeMessage(cut ? "incomplete" : "completed");
      const response = snapshot(cut ? "incomplete" : "completed", {
        ...(cut ? { incomplete_details: { reason: "max_output_tokens" } } : {}),
        usage: responsesUsage(usage, simulated),
        ...(after ? { debatt: { after } } : {}),
      });
      if (!r.stream) return endWhole(res, response);
      emit(cut ? "response.incomplete" : "response.completed", { response });
      res.end();
    },
    /** A stream ends with `response.failed`; a whole response that has begun is one with status `failed`; else the error's status. */
    fail(err: HttpError): void {
      clearInterval(quiet);
      if (res.destroyed) return;
      // The Responses API's `error.code` is one of its own; debatt's code goes beside it.
      const failed = snapshot("failed", {
        error: {
          code: err.status === 429 ? "rate_limit_exceeded" : err.status < 500 ? "invalid_prompt" : "server_error",
          message: err.message,
          debatt_code: err.code,
        },
      });
      if (r.stream) {
        emit("response.failed", { response: failed });
        return void res.end();
      }
      if (res.headersSent) return void res.end(JSON.stringify(failed));
      throw err;
    },
  };
}
