import { createHash, timingSafeEqual } from "node:crypto";
import type { Request, RequestHandler } from "express";
import { rateLimit } from "express-rate-limit";
import { HttpError, sendError } from "./errors.js";
import type { SignInThrottle } from "./sign-in-throttle.js";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** The token of an `Authorization: Bearer <token>` header, or an HttpError naming what is wrong. */
function bearerToken(req: Request): string {
  const header = req.get("authorization");
  const challenge = { "WWW-Authenticate": 'Bearer realm="debatt-admin"' };
  if (!header) throw new HttpError(401, "unauthorized", "missing Authorization: Bearer <ADMIN_TOKEN> header", challenge);
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match) throw new HttpError(401, "unauthorized", "the Authorization header must be 'Bearer <ADMIN_TOKEN>'", challenge);
  return match[1];
}

/**
 * Guards the admin routes with the Bearer `ADMIN_TOKEN`, compared in constant time (both sides are
 * hashed first, so their lengths leak nothing either). Without a token the admin API is off: 503.
 * A refused token counts against the client's address at the admin door (`throttle`), apart from
 * the users' door, so guesses there never lock the admin out of here.
 */
export function requireAdmin(adminToken: string | undefined, throttle: SignInThrottle): RequestHandler {
  const expected = adminToken ? digest(adminToken) : undefined;
  return (req, _res, next) => {
    if (!expected) {
      throw new HttpError(503, "admin_disabled", "the admin API is disabled: set ADMIN_TOKEN (at least 16 characters) to enable it");
    }
    const token = bearerToken(req);
    throttle.check("admin", req.ip ?? "");
    if (!timingSafeEqual(digest(token), expected)) {
      throttle.failed("admin", req.ip ?? "");
      throw new HttpError(401, "unauthorized", "the admin token is not valid", { "WWW-Authenticate": 'Bearer realm="debatt-admin", error="invalid_token"' });
    }
    next();
  };
}

/**
 * Limits admin writes per token (after authentication): `perMinute` per one-minute window, then 429
 * with `Retry-After`. Keys are token hashes, so the limiter never holds a token itself.
 */
export function limitAdminWrites(perMinute: number): RequestHandler {
  const limiter = rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    keyGenerator: (req) => digest(bearerToken(req)).toString("hex"),
    handler: (_req, res) =>
      sendError(res, new HttpError(429, "rate_limited", `at most ${perMinute} admin writes per minute; retry after ${res.getHeader("Retry-After")} s`)),
  });
  return (req, res, next) => (req.method === "GET" || req.method === "HEAD" ? next() : limiter(req, res, next));
}
