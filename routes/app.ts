import { OPENAI_BODY_BYTES, openaiRouter } from "./openai.js";
import { mcpRouter } from "./mcp.js";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import express, { type Express } from "express";
import helmet from "helmet";
import type { DebattGraph } from "../graph/build.js";
import { stderrLog, type AppDeps } from "../service/app-deps.js";
import { createRunService, type RunService } from "../service/run-service.js";
import { requireAdmin, limitAdminWrites } from "./admin-auth.js";
import { adminFlowGraphRouter } from "./admin-flow-graph.js";
import { adminPromptsRouter } from "./admin-prompts.js";
import { adminUsersRouter } from "./admin-users.js";
import { adminVoiceRouter } from "./admin-voice.js";
import { identify, sessionRouter } from "./auth.js";
import { SignInThrottle } from "./sign-in-throttle.js";
import { chatRouter } from "./chat.js";
import { debatesRouter } from "./debates.js";
import { deliberateRouter } from "./deliberate.js";
import { resumeRouter, threadResumeRouter } from "./resume.js";
import { errorHandler, HttpError } from "./errors.js";
import { jsonBody } from "./json-body.js";
import { noForeignWrites } from "./origin.js";
import { cors } from "./cors.js";
import { PAGE_NOT_BUILT, WEB_DIST } from "../history/export.js";
import { exportRouter } from "./export.js";
import { TRANSCRIBE_MAX_BYTES, transcribeRouter } from "./transcribe.js";
import { adminTemplatesRouter, templatesRouter } from "./templates.js";
import { historyRouter } from "./history.js";
import { healthRouter } from "./health.js";
import { estimateRouter } from "./estimate.js";
import type { HistoryStore } from "../history/store.js";

/** What `createApp` returns: the express app, its run service (for graceful shutdown) and its graph. */
export interface App {
  app: Express;
  service: RunService;
  graph: DebattGraph;
}

/** The built arena page. */

/** Admin writes allowed per token and minute. */
const ADMIN_WRITES_PER_MINUTE = 10;

/** Largest accepted chat body: a message of MAX_MESSAGE_CHARS characters, with room to spare. */
const CHAT_BODY_LIMIT = "256kb";
/** Largest accepted admin body: a 20 000-character prompt, escaped. */
const ADMIN_BODY_LIMIT = "256kb";
/** Largest body any route accepts (the admin's). */
const MAX_BODY_BYTES = 256 * 1024;

/**
 * Answers a declared `Content-Length` over `max` (or the path's own limit in `larger`) with 413 at
 * once, before any of the body is read, and closes the connection (so the client stops sending).
 */
function refuseLargeBodies(max: number, larger: Record<string, number> = {}): express.RequestHandler {
  return (req, _res, next) => {
    const declared = Number(req.get("content-length") ?? 0);
    const limit = larger[req.path] ?? max;
    if (declared > limit) throw new HttpError(413, "payload_too_large", `the request body is larger than the limit of ${limit} bytes`);
    next();
  };
}

/**
 * The HTTP service (no `listen`): the SSE chat stream, `/healthz`, and the admin API. With a
 * checkpointer every run's steps are saved, so an interrupted run can be resumed; with a history
 * every run is recorded (conversations, messages, stages) and served by the history API.
 * Every error is answered as `{error: {code, message}}` by one handler.
 */
