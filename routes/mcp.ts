import { randomUUID } from "node:crypto";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from "express";
import type { McpDeps } from "../service/mcp.js";
import { quotaKeyOf, userOf } from "./auth.js";
import { jsonBody } from "./json-body.js";
import { foreignOrigin } from "./origin.js";
import { HttpError, toHttpError } from "./errors.js";

/** Largest MCP request body: a tool call carries one question (up to MAX_MESSAGE_CHARS characters) and its options. */
const BODY_LIMIT = "256kb";
/** Sessions open at once in one process; a new one past that is refused (503) until others end. */
const MAX_SESSIONS = 1_000;
/** Sessions one user may have open: opening one more closes their least recently used idle one. */
const MAX_SESSIONS_PER_USER = 20;
/** A session nobody has used for this long, with no call in flight, is closed. */
const SESSION_IDLE_MS = 30 * 60_000;

/**
 * The MCP SDK and the tools, loaded when the first session opens: a server nobody reaches over MCP
 * does not hold them (about 9 MB of heap).
 */
let loaded:
  | Promise<
      [
        typeof import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
        typeof import("@modelcontextprotocol/sdk/types.js"),
        typeof import("../service/mcp.js"),
      ]
    >
  | undefined;
const mcpModules = () =>
  (loaded ??= Promise.all([
    import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
    import("../service/mcp.js"),
  ]));

/** One MCP session: its transport, its user, and when it was last used. */
interface Session {
  transport: StreamableHTTPServerTransport;
  owner: string;
  lastUsed: number;
  /** POSTs being answered (tool calls among them); the notification stream (GET) does not count. */
  inFlight: number;
  /** The tool calls running, by JSON-RPC id: how to stop each. */
  calls: Map<string | number, () => void>;
}

/** The ids of the tool calls in a POST's body (one JSON-RPC message, or a batch). */
function toolCallIds(body: unknown): (string | number)[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((m) =>
    m && typeof m === "object" && (m as { method?: unknown }).method === "tools/call" && ["string", "number"].includes(typeof (m as { id?: unknown }).id)
      ? [(m as { id: string | number }).id]
      : [],
  );
}

/** A JSON-RPC error as MCP clients read it (no request id: the request could not be taken). */
function jsonRpcError(res: Response, err: HttpError): void {
  for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
  res
    .status(err.status)
    .json({ jsonrpc: "2.0", error: { code: err.status === 404 ? -32001 : -32000, message: err.message, data: { code: err.code } }, id: null });
}

/**
 * Refuses a request from a web page of another origin: a browser's cross-site request to the MCP
 * endpoint. Clients that are not browsers send no Origin. (A page on a name of its own pointed at
 * 127.0.0.1 has a matching Origin and Host: the Host check of a server without users stops that.)
 */
const sameOriginOnly: RequestHandler = (req, _res, next) => {
  const foreign = foreignOrigin(req);
  if (foreign !== undefined) throw new HttpError(403, "forbidden_origin", `requests from ${foreign} are not accepted; MCP clients send no Origin header`);
  next();
};

/**
 * The MCP server over streamable HTTP at `/mcp` (mount it there): `POST` with `initialize`
 * opens a session (`Mcp-Session-Id`), later requests name it, `GET` opens its notification
 * stream and `DELETE` ends it. A session belongs to the user who opened it (the bearer token, as
 * on every route): another user's session id is answered as unknown. The tools are those of
 * `createMcpServer`.
 */
export function mcpRouter(deps: McpDeps, identify: RequestHandler[]): Router {
  const router = Router();
  const sessions = new Map<string, Session>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const s of sessions.values()) if (s.inFlight === 0 && now - s.lastUsed > SESSION_IDLE_MS) void s.transport.close();
  }, 60_000);
  sweep.unref();

  router.use(sameOriginOnly);
  router.use(...identify);
  router.use(jsonBody(BODY_LIMIT, true));
  router.all("/", async (req: Request, res: Response) => {
    const user = userOf(res);
    const id = req.get("mcp-session-id");
    let session: Session | undefined;
    if (id !== undefined) {
      session = sessions.get(id);
      if (!session || session.owner !== user.id)
        throw new HttpError(404, "session_not_found", `no MCP session "${id.slice(0, 64)}" (it ended or was never opened): initialize a new one`);
    } else {
      const [{ StreamableHTTPServerTransport }, { isInitializeRequest }, { createMcpServer }] = await mcpModules();
      if (req.method !== "POST" || !isInitializeRequest(req.body)) {
        throw new HttpError(400, "invalid_body", "no Mcp-Session-Id header: the first request of a session is a POST of an initialize request");
      }
      // One user cannot hold every session: past their share, their least recently used idle one goes.
      const own = [...sessions.values()].filter((x) => x.owner === user.id);
      if (own.length >= MAX_SESSIONS_PER_USER) {
        const idle = own.filter((x) => x.inFlight === 0).sort((a, b) => a.lastUsed - b.lastUsed)[0];
        if (!idle)
          throw new HttpError(429, "too_many_sessions", `you have ${own.length} MCP sessions with calls in flight; end one (DELETE /mcp) or wait`, {
            "Retry-After": "10",
          });
        await idle.transport.close();
      }
      if (sessions.size >= MAX_SESSIONS)
        throw new HttpError(503, "too_many_sessions", `${MAX_SESSIONS} MCP sessions are open on this server; retry later`, { "Retry-After": "60" });
      const opened: Session = {
        owner: user.id,
        lastUsed: Date.now(),
        inFlight: 0,
        calls: new Map(),
        transport: new StreamableHTTPServerTransport({
          sessionIdGenerator: randomUUID,
          onsessioninitialized: (sid) => void sessions.set(sid, opened),
        }),
      };
      opened.transport.onclose = () => {
        if (opened.transport.sessionId) sessions.delete(opened.transport.sessionId);
      };
      const track = (id: string | number, stop: () => void) => {
        opened.calls.set(id, stop);
        return () => void opened.calls.delete(id);
      };
      await createMcpServer(deps, { id: user.id, admin: user.admin, quotaKey: quotaKeyOf(req, res), track }).connect(opened.transport);
      session = opened;
    }
    const s = session;
    // A POST carries calls; a GET is the session's notification stream, open while the client is.
    const calling = req.method === "POST";
    if (calling) s.inFlight++;
    res.on("close", () => {
      if (calling) s.inFlight--;
      s.lastUsed = Date.now();
      // The client left before its answer: nobody can read the result (there is no event store to
      // resume from), so its calls stop, as a chat completion's run does when its client leaves.
      if (!res.writableFinished) for (const id of toolCallIds(req.body)) s.calls.get(id)?.();
    });
    await s.transport.handleRequest(req, res, req.body);
  });
  router.use(mcpErrorHandler);
  return router;
}

/** Answers every error of `/mcp` as a JSON-RPC error, with debatt's status and headers. */
const mcpErrorHandler: ErrorRequestHandler = (err, _req, res, next) => {
  if (res.headersSent) return next(err);
  jsonRpcError(res, toHttpError(err));
};
