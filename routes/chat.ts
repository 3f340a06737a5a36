import type { OneCallDeps } from "../service/one-call.js";
import { Router, type Request, type Response } from "express";
import { z } from "zod";
import type { HistoryStore } from "../history/store.js";
import type { RunRequest } from "../service/run-request.js";
import type { RunService } from "../service/run-service.js";
import { formatOfCommand, parseCommand } from "../state/commands.js";
import { LOCAL_OWNER } from "../state/ownership.js";
import type { Settings } from "../state/config.js";
import { MAX_PARTICIPANTS } from "../state/formats.js";
import { MAX_MESSAGE_CHARS, userText } from "../state/text.js";
import { participantsFor } from "../state/participants.js";
import { DEFAULT_PERSON_NAME, withPerson } from "../state/person.js";
import { personNameSchema } from "../state/person-schemas.js";
import type { RunConfig } from "../state/run-config.js";
import { continuationOf, participantKeysOf } from "../history/continuation.js";
import { quotaKeyOf, userOf } from "./auth.js";
import { HttpError, participantsRefused } from "./errors.js";
import { checkFollowUp, checkThreadOwner, CONVERSATION_ID, CONVERSATION_ID_RULE, ID_RULE } from "./follow-up.js";
import { SseStream, type ErrorEventName } from "./sse.js";

/** A request's `participants`: participant keys or names (deliberation formats also take model ids). */
export const participantsField = z
  .array(z.string({ error: "participants must be strings" }).min(1, "a participant is empty").max(64), {
    error: "participants must be an array of participant keys or names",
  })
  .max(MAX_PARTICIPANTS, `participants lists more than ${MAX_PARTICIPANTS} entries`)
  .optional();

/** The body of `POST /api/v1/chat/stream`; unknown fields are refused so that typos do not pass. */
function chatBodySchema(maxChars: number) {
  return z
    .object(
      {
        message: userText("message", maxChars),
        threadId: z.string({ error: "threadId must be a string" }).regex(CONVERSATION_ID, `threadId must be ${ID_RULE}`).optional(),
        conversationId: z.string({ error: "conversationId must be a string" }).regex(CONVERSATION_ID, CONVERSATION_ID_RULE).optional(),
        participants: participantsField,
        /** `/debatt --with-me`: the name the models know the person by. */
        personName: personNameSchema.optional(),
        continueWith: z
          .object(
            {
              runId: z.string({ error: "continueWith.runId must be a string" }).regex(CONVERSATION_ID, `continueWith.runId must be ${ID_RULE}`),
              participant: z.string({ error: "continueWith.participant must be a participant's key" }).min(1).max(64),
            },
            { error: "continueWith must be {runId, participant}" },
          )
          .strict()
          .optional(),
      },
      { error: "the body must be a JSON object" },
    )
    .strict();
}

/** What the run routes need: the run service, the settings, the history and the log. */
export interface ChatRouteDeps {
  service: RunService;
  settings: Settings;
  /** Where runs are recorded (conversations, messages, stages); absent → not recorded. */
  history?: HistoryStore;
  log: (line: string) => void;
  /** The internal model's single calls outside a run (a client's chore, a JSON result); absent → chores run as questions, JSON is refused. */
  oneCall?: OneCallDeps;
}

/**
 * `POST /api/v1/chat/stream`: validates the body (a 4xx JSON error before any event), then streams
 * the run's events as SSE until `done`. A client that disconnects cancels its run.
 */
export function chatRouter(deps: ChatRouteDeps): Router {
  const schema = chatBodySchema(MAX_MESSAGE_CHARS);
  const router = Router();
  router.post("/api/v1/chat/stream", async (req: Request, res: Response) => {
    const body = parseJsonBody(req, schema, '{"message": "…"}');
    const command = parseCommand(body.message);
    if (body.continueWith && body.participants !== undefined)
      throw new HttpError(400, "invalid_body", "a follow-up to one participant (continueWith) takes no participants: it goes to that one");
    checkParticipants(deps.settings, command, body.participants);
    const configurable = checkPersonSeat(deps, command, body.personName, body.participants);
    const user = userOf(res);
    if (body.conversationId !== undefined) {
      // A follow-up in an earlier conversation: it must exist, and `checkFollowUp`'s rules apply.
      if (body.threadId !== undefined) throw new HttpError(400, "invalid_body", "send threadId or conversationId, not both (they name the same thing)");
      await checkFollowUp(deps.service, user, body.conversationId, command.kind === "deliberation" ? command.mode : undefined);
    } else if (body.threadId !== undefined) {
      await checkThreadOwner(deps.service, user, body.threadId);
    }
    let threadId = body.threadId ?? body.conversationId;
    let continuation;
    if (body.continueWith) {
      const found = await continuationFor(deps, user, body.continueWith, command.kind);
      // It stays in the run's conversation, where the next follow-up finds it.
      if (threadId !== undefined && threadId !== found.conversationId)
        throw new HttpError(
          400,
          "invalid_body",
          `a follow-up to a participant of run "${body.continueWith.runId}" goes in its conversation ("${found.conversationId}"), not in another`,
        );
      threadId = found.conversationId;
      continuation = found.continuation;
    }
    await streamRun(deps, res, {
      message: body.message,
      participants: body.participants,
      threadId,
      owner: user.id,
      quotaKey: quotaKeyOf(req, res),
      continuation,
      configurable,
      seatsPerson: true,
    });
  });
  router.all("/api/v1/chat/stream", postOnly);
  return router;
}