export function createApp(deps: AppDeps, options: { checkpointer?: BaseCheckpointSaver; history?: HistoryStore } = {}): App {
  const log = deps.log ?? stderrLog;
  const service = createRunService(deps, options);
  const graph = service.graph;
  const started = Date.now();
  const app = express();
  app.disable("x-powered-by");
  // Behind a trusted proxy, the client's address and protocol are the ones it forwards.
  app.set("trust proxy", deps.settings.trustProxy);
  app.use(securityHeaders());
  // Browser clients of the origins CORS_ALLOWED_ORIGINS lists (Open WebUI's direct connections, a
  // web MCP client) may call the outside clients' surfaces; first, so that every refusal is readable too.
  // Not /api/v1: the page's own API, whose browser credential is the session cookie, is same-origin only.
  app.use("/v1", cors(deps.settings.corsAllowedOrigins, ["GET", "POST"]));
  app.use("/mcp", cors(deps.settings.corsAllowedOrigins, ["GET", "POST", "DELETE"]));
  // A recorded question may be larger than any JSON body.
  app.use(
    refuseLargeBodies(MAX_BODY_BYTES, {
      "/api/v1/transcribe": TRANSCRIBE_MAX_BYTES,
      "/v1/chat/completions": OPENAI_BODY_BYTES,
      "/v1/responses": OPENAI_BODY_BYTES,
    }),
  );
  if (deps.settings.auth === "none") app.use(loopbackHostsOnly(deps.settings.allowedHosts));
  // No page of another site may act with the person's cookie or loopback address.
  app.use(noForeignWrites);

  app.get("/healthz", (_req, res) => {
    const prompts = deps.prompts.health();
    const status = service.shuttingDown ? "draining" : prompts.ok ? "ok" : "degraded";
    res.status(service.shuttingDown ? 503 : 200).json({
      status,
      uptime_s: Math.round((Date.now() - started) / 1000),
      pid: process.pid,
      rss_bytes: process.memoryUsage.rss(),
      active_streams: service.size,
      simulated: deps.models.simulated === true,
      redis: prompts.backend === "redis" ? { status: prompts.ok ? "up" : "down", state: prompts.state } : { status: "not_configured" },
      prompt_store: prompts.backend,
    });
  });

  // Who is asking: every /api/v1 route needs a user with AUTH=tokens (the session and admin routes check their own).
  const users = options.history?.users;
  const throttle = new SignInThrottle();
  const identified = identify(deps.settings, users, throttle);
  app.use("/api/v1", ...identified);
  app.use("/api/v1/session", jsonBody("4kb"));
  app.use(sessionRouter(deps.settings, users, throttle));
  app.use(["/api/v1/chat", "/api/v1/deliberate", "/api/v1/estimate", "/api/v1/debates/:id/input"], jsonBody(CHAT_BODY_LIMIT));
  const oneCall = { models: deps.models, prompts: deps.prompts, internalModel: deps.settings.oneseekModel, prices: deps.settings.prices, log };
  const streams = { service, settings: deps.settings, history: options.history, log, oneCall };
  app.use(chatRouter(streams));
  app.use("/v1", openaiRouter(streams, identified));
  app.use("/mcp", mcpRouter(streams, identified));
  app.use(deliberateRouter(streams));
  app.use(resumeRouter(streams));
  app.use(threadResumeRouter(streams));
  app.use(debatesRouter(service, deps.audio));
  app.use(historyRouter(streams, deps.audio));
  app.use(exportRouter(streams));
  app.use(transcribeRouter(deps.transcriber));
  app.use(templatesRouter(deps.templates));
  app.use(healthRouter(deps.checkModels, deps.settings.auth));
  app.use(
    estimateRouter(deps.settings, {
      simulated: deps.models.simulated,
      research: deps.search !== undefined,
      voiceSettings: deps.voiceSettings && (() => deps.voiceSettings!.load()),
    }),
  );

  const admin = express.Router();
  admin.use(requireAdmin(deps.settings.adminToken, throttle));
  admin.use(limitAdminWrites(ADMIN_WRITES_PER_MINUTE));
  admin.use(jsonBody(ADMIN_BODY_LIMIT));
  admin.use(adminPromptsRouter(deps.prompts));
  admin.use(adminFlowGraphRouter(graph));
  admin.use(adminVoiceRouter(deps.voiceSettings, deps.settings.roster));
  admin.use(adminTemplatesRouter(deps.templates));
  admin.use(adminUsersRouter(users, (id) => service.endRunsOf(id)));
  app.use("/api/v1/admin", admin);

  // The arena page built beside the server: dist/web/dist for the compiled one (`npm start` builds it),
  // web/dist (`npm run build:web`) for one run through tsx.
  app.use(express.static(WEB_DIST));
  app.get("/", () => {
    throw new HttpError(503, "page_not_built", PAGE_NOT_BUILT);
  });

  app.use((req) => {
    throw new HttpError(404, "not_found", `no route for ${req.method} ${req.path}`);
  });
  app.use(errorHandler(log));
  return { app, service, graph };
}

/** The names a loopback server is reached by. */
const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * With AUTH=none (everyone who reaches the server is its one local user), a request must address
 * the server by a loopback name, or one of ALLOWED_HOSTS. A web page elsewhere that points its own
 * name at 127.0.0.1 (DNS rebinding) would otherwise pass as the local user and read the history.
 * With tokens a rebinding page has none: its origin never got the session cookie.
 */
function loopbackHostsOnly(allowed: readonly string[]): express.RequestHandler {
  return (req, _res, next) => {
    const host = (req.get("host") ?? "").toLowerCase();
    const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0];
    if (!LOOPBACK_NAMES.has(name) && !/^127\.\d+\.\d+\.\d+$/.test(name) && !allowed.includes(name)) {
      throw new HttpError(
        403,
        "forbidden_host",
        `requests must address this server as localhost or 127.0.0.1 (not "${host.slice(0, 100)}"): with AUTH=none it answers only on loopback; set ALLOWED_HOSTS to add a name`,
      );
    }
    next();
  };
}

/**
 * The security headers of every response (helmet): a Content-Security-Policy that allows only
 * the page's own files (no inline script, no framing, no plugins), `nosniff`, `X-Frame-Options:
 * DENY` and `Referrer-Policy: no-referrer`. `upgrade-insecure-requests` is left out: the server is
 * reached over plain HTTP on loopback, and TLS is a reverse proxy's business.
 */
function securityHeaders() {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "script-src-attr": ["'none'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "media-src": ["'self'", "blob:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
      },
    },
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "no-referrer" },
  });
}
