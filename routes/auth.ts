import { createHash, timingSafeEqual } from "node:crypto";
import { Router, type Request, type RequestHandler, type Response } from "express";
import { rateLimit } from "express-rate-limit";
import type { UserStore } from "../history/users.js";
import type { Settings } from "../state/config.js";
import { ADMIN_OWNER, LOCAL_OWNER, type Requester } from "../state/ownership.js";
import { HttpError } from "./errors.js";

/** Who is making a request. */
export interface RequestUser extends Requester {
  name: string;
}

/** The one user of a server without users (AUTH=none, loopback only). */
export const LOCAL_USER: RequestUser = { id: LOCAL_OWNER, name: "local", admin: false };
/** The admin, signed in with ADMIN_TOKEN: their own user. */
export const ADMIN_USER: RequestUser = { id: ADMIN_OWNER, name: "admin", admin: true };

/** The session cookie: the user's token, HttpOnly and SameSite=Strict, so the page's EventSource carries it. */
export const SESSION_COOKIE = "debatt_session";

/** Failed sign-ins allowed per client address in a window, then 429. */
const FAILED_SIGN_INS = 20;
const FAILED_SIGN_IN_WINDOW_MS = 10 * 60_000;

const digest = (text: string) => createHash("sha256").update(text).digest();

/** The user a request is made for (set by `identify`). */
export function userOf(res: Response): RequestUser {
  return (res.locals.user as RequestUser | undefined) ?? LOCAL_USER;
}

/** Whose run limits a request counts against: its user, or without users the client's address. */
export function quotaKeyOf(req: Request, res: Response): string {
  const user = userOf(res);
  return user.id === LOCAL_OWNER ? `address:${req.ip}` : `user:${user.id}`;
}

/** The token of `Authorization: Bearer <token>`, else of the session cookie; undefined when neither is sent. */
function tokenOf(req: Request): string | undefined {
  const header = req.get("authorization");
  if (header) {
    const match = /^Bearer +(\S+) *$/i.exec(header);
    if (!match) throw new HttpError(401, "unauthorized", "the Authorization header must be 'Bearer <token>'", { "WWW-Authenticate": 'Bearer realm="debatt"' });
    return match[1];
  }
  for (const part of (req.get("cookie") ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === SESSION_COOKIE && value.length) return decodeURIComponent(value.join("="));
  }
  return undefined;
}

/** Resolves tokens to users: ADMIN_TOKEN (compared in constant time) is the admin, other tokens are looked up. */
export function tokenResolver(settings: Pick<Settings, "adminToken">, users: UserStore | undefined) {
  const admin = settings.adminToken ? digest(settings.adminToken) : undefined;
  return async (token: string): Promise<RequestUser | undefined> => {
    if (admin && timingSafeEqual(digest(token), admin)) return ADMIN_USER;
    const user = await users?.byToken(token);
    return user && { id: user.id, name: user.name, admin: false };
  };
}

/** Counts failed sign-ins (answers 401) per client address; over the limit, 429 with Retry-After. */
export function throttleFailures(): RequestHandler {
  return rateLimit({
    windowMs: FAILED_SIGN_IN_WINDOW_MS,
    limit: FAILED_SIGN_INS,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    requestWasSuccessful: (_req, res) => res.statusCode !== 401,
    skipSuccessfulRequests: true,
    // Passed on, so that each surface answers it in its own shape (JSON-RPC on /mcp, OpenAI's on /v1).
    handler: (_req, res, next) => next(new HttpError(429, "too_many_attempts", `too many failed sign-ins from this address; retry after ${res.getHeader("Retry-After")} s`)),
  });
}

/**
 * Identifies the user of every `/api/v1/*` request. With AUTH=none everyone is the one local
 * user. With AUTH=tokens a request needs a user's token (or ADMIN_TOKEN) as a Bearer header or in
 * the session cookie; without one it gets 401. The session routes and the admin API (which has
 * its own token) pass through. Failed attempts are throttled per address.
 */
export function identify(settings: Pick<Settings, "auth" | "adminToken">, users: UserStore | undefined): RequestHandler[] {
  if (settings.auth === "none") return [(_req, res, next) => ((res.locals.user = LOCAL_USER), next())];
  const resolve = tokenResolver(settings, users);
  const check: RequestHandler = async (req, res, next) => {
    if (req.path === "/session" || req.path.startsWith("/admin/") || req.path === "/admin") return next();
    const token = tokenOf(req);
    const challenge = { "WWW-Authenticate": 'Bearer realm="debatt"' };
    if (!token) throw new HttpError(401, "unauthorized", "this server needs a user token: send Authorization: Bearer <token>, or sign in with POST /api/v1/session", challenge);
    const user = await resolve(token);
    if (!user) throw new HttpError(401, "unauthorized", "the token is not valid (it may have been revoked)", { "WWW-Authenticate": 'Bearer realm="debatt", error="invalid_token"' });
    res.locals.user = user;
    next();
  };
  return [throttleFailures(), check];
}

/**
 * `/api/v1/session`: GET says whether the server needs a token, who is signed in and whether admin
 * is on (`admin`: ADMIN_TOKEN is set); POST
 * `{token}` checks the token and sets the session cookie (HttpOnly, SameSite=Strict, Secure over
 * HTTPS); DELETE clears it.
 */
export function sessionRouter(settings: Pick<Settings, "auth" | "adminToken">, users: UserStore | undefined): Router {
  const router = Router();
  const resolve = tokenResolver(settings, users);
  router.get("/api/v1/session", async (req, res) => {
    // `admin` says whether the admin page can be used at all (ADMIN_TOKEN is set), never the token.
    const admin = Boolean(settings.adminToken);
    if (settings.auth === "none") return void res.json({ auth: "none", user: LOCAL_USER, admin });
    const token = tokenOf(req);
    const user = token ? await resolve(token) : undefined;
    res.json({ auth: "tokens", user: user ?? null, admin });
  });
  router.post("/api/v1/session", throttleFailures(), async (req, res) => {
    const token = (req.body as { token?: unknown } | undefined)?.token;
    if (typeof token !== "string" || token.trim() === "" || token.length > 512) {
      throw new HttpError(400, "invalid_body", 'the body must be {"token": "<your token>"}');
    }
    const user = settings.auth === "none" ? LOCAL_USER : await resolve(token.trim());
    if (!user) throw new HttpError(401, "unauthorized", "the token is not valid (it may have been revoked)");
    res.cookie(SESSION_COOKIE, token.trim(), { httpOnly: true, sameSite: "strict", secure: req.secure, path: "/" });
    res.json({ auth: settings.auth, user });
  });
  router.delete("/api/v1/session", (req, res) => {
    res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: "strict", secure: req.secure, path: "/" });
    res.status(204).end();
  });
  return router;
}
