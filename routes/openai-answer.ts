import type { Request, Response } from "express";
import { MARKDOWN_STYLES } from "../service/narration.js";
import { createNarrator } from "../service/narrator.js";
import { followRun } from "../service/follow-run.js";
import { answerAsJson, answerClientTask } from "../service/one-call.js";
import { clientTaskOf, type ClientTask } from "../state/client-tasks.js";
import { parseCommand } from "../state/commands.js";
import type { ClientPayload } from "../state/events.js";
import { FORMATS, type FormatId } from "../state/formats.js";
import { costLine, translate, type Translate } from "../state/messages/index.js";
import { addUsage, NO_USAGE, type Usage } from "../state/usage.js";
import { quotaKeyOf, userOf } from "./auth.js";
import { checkParticipants, type ChatRouteDeps } from "./chat.js";
import { HttpError, toHttpError } from "./errors.js";
import { commandMessage, messageTexts, readConversation, readerLang, type ChatMessage, type ResultShape } from "./openai-request.js";
import { completionWriter, ResultLimit, type Delta } from "./openai-result.js";
import { continuedConversation } from "./openai-thread.js";
import { withPdfsRead } from "./openai-files.js";

/** OpenAI's error type for a status. */
function errorType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 429) return "rate_limit_error";
  return status >= 500 ? "server_error" : "invalid_request_error";
}

