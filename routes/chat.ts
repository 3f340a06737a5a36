import { randomUUID } from "node:crypto";
import { Router, type Request, type Response } from "express";
import { z } from "zod";
import type { DebattGraph } from "../graph/build.js";
import { streamClientEvents, type RunInput } from "../graph/run.js";
import { parseCommand } from "../nodes/resolve-intent.js";
import { MODE_MODELS } from "../state/deliberation.js";
import { DEFAULTS, type Settings } from "../state/config.js";
import { MAX_PARTICIPANTS, resolveDeliberators, selectParticipants } from "../state/participants.js";
import { HttpError } from "./errors.js";
import { ActiveRuns, ShutdownError } from "./runs.js";
import { SseStream } from "./sse.js";
import type { StartGate } from "./start-gate.js";

/** Control characters other than tab, line feed and carriage return. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** A user's text field: non-empty, well-formed Unicode, at most `maxChars`, no control characters. */
export function userText(field: string, maxChars: number) {
  return z
    .string({ error: `${field} must be a string` })
    .refine((m) => m.trim() !== "", `${field} is empty`)
    .refine((m) => m.isWellFormed(), `${field} is not valid Unicode (it contains a lone surrogate)`)
    .refine((m) => [...m].length <= maxChars, `${field} is longer than ${maxChars} characters`)
    .refine((m) => !CONTROL.test(m), `${field} contains control characters`);
}

/** The body of `POST /api/v1/chat/stream`; unknown fields are refused so that typos do not pass. */
function chatBodySchema(maxChars: number) {
  return z
    .object(
      {
        message: userText("message", maxChars),
        threadId: z
          .string({ error: "threadId must be a string" })
          .regex(/^[A-Za-z0-9._:-]{1,128}$/, "threadId must be 1–128 characters of A–Z, a–z, 0–9, '.', '_', ':' or '-'")
          .optional(),
        participants: z
          .array(z.string({ error: "participants must be strings" }).min(1, "a participant is empty").max(64), {
            error: "participants must be an array of participant keys or names",
          })
          .max(MAX_PARTICIPANTS, `participants lists more than ${MAX_PARTICIPANTS} entries`)
          .optional(),
      },
      { error: "the body must be a JSON object" },
    )
    .strict();
}

/** Dependencies of the chat route. */
export interface ChatRouteDeps {
  graph: DebattGraph;
  settings: Settings;
  runs: ActiveRuns;
  startGate: StartGate;
  log: (line: string) => void;
}

/**
 * `POST /api/v1/chat/stream`: validates the body (a 4xx JSON error before any event), then streams
 * the run's events as SSE until `done`. A client that disconnects cancels its run.
 */
export function chatRouter(deps: ChatRouteDeps): Router {
  const schema = chatBodySchema(DEFAULTS.maxMessageChars);
  const router = Router();
  router.post("/api/v1/chat/stream", async (req: Request, res: Response) => {
    const body = parseJsonBody(req, schema, '{"message": "…"}');
    checkParticipants(deps.settings, body.message, body.participants);
    assertAccepting(deps.runs);
    await streamRun(deps, res, { message: body.message, participants: body.participants }, body.threadId);
  });
  router.all("/api/v1/chat/stream", postOnly);
  return router;
}

/** Answers 405 to a method other than POST. */
export function postOnly(req: Request): never {
  throw new HttpError(405, "method_not_allowed", `use POST for ${req.path}`, { Allow: "POST" });
}

/** Validates a JSON request body against `schema`; a 4xx naming every problem otherwise. */
export function parseJsonBody<T>(req: Request, schema: z.ZodType<T>, example: string): T {
  if (!req.is("application/json")) {
    throw new HttpError(415, "unsupported_media_type", "the body must be JSON with content-type: application/json");
  }
  if (Number(req.get("content-length") ?? 0) === 0 && !req.get("transfer-encoding")) {
    throw new HttpError(400, "invalid_body", `the body is empty: send a JSON object ${example}`);
  }
  const parsed = schema.safeParse(req.body);
  if (!parsed.success) throw new HttpError(400, "invalid_body", parsed.error.issues.map(describeIssue).join("; "));
  return parsed.data;
}

/**
 * Checks the requested participants against what the message's command takes (a seed format's
 * model count and ids, or the debate roster), so a bad list is a 400 before the stream starts.
 */
function checkParticipants(settings: Settings, message: string, participants: string[] | undefined): void {
  const command = parseCommand(message);
  try {
    if (command.kind === "deliberation") resolveDeliberators(settings.roster, participants, MODE_MODELS[command.mode]);
    else selectParticipants(settings.roster, participants);
  } catch (err) {
    throw new HttpError(400, "invalid_participants", (err as Error).message);
  }
}

/** 503 while the server drains for shutdown. */
export function assertAccepting(runs: ActiveRuns): void {
  if (runs.shuttingDown) {
    throw new HttpError(503, "shutting_down", "the server is shutting down; retry on another instance", { "Retry-After": "5" });
  }
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys") return `unknown field(s): ${issue.keys.join(", ")}`;
  const path = issue.path.join(".");
  return path && !issue.message.startsWith(String(issue.path[0])) ? `${path}: ${issue.message}` : issue.message;
}

/**
 * Streams one run as SSE: `metadata` first, then the graph's events until `done`. A client that
 * disconnects cancels the run; a shutdown cancels it with an `error` (shutting_down) before `done`.
 */
export async function streamRun(deps: ChatRouteDeps, res: Response, input: RunInput, threadId: string = randomUUID()): Promise<void> {
  const controller = new AbortController();
  const release = deps.runs.add(controller);
  res.on("close", () => {
    if (!res.writableFinished) controller.abort(new Error("the client disconnected"));
  });
  const sse = new SseStream(res, deps.settings.sseKeepAliveMs);
  try {
    // Acknowledge at once, before the graph starts (as the LangGraph API server does): the client
    // learns the thread id to continue with, and sees the stream is live even when the server is busy.
    await sse.send({ event: "metadata", data: { thread_id: threadId, run_id: randomUUID(), timestamp: new Date().toISOString() } });
    await deps.startGate.turn();
    const events = streamClientEvents(deps.graph, input, { signal: controller.signal, threadId });
    for await (const event of events) {
      if (event.event === "done" && controller.signal.reason instanceof ShutdownError) {
        const reason = controller.signal.reason;
        await sse.send({ event: "error", data: { message: reason.message, code: reason.code, timestamp: new Date().toISOString() } });
      }
      await sse.send(event);
    }
  } finally {
    sse.end();
    release();
    if (controller.signal.aborted && !(controller.signal.reason instanceof ShutdownError)) {
      deps.log(`run ${threadId} cancelled: ${(controller.signal.reason as Error)?.message}`);
    }
  }
}
