import type { ErrorRequestHandler, Request, Response } from "express";
import { ZodError } from "zod";
import { DebattError, isDatabaseUnreachable, type ErrorCode, type Reason } from "../state/errors.js";
import { RunLimitError } from "../service/run-limits.js";

/** An error with the HTTP status and machine-readable code it is answered with. */
export class HttpError extends DebattError {
  constructor(
    readonly status: number,
    code: ErrorCode,
    message: string,
    /** Extra response headers, e.g. `Allow` or `WWW-Authenticate`. */
    readonly headers: Record<string, string> = {},
    reason?: Reason,
  ) {
    super(code, message, { reason });
  }
}

/** How the errors of the layers below routes are answered: status, the answer's code, extra headers. */
const DOMAIN_ERRORS: Partial<Record<ErrorCode, [number, ErrorCode, Record<string, string>?]>> = {
  prompt_error: [400, "invalid_prompt"],
  unknown_model: [400, "unknown_model"],
  invalid_participants: [400, "invalid_participants"],
  invalid_mode_config: [400, "invalid_mode_config"],
  invalid_body: [400, "invalid_body"],
  api_key_required: [400, "api_key_required"],
  store_unavailable: [503, "store_unavailable", { "Retry-After": "5" }],
  encryption_key_missing: [409, "encryption_key_missing"],
  secret_error: [500, "secret_error"],
  shutting_down: [503, "shutting_down", { "Retry-After": "5" }],
  event_log_unavailable: [503, "event_log_unavailable", { "Retry-After": "5" }],
  no_checkpointer: [501, "no_checkpointer"],
  run_in_progress: [409, "run_in_progress"],
  // A run asked for on a conversation deleted meanwhile (on another instance).
  cancelled: [409, "cancelled"],
  run_finished: [409, "run_finished"],
  nothing_to_resume: [409, "nothing_to_resume"],
  invalid_person_name: [400, "invalid_person_name"],
  unknown_option: [400, "unknown_option"],
  invalid_input: [400, "invalid_input"],
  not_awaiting_input: [409, "not_awaiting_input"],
  invalid_format: [400, "invalid_format"],
  invalid_since: [400, "invalid_since"],
  page_not_built: [503, "page_not_built"],
  stt_failed: [502, "stt_failed"],
};

/** body-parser's error types and how they are answered. */
const BODY_ERRORS: Record<string, [number, ErrorCode]> = {
  "entity.too.large": [413, "payload_too_large"],
  "entity.parse.failed": [400, "invalid_json"],
  "entity.verify.failed": [400, "invalid_body"],
  "encoding.unsupported": [415, "unsupported_encoding"],
  "charset.unsupported": [415, "unsupported_charset"],
  "request.aborted": [400, "request_aborted"],
  "request.size.invalid": [400, "invalid_content_length"],
  "stream.encoding.set": [500, "internal_error"],
  "parameters.too.many": [413, "payload_too_large"],
};

/** A refused participant list as a 400: `unknown_model` for a model not allowed, else `invalid_participants`. */
export function participantsRefused(err: unknown): HttpError {
  return DebattError.isInstance(err) ? toHttpError(err) : new HttpError(400, "invalid_participants", (err as Error).message);
}

/**
 * Maps any error to an HTTP error: the one place where typed errors meet status codes.
 * Unknown errors become 500 without leaking their message.
 */
export function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof RunLimitError) return new HttpError(429, "rate_limited", err.message, { "Retry-After": String(err.retryAfterS) });
  if (DebattError.isInstance(err) && err.code in DOMAIN_ERRORS) {
    const [status, code, headers] = DOMAIN_ERRORS[err.code]!;
    return new HttpError(status, code, err.message, headers, err.reason);
  }
  // The database is down or restarting (an upgrade, a failover): a retry in a few seconds may work.
  if (isDatabaseUnreachable(err))
    return new HttpError(503, "database_unavailable", "the database cannot be reached right now (it may be restarting); retry in a few seconds", {
      "Retry-After": "5",
    });
  if (err instanceof ZodError) return new HttpError(400, "invalid_settings", err.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; "));
  const e = err as { type?: string; message?: string; limit?: number; status?: number; code?: string };
  // express' router could not decode a path parameter (a broken %-escape).
  if (err instanceof URIError && e.status === 400) return new HttpError(400, "invalid_path", `the path is not valid percent-encoding: ${e.message}`);
  // zlib could not inflate a body sent with Content-Encoding: gzip, deflate, br (brotli names its
  // decoding errors ERR__ERROR_FORMAT_…) or, on Node 24, zstd (ZSTD_error_…).
  if (typeof e.code === "string" && /^Z_(DATA|BUF|STREAM)_ERROR$|^ERR_BROTLI|^ERR__ERROR_|^ZSTD_error_/.test(e.code)) {
    return new HttpError(400, "invalid_body", `the body does not match its Content-Encoding (${e.message})`);
  }
  if (e?.type && BODY_ERRORS[e.type]) {
    const [status, code] = BODY_ERRORS[e.type];
    const message =
      code === "payload_too_large"
        ? `the request body is larger than the limit of ${e.limit ?? "?"} bytes`
        : code === "invalid_json"
          ? `the request body is not valid JSON: ${e.message}`
          : (e.message ?? code);
    return new HttpError(status, code, message);
  }
  return new HttpError(500, "internal_error", "internal error");
}

/** Sends an error as `{error: {code, message}}`, with `reason` when the refusal has one. */
export function sendError(res: Response, err: HttpError): void {
  for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
  res.status(err.status).json({ error: { code: err.code, message: err.message, ...(err.reason ? { reason: err.reason } : {}) } });
}

/** express' last middleware: every error a route throws or passes on is answered here. */
export function errorHandler(log: (line: string) => void): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) return next(err);
    const http = toHttpError(err);
    // The rest of a body too large is not read: the connection closes after the answer.
    if (http.status === 413) res.setHeader("Connection", "close");
    logUntold(log, req, http, err);
    sendError(res, http);
  };
}

/** Logs what a client is not told: an unexpected error's stack, the cause of a database outage. */
export function logUntold(log: (line: string) => void, req: Request, http: HttpError, err: unknown): void {
  if (http.status >= 500 && http.code === "internal_error") log(`${req.method} ${req.path} failed: ${(err as Error)?.stack ?? err}`);
  else if (http.code === "database_unavailable") log(`${req.method} ${req.path}: ${http.message} (${(err as Error)?.message})`);
}