/** An error in OpenAI's shape: `{error: {message, type, code, param}}`. */
export function openaiError(err: HttpError) {
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

/** debatt's additions to OpenAI's `usage`: the cost in USD where it is known (not of simulated models), and the model calls. */
export function costFields(u: Usage, simulated: boolean) {
  return { cost: !simulated && u.unpriced_calls < u.calls ? u.cost_usd : null, model_calls: u.calls, unpriced_calls: u.unpriced_calls };
}

/**
 * How an answer is written in one API's shape (a chat completion, a Responses API response): its
 * pieces as they come, then its end or its failure.
 */
export interface AnswerOutput {
  send(delta: Delta): void;
  /** Whether the client gets the usage and cost from the output itself (it asked for them, or always does). */
  reportsUsage: boolean;
  /** Ends the answer: `length` when its token limit cut the result; what was told after the result; its usage. */
  finish(finishReason: "stop" | "length", after: string, usage: Usage, simulated: boolean): void;
  /** Ends the answer with an error (as a status, when nothing has been sent yet). */
  fail(err: HttpError): void;
}

/**
 * Keeps a response alive while it is quiet: every `ms` without a write (the caller refreshes the
 * timer on each), a comment line on a stream (SSE clients skip it), a space before a whole
 * answer's JSON (leading whitespace is valid JSON, and the status is then 200 whatever comes).
 * So proxies with an idle timeout do not cut a slow run. It stops when the response closes.
 */
export function keepAlive(res: Response, stream: boolean, ms: number): NodeJS.Timeout {
  const quiet = setInterval(() => {
    if (res.writableEnded || res.destroyed) return;
    if (stream) res.write(": keep-alive\n\n");
    else {
      if (!res.headersSent) res.writeHead(200, { "Content-Type": "application/json; charset=utf-8" });
      res.write(" ");
    }
  }, ms);
  quiet.unref();
  // However the answer ends (its end, an error answered by the router, the client leaving).
  res.once("close", () => clearInterval(quiet));
  return quiet;
}

/** Sends a whole answer's JSON: after the keep-alive spaces it has begun with, or as the response. */
export function endWhole(res: Response, body: unknown): void {
  if (res.headersSent) res.end(JSON.stringify(body));
  else res.json(body);
}

/** A question as an OpenAI-compatible request brings it, its conversation read as chat messages. */
export interface Question {
  format: FormatId;
  shape: ResultShape;
  /** The request's field that asks for a JSON result, named when it cannot be honoured. */
  jsonField: string;
  messages: ChatMessage[];
  participants?: string[];
  maxCostUsd?: number;
  /** The conversation the run continues (its thread keeps the history); a new one by default. */
  threadId?: string;
}

/** What answering a question needs besides its output. */
interface Answering {
  deps: ChatRouteDeps;
  res: Response;
  t: Translate;
  shape: ResultShape;
  jsonField: string;
}

/**
 * Answers a question: a client's housekeeping chore with one call to the internal model, anything
 * else with a run of its format on the last user message (the earlier messages are the history of
 * the multi-turn formats), narrated in the reader's language. `open` makes the answer's output once
 * the run (if any: its id) has started and its headers are set.
 */
export async function answerQuestion(deps: ChatRouteDeps, req: Request, res: Response, q: Question, open: (runId?: string) => AnswerOutput): Promise<void> {
  if (q.shape.json && !deps.oneCall)
    throw new HttpError(400, "invalid_body", `${q.jsonField} cannot be honoured here: no model is set to write the answer as JSON`);
  // A chore is read before the question's checks: its prompt quotes the chat, and may be long.
  const task = deps.oneCall && clientTaskOf(messageTexts(q.messages));
  if (task) {
    // A chore takes no run, but is limited apart, as cheaply as a run.
    const release = await deps.service.acquireApart(quotaKeyOf(req, res), "chores");
    try {
      return await answerTask(deps, res, q.shape, open(), task);
    } finally {
      release();
    }
  }
  const conversation = readConversation(await withPdfsRead(q.messages), FORMATS[q.format].multiTurn);
  const lang = readerLang(req, conversation.question);
  const a: Answering = { deps, res, t: (key, values) => translate(lang, key, values), shape: q.shape, jsonField: q.jsonField };
  const message = commandMessage(q.format, conversation.question);
  checkParticipants(deps.settings, parseCommand(message), q.participants);
  const user = userOf(res);
  const configurable = q.maxCostUsd === undefined ? undefined : { max_cost_usd: q.maxCostUsd };
  // A chat the client sends whole each time goes on in the conversation its last answer is from (whose thread keeps the earlier turns).
  const continued = q.threadId ?? (await continuedConversation(deps, user, q.format, conversation.history));
  const run = await deps.service.start({
    message,
    participants: q.participants,
    threadId: continued,
    history: continued && !q.threadId ? [] : conversation.history,
    // What the client retrieved for the question is material, read with it; the history keeps the question alone.
    ...(conversation.material.length > 0 ? { material: conversation.material } : {}),
    configurable,
    owner: user.id,
    quotaKey: quotaKeyOf(req, res),
  });
  res.setHeader("X-Debatt-Run-Id", run.runId);
  res.setHeader("X-Debatt-Conversation-Id", run.threadId);
  const left = conversation.left.length > 0 ? a.t("openai.partsLeftOut", { parts: conversation.left.join(", ") }) : undefined;
  await completeRun(a, open(run.runId), run.runId, left);
}

/**
 * What the run cost (or that it was simulated), told to a client that asked for no usage (Open
 * WebUI, most chat front ends drop debatt's last-chunk fields): at the end of the reasoning, at the
 * end of the content, or not (`DEBATT_OPENAI_COST_LINE`).
 */
function tellCost(a: Answering, out: AnswerOutput, report: ClientPayload<"usage">): void {
  const line = costLine(a.t, report);
  const where = a.deps.settings.openaiCostLine;
  if (where === "reasoning") out.send({ reasoning_content: `\n${line}\n` });
  else if (where === "content") out.send({ content: `\n\n*${line}*` });
}

/** A client's housekeeping task, answered by one call to the internal model (no run, no history). */
async function answerTask(deps: ChatRouteDeps, res: Response, shape: ResultShape, out: AnswerOutput, task: ClientTask): Promise<void> {
  const left = new AbortController();
  const leave = () => left.abort();
  res.on("close", leave);
  try {
    const { text, usage } = await answerClientTask(deps.oneCall!, task, left.signal);
    const limit = new ResultLimit(shape);
    out.send({ content: limit.push(text) + limit.flush() });
    out.finish(
      limit.ended === "length" ? "length" : "stop",
      "",
      usage ?? (task.kind === "tool_calls" ? NO_USAGE : { ...NO_USAGE, calls: 1, unpriced_calls: 1 }),
      deps.oneCall!.models.simulated,
    );
  } catch (err) {
    if (left.signal.aborted) return;
    out.fail(toHttpError(err));
  } finally {
    res.off("close", leave);
  }
}

/**
 * Answers with a run: the run's events narrated into the output until `done`. A client that leaves
 * first stops the run (it cannot come back for the rest: the answer is not resumable through this
 * API; the history keeps what was said). A JSON result is written from the run's answer at the end.
 */
async function completeRun(a: Answering, out: AnswerOutput, runId: string, left?: string): Promise<void> {
  const gone = new AbortController();
  const leave = () => {
    if (!a.res.writableFinished) gone.abort();
  };
  a.res.on("close", leave);
  const writer = completionWriter(a.deps.settings.openaiProgress, a.shape, out.send);
  const narrator = createNarrator(writer.write, MARKDOWN_STYLES, a.t);
  let report: ClientPayload<"usage"> | undefined;
  try {
    if (left) writer.write(`${left}\n`);
    const failure = await followRun(
      a.deps.service,
      runId,
      gone.signal,
      (e) => {
        if (e.event === "usage") report = e.data;
        narrator(e);
      },
      "the OpenAI-compatible client left before the answer was complete",
    );
    if (a.res.destroyed) return;
    let usage = report?.total ?? NO_USAGE;
    if (a.shape.json && writer.answer.trim()) {
      const unwritten = new HttpError(
        502,
        "model_error",
        `the answer could not be written as JSON of the schema asked for (${a.jsonField}); try again, or ask without it`,
      );
      if (report?.budget_usd !== undefined && usage.cost_usd >= report.budget_usd) {
        return out.fail(
          new HttpError(
            402,
            "budget_exceeded",
            `the run's budget of $${report.budget_usd} was spent before its answer could be written as JSON (${a.jsonField})`,
          ),
        );
      }
      const written = await answerAsJson(a.deps.oneCall!, writer.answer, a.shape.json.schema, gone.signal).catch((err: Error) => {
        if (gone.signal.aborted) throw err;
        a.deps.log(`writing an answer as JSON failed: ${err.message}`);
        return { json: undefined, usage: undefined };
      });
      if (written.usage) usage = addUsage(usage, written.usage);
      if (written.json === undefined) return out.fail(unwritten);
      writer.sendResult(written.json);
    }
    writer.end();
    if (failure && !writer.resulted) return out.fail(new HttpError(statusOfRunError(failure.code), failure.code as never, failure.message));
    if (report && !out.reportsUsage) tellCost(a, out, report);
    out.finish(writer.finishReason, writer.after, usage, report?.simulated ?? false);
  } finally {
    a.res.off("close", leave);
  }
}
