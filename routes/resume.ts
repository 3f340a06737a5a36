import type { CancelAccepted, InputAccepted } from "../state/api.js";
import { Router, type Request, type Response } from "express";
import { parseJsonBody, serveEvents, type ChatRouteDeps } from "./chat.js";
import type { RunEvent } from "../ports/event-log.js";
import { ERROR_EVENT_NAMES, SseStream, type ErrorEventName } from "./sse.js";
import { personInputSchema } from "../state/person-schemas.js";
import { quotaKeyOf, userOf } from "./auth.js";
import { HttpError } from "./errors.js";
import { CONVERSATION_ID, ID_RULE } from "./follow-up.js";

/** How soon an EventSource reconnects after the server ends a connection. */
const RETRY_MS = 500;

/** The name the reader wants the run's `error` event under (`?error_event=run-error`, for an EventSource). */
function errorEventOf(req: Request): ErrorEventName {
  const asked = req.query.error_event;
  if (asked === undefined) return "error";
  if (typeof asked === "string" && (ERROR_EVENT_NAMES as readonly string[]).includes(asked)) return asked as ErrorEventName;
  throw new HttpError(400, "invalid_error_event", `error_event must be ${ERROR_EVENT_NAMES.join(" or ")}`);
}

/** The last event id the client has: `Last-Event-ID` (EventSource sends it) or `?after=`; 0 for all. */
function afterIdOf(req: Request): number {
  const raw = req.get("last-event-id") ?? (typeof req.query.after === "string" ? req.query.after : undefined);
  if (raw === undefined || raw === "") return 0;
  if (!/^\d{1,9}$/.test(raw))
    throw new HttpError(400, "invalid_last_event_id", `Last-Event-ID / after must be a whole number of the run's events, got "${raw.slice(0, 40)}"`);
  return Number(raw);
}

/**
 * How long to wait for a finished run's stored events when telling whether a client has them all.
 * They are there at once (in memory, or a read from Redis); only a position past the end leaves
 * the shared log's read waiting, and then the stream is served as before.
 */
const END_CHECK_MS = 1_000;

/**
 * Whether a client that has the run's events up to `afterId` has every one of them: the run has
 * ended and its `done` is at or before `afterId`. Such a request (an EventSource reconnecting
 * after `done`, as it does until its page calls `close()`) is answered 204 No Content, which
 * tells an EventSource to stop reconnecting.
 */
async function hasEveryEvent(deps: ChatRouteDeps, runId: string, afterId: number): Promise<boolean> {
  if (afterId === 0 || !(await deps.service.hub.finished(runId))) return false;
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), END_CHECK_MS);
  try {
    // From the client's own last event: `done` there means nothing follows it.
    for await (const event of deps.service.hub.follow(runId, afterId - 1, stop.signal)) return event.id === afterId && event.event === "done";
    // A finished run's log with nothing from `afterId` on: the client is past its end.
    return !stop.signal.aborted;
  } finally {
    clearTimeout(timer);
    stop.abort();
  }
}

/** Sends `events` as an SSE stream of their own, and ends it. */
async function sendEvents(deps: ChatRouteDeps, res: Response, events: RunEvent[], errorEvent: ErrorEventName): Promise<void> {
  const sse = new SseStream(res, deps.settings.sseKeepAliveMs, RETRY_MS, errorEvent);
  for (const event of events) await sse.send(event);
  sse.end();
}

/** The debate a person's input names: a run id or a thread id (400 when it cannot be either). */
function debateIdOf(req: Request): string {
  const id = String(req.params.id);
  if (!CONVERSATION_ID.test(id)) throw new HttpError(400, "invalid_run_id", `the id is the run_id of the debate's stream (or its thread_id), ${ID_RULE}`);
  return id;
}

/** The run id of the path (400 when it cannot be one). */
function runIdOf(req: Request): string {
  const runId = String(req.params.id);
  if (!/^[A-Za-z0-9-]{1,64}$/.test(runId))
    throw new HttpError(400, "invalid_run_id", "the run id is the run_id of the stream's metadata event (letters, digits and '-')");
  return runId;
}

/**
 * `GET /api/v1/debates/:id/events`: replays a run's events after `Last-Event-ID` (or `?after=`),
 * then continues live until `done`; a finished run replays completely, and one whose `done` the
 * client already has is answered 204 (an EventSource then stops reconnecting). `POST
 * /api/v1/debates/:id/cancel`: stops the run on whichever instance runs it (202 `stopping`; 200
 * `cancelled` when the instance that ran it is gone, which ends it here; 409 `run_finished` when it has ended). The id is the `run_id` of the stream's `metadata` event. Any
 * instance sharing the Redis event log can serve both. `POST /api/v1/debates/:id/input`: the turn
 * or vote of the person who joined the debate (`--with-me`); 202 with the run that goes on (the
 * same, or after a restart a resumed run of its thread, to follow with `GET …/events`).
 */