/**
 * A follow-up to one participant of a finished run (`continueWith`): a plain message, to a run of
 * the user's own that has that participant. 400 or 404 naming the problem otherwise.
 */
async function continuationFor(deps: ChatRouteDeps, user: ReturnType<typeof userOf>, wanted: { runId: string; participant: string }, kind: string) {
  if (kind !== "chat") throw new HttpError(400, "invalid_body", "a follow-up to one participant (continueWith) is a plain message, not a command");
  if (!deps.history) throw new HttpError(501, "no_history", "this server keeps no history, so it cannot go on from a run");
  const answer = await deps.history.message(wanted.runId);
  if (!answer || answer.role !== "assistant" || !(await deps.service.mayReadRun(user, wanted.runId)))
    throw new HttpError(404, "debate_not_found", `no run "${wanted.runId}" in the history`);
  const continuation = await continuationOf(deps.history, wanted.runId, wanted.participant);
  if (!continuation) {
    const keys = await participantKeysOf(deps.history, wanted.runId);
    throw new HttpError(
      400,
      "invalid_participants",
      `run "${wanted.runId}" has no participant "${wanted.participant}"${keys.length ? ` (its participants: ${keys.join(", ")})` : " (it was a chat answer)"}`,
    );
  }
  return { continuation, conversationId: answer.conversationId };
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
 * Checks the requested participants against what the message's command takes (a deliberation
 * format's model count and ids, or the debate roster), so a bad list is a 400 before the stream
 * starts.
 */
export function checkParticipants(settings: Settings, command: ReturnType<typeof parseCommand>, participants: string[] | undefined): void {
  try {
    participantsFor(formatOfCommand(command) ?? "debatt", settings.roster, participants, settings.allowedModels);
  } catch (err) {
    throw participantsRefused(err);
  }
}

/**
 * A debate the person joins (`/debatt --with-me`): it waits for them at checkpoints, so the server
 * must keep them (501 otherwise), and their name must not be a participant's (400). `personName`
 * belongs to such a debate only. Returns the run configuration that seats them.
 */
function checkPersonSeat(
  deps: ChatRouteDeps,
  command: ReturnType<typeof parseCommand>,
  personName: string | undefined,
  participants: string[] | undefined,
): RunConfig | undefined {
  const joined = command.kind === "debate" && command.options.withMe === true;
  if (!joined) {
    if (personName !== undefined)
      throw new HttpError(400, "invalid_body", "personName is the name you join a debate under: send it with /debatt --with-me <topic>");
    return undefined;
  }
  if (!deps.service.graph.checkpointer)
    throw new HttpError(501, "no_checkpointer", "this server keeps no checkpoints, so a debate cannot wait for you: --with-me needs them");
  const name = personName ?? DEFAULT_PERSON_NAME;
  withPerson(participantsFor("debatt", deps.settings.roster, participants), name);
  return personName === undefined ? undefined : { person_name: personName };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys") return `unknown field(s): ${issue.keys.join(", ")}`;
  const path = issue.path.join(".");
  return path && !issue.message.startsWith(String(issue.path[0])) ? `${path}: ${issue.message}` : issue.message;
}

/**
 * Starts one run and streams it as SSE: `metadata` first (with the run id to resume with), then
 * the graph's events until `done`. The run goes on apart from this response (see RunService), so
 * a client that drops can resume with `GET /api/v1/debates/<run id>/events`.
 */
export async function streamRun(deps: ChatRouteDeps, res: Response, request: RunRequest): Promise<void> {
  // The stream is one of the user's open ones: taken before the run starts, so a refusal costs nothing.
  const closing = await deps.service.openStream(request.quotaKey ?? request.owner ?? LOCAL_OWNER);
  try {
    const run = await deps.service.start(request);
    await serveEvents(deps, res, run.runId, 0, { maxConnectionMs: deps.settings.sseMaxConnectionMs });
  } finally {
    closing();
  }
}

/**
 * Streams a run's events after `afterId` to one client, then the live ones until `done`, the
 * client leaving, or (`maxConnectionMs`) the server ending the connection for the client to
 * reconnect with `Last-Event-ID`.
 */
export async function serveEvents(
  deps: ChatRouteDeps,
  res: Response,
  runId: string,
  afterId: number,
  options: {
    maxConnectionMs?: number;
    retryMs?: number;
    errorEvent?: ErrorEventName;
    /** Whose open streams it counts against (MAX_OPEN_STREAMS); absent: its caller took the slot. */
    quotaKey?: string;
  } = {},
): Promise<void> {
  const closing = options.quotaKey === undefined ? undefined : await deps.service.openStream(options.quotaKey);
  try {
    await streamEvents(deps, res, runId, afterId, options);
  } finally {
    closing?.();
  }
}

async function streamEvents(
  deps: ChatRouteDeps,
  res: Response,
  runId: string,
  afterId: number,
  options: { maxConnectionMs?: number; retryMs?: number; errorEvent?: ErrorEventName },
): Promise<void> {
  const stop = new AbortController();
  res.on("close", () => stop.abort());
  const limit = options.maxConnectionMs ? setTimeout(() => stop.abort(), options.maxConnectionMs) : undefined;
  const sse = new SseStream(res, deps.settings.sseKeepAliveMs, options.retryMs, options.errorEvent);
  try {
    for await (const event of deps.service.events(runId, afterId, stop.signal)) await sse.send(event);
  } finally {
    clearTimeout(limit);
    sse.end();
  }
}
