import { randomUUID } from "node:crypto";
import { Router, type Request, type Response } from "express";
import { z } from "zod";
import type { DebattGraph } from "../graph/build.js";
import { streamClientEvents } from "../graph/run.js";
import { DEFAULTS, type Settings } from "../state/config.js";
import { MAX_PARTICIPANTS, selectParticipants } from "../state/participants.js";
import { HttpError } from "./errors.js";
import { ActiveRuns, ShutdownError } from "./runs.js";
import { SseStream } from "./sse.js";
import type { StartGate } from "./start-gate.js";

/** Control characters other than tab, line feed and carriage return. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** The body of `POST /api/v1/chat/stream`; unknown fields are refused so that typos do not pass. */
function chatBodySchema(maxChars: number) {
  return z
    .object(
      {
        message: z
          .string({ error: "message must be a string" })
          .refine((m) => m.trim() !== "", "message is empty")
          .refine((m) => m.isWellFormed(), "message is not valid Unicode (it contains a lone surrogate)")
          .refine((m) => [...m].length <= maxChars, `message is longer than ${maxChars} characters`)
          .refine((m) => !CONTROL.test(m), "message contains control characters"),
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
    if (!req.is("application/json")) {
      throw new HttpError(415, "unsupported_media_type", "the body must be JSON with content-type: application/json");
    }
    if (Number(req.get("content-length") ?? 0) === 0 && !req.get("transfer-encoding")) {
      throw new HttpError(400, "invalid_body", "the body is empty: send a JSON object {\"message\": \"…\"}");
    }
    const parsed = schema.safeParse(req.body);
    if (!parsed.success) {
      throw new HttpError(400, "invalid_body", parsed.error.issues.map(describeIssue).join("; "));
    }
    const body = parsed.data;
    try {
      selectParticipants(deps.settings.roster, body.participants);
    } catch (err) {
      throw new HttpError(400, "invalid_participants", (err as Error).message);
    }
    if (deps.runs.shuttingDown) {
      throw new HttpError(503, "shutting_down", "the server is shutting down; retry on another instance", { "Retry-After": "5" });
    }
    await streamRun(deps, res, body);
  });
  router.all("/api/v1/chat/stream", () => {
    throw new HttpError(405, "method_not_allowed", "use POST for /api/v1/chat/stream", { Allow: "POST" });
  });
  return router;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys") return `unknown field(s): ${issue.keys.join(", ")}`;
  const path = issue.path.join(".");
  return path && !issue.message.startsWith(String(issue.path[0])) ? `${path}: ${issue.message}` : issue.message;
}

async function streamRun(
  deps: ChatRouteDeps,
  res: Response,
  body: { message: string; threadId?: string; participants?: string[] },
): Promise<void> {
  const controller = new AbortController();
  const release = deps.runs.add(controller);
  const threadId = body.threadId ?? randomUUID();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort(new Error("the client disconnected"));
  });
  const sse = new SseStream(res, deps.settings.sseKeepAliveMs);
  try {
    // Acknowledge at once, before the graph starts (as the LangGraph API server does): the client
    // learns the thread id to continue with, and sees the stream is live even when the server is busy.
    await sse.send({ event: "metadata", data: { thread_id: threadId, run_id: randomUUID(), timestamp: new Date().toISOString() } });
    await deps.startGate.turn();
    const events = streamClientEvents(deps.graph, { message: body.message, participants: body.participants }, { signal: controller.signal, threadId });
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