export function resumeRouter(deps: ChatRouteDeps): Router {
  const router = Router();
  /** `runId`, when it is a run the log knows and the requester may see (else 404). */
  async function knownRun(res: Response, runId: string): Promise<string> {
    // Another user's run is answered as one that does not exist.
    if (!(await deps.service.hub.has(runId)) || !(await deps.service.mayReadRun(userOf(res), runId))) {
      throw new HttpError(
        404,
        "run_not_found",
        `no events for run "${runId}": it never ran here, or it finished more than ${Math.round(deps.settings.eventLogTtlMs / 60_000)} minutes ago`,
      );
    }
    return runId;
  }
  router.get("/api/v1/debates/:id/events", async (req: Request, res: Response) => {
    const runId = runIdOf(req);
    const afterId = afterIdOf(req);
    const errorEvent = errorEventOf(req);
    // A run whose server died with its events: the reader is told so, and that it can be resumed.
    const interrupted =
      !(await deps.service.hub.has(runId)) && (await deps.service.mayReadRun(userOf(res), runId)) ? await deps.service.interrupted(runId) : undefined;
    if (interrupted) return void (await sendEvents(deps, res, interrupted, errorEvent));
    await knownRun(res, runId);
    if (await hasEveryEvent(deps, runId, afterId)) return void res.status(204).end();
    await serveEvents(deps, res, runId, afterId, {
      maxConnectionMs: deps.settings.sseMaxConnectionMs,
      retryMs: RETRY_MS,
      errorEvent,
      quotaKey: quotaKeyOf(req, res),
    });
  });
  router.post("/api/v1/debates/:id/input", async (req: Request, res: Response) => {
    const id = debateIdOf(req);
    const input = parseJsonBody(req, personInputSchema, '{"text": "…"}');
    // Another user's debate is answered as one that waits for nobody.
    const user = userOf(res);
    if (!(await deps.service.mayAnswer(user, id))) {
      throw new HttpError(409, "not_awaiting_input", `debate "${id}" does not wait for anyone's input: it has finished, or it never ran here`);
    }
    const run = await deps.service.input(id, input, quotaKeyOf(req, res));
    res.status(202).json({ run_id: run.runId, thread_id: run.threadId, status: run.status } satisfies InputAccepted);
  });
  router.get("/api/v1/debates/:id/input", async (req: Request, res: Response) => {
    const id = debateIdOf(req);
    // Another user's debate is answered as one that waits for nobody.
    const waiting = (await deps.service.mayAnswer(userOf(res), id)) ? await deps.service.awaiting(id) : undefined;
    res.json(waiting ? { run_id: waiting.runId, thread_id: waiting.threadId, live: waiting.live, waiting: waiting.request } : { waiting: null });
  });
  router.all("/api/v1/debates/:id/input", (req) => {
    throw new HttpError(405, "method_not_allowed", `use GET or POST for ${req.path}`, { Allow: "GET, POST" });
  });
  router.post("/api/v1/debates/:id/cancel", async (req: Request, res: Response) => {
    const runId = await knownRun(res, runIdOf(req));
    const status = await deps.service.stop(runId);
    res.status(status === "stopping" ? 202 : 200).json({ run_id: runId, status } satisfies CancelAccepted);
  });
  return router;
}

/**
 * `POST /api/v1/debates/:id/resume`: continues a run that stopped before it finished (the
 * process died, or it was cancelled) from its last saved step, streaming the rest as SSE like the
 * chat stream. `:id` is the run's thread: the `thread_id` of its stream, which for a run started
 * without a `threadId` is also its `run_id` and `debate_id`. Finished turns are not asked again. 409 when the thread has nothing left to run or
 * a run of it is going on in this process; 501 without a checkpointer.
 */
export function threadResumeRouter(deps: ChatRouteDeps): Router {
  const router = Router();
  router.post("/api/v1/debates/:id/resume", async (req: Request, res: Response) => {
    const threadId = String(req.params.id);
    if (!CONVERSATION_ID.test(threadId)) throw new HttpError(400, "invalid_thread_id", `the id must be ${ID_RULE}`);
    if (!(await deps.service.mayUseThread(userOf(res), threadId))) {
      // Answered as a thread that never ran here.
      throw new HttpError(409, "nothing_to_resume", `thread "${threadId}" has no unfinished run (it never ran here, or no step of it was saved)`);
    }
    // One of the user's open streams, taken before the run is, so a refusal costs nothing.
    const closing = await deps.service.openStream(quotaKeyOf(req, res));
    try {
      const run = await deps.service.resume(threadId, quotaKeyOf(req, res));
      await serveEvents(deps, res, run.runId, 0, { maxConnectionMs: deps.settings.sseMaxConnectionMs });
    } finally {
      closing();
    }
  });
  return router;
}
