import type { ErrorRequestHandler, Response } from "express";
import { PromptError } from "../prompts/render.js";
import { StoreUnavailableError } from "../prompts/store.js";
import { SecretError } from "../providers/secret-box.js";
import { EncryptionKeyMissingError } from "../providers/voice-settings-store.js";
import { ZodError } from "zod";

/** An error with the HTTP status and machine-readable code it is answered with. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra response headers, e.g. `Allow` or `WWW-Authenticate`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** body-parser's error types and how they are answered. */
const BODY_ERRORS: Record<string, [number, string]> = {
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

/**
 * Maps any error to an HTTP error: the one place where typed errors meet status codes.
 * Unknown errors become 500 without leaking their message.
 */
export function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof PromptError) return new HttpError(400, "invalid_prompt", err.message);
  if (err instanceof StoreUnavailableError) return new HttpError(503, "store_unavailable", err.message, { "Retry-After": "5" });
  if (err instanceof ZodError) return new HttpError(400, "invalid_settings", err.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; "));
  if (err instanceof EncryptionKeyMissingError) return new HttpError(409, err.code, err.message);
  if (err instanceof SecretError) return new HttpError(500, err.code, err.message);
  const e = err as { type?: string; message?: string; limit?: number };
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

/** Sends an error as `{error: {code, message}}`. */
export function sendError(res: Response, err: HttpError): void {
  for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
  res.status(err.status).json({ error: { code: err.code, message: err.message } });
}

/** express' last middleware: every error a route throws or passes on is answered here. */
export function errorHandler(log: (line: string) => void): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) return next(err);
    const http = toHttpError(err);
    if (http.status >= 500 && http.code === "internal_error") log(`${req.method} ${req.path} failed: ${(err as Error)?.stack ?? err}`);
    sendError(res, http);
  };
}
