import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { Router, type Request, type RequestHandler, type Response } from "express";
import { tokenHash, type UserStore } from "../history/users.js";
import type { Settings } from "../state/config.js";
import { ADMIN_OWNER, LOCAL_OWNER, type Requester } from "../state/ownership.js";
import { HttpError } from "./errors.js";
import { tooMany, type SignInThrottle } from "./sign-in-throttle.js";

/** Who is making a request. */
export interface RequestUser extends Requester {
  name: string;
}

/** The one user of a server without users (AUTH=none, loopback only). */
export const LOCAL_USER: RequestUser = { id: LOCAL_OWNER, name: "local", admin: false };
/** The admin, signed in with ADMIN_TOKEN: their own user. */
export const ADMIN_USER: RequestUser = { id: ADMIN_OWNER, name: "admin", admin: true };

/**
 * The session cookie: a session id of its own (never the token), HttpOnly and SameSite=Strict,
 * Secure over HTTPS (behind a trusted proxy, as its `X-Forwarded-Proto` says), so the page's
 * EventSource carries it. Signing out ends the session on the server.
 */
export const SESSION_COOKIE = "debatt_session";
/** How long a session lasts at most, unless its user signs out or is removed first. */
const SESSION_TTL_MS = 30 * 24 * 3_600_000;

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * What ties an admin's session to ADMIN_TOKEN: an HMAC of the session's id under the token. The
 * database keeps it, but without the session's id (only in the cookie) it says nothing of the
 * token, which an operator chose and a bare hash would expose to a guess offline.
 */
const adminBinding = (adminToken: string, sessionId: string) => createHmac("sha256", adminToken).update(sessionId).digest("hex");

/** The user a request is made for (set by `identify`). */
export function userOf(res: Response): RequestUser {
  return (res.locals.user as RequestUser | undefined) ?? LOCAL_USER;
}

/** Whose run limits a request counts against: its user, or without users the client's address. */
export function quotaKeyOf(req: Request, res: Response): string {
  const user = userOf(res);
  return user.id === LOCAL_OWNER ? `address:${req.ip}` : `user:${user.id}`;
}

/** What a request presents: a token (`Authorization: Bearer <token>`), or a session id (the cookie). */
interface Credential {
  kind: "token" | "session";
  value: string;
}

/** The credential of a request: its Bearer token, else its session cookie; undefined when it sends neither. */
function credentialOf(req: Request): Credential | undefined {
  const header = req.get("authorization");
  if (header) {
    const match = /^Bearer +(\S+) *$/i.exec(header);
    if (!match) throw new HttpError(401, "unauthorized", "the Authorization header must be 'Bearer <token>'", { "WWW-Authenticate": 'Bearer realm="debatt"' });
    return { kind: "token", value: match[1] };
  }
  for (const part of (req.get("cookie") ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name !== SESSION_COOKIE || !value.length) continue;
    try {
      return { kind: "session", value: decodeURIComponent(value.join("=")) };
    } catch {
      return { kind: "session", value: "" };
    }
  }
  return undefined;
}

/**
 * Resolves credentials to users: ADMIN_TOKEN (compared in constant time) is the admin, other
 * tokens and session ids are looked up. `locked`: the client's address is locked out of the
 * users' door, so only a generated credential (a user's token or a session id: 256 random bits,
 * which nobody guesses) is honoured then, never ADMIN_TOKEN, which an operator chose.
 */
function credentialResolver(settings: Pick<Settings, "adminToken">, users: UserStore | undefined) {
  const adminToken = settings.adminToken;
  const admin = adminToken ? digest(adminToken) : undefined;
  return async (credential: Credential, locked = false): Promise<RequestUser | undefined> => {
    if (credential.kind === "session") {
      const session = credential.value ? await users?.session(credential.value) : undefined;
      if (!session) return undefined;
      // An admin's session holds only while ADMIN_TOKEN is the one it was opened with.
      if (session.userId === ADMIN_OWNER) {
        const expected = adminToken && adminBinding(adminToken, credential.value);
        return expected && expected.length === session.credentialHash.length && timingSafeEqual(Buffer.from(expected), Buffer.from(session.credentialHash))
          ? ADMIN_USER
          : undefined;
      }
      return session.name === undefined ? undefined : { id: session.userId, name: session.name, admin: false };
    }
    if (admin && !locked && timingSafeEqual(digest(credential.value), admin)) return ADMIN_USER;
    const user = await users?.byToken(credential.value);
    return user && { id: user.id, name: user.name, admin: false };
  };
}

/**
 * The user `credential` belongs to, or the refusal: 401, a refused token counted against the
 * client's address at the users' door, or 429 for a token while that address is locked out (a
 * user's own token or session still works then, so nobody who shares the address is locked out
 * by another's guesses). A session that ended (signed out, expired, its user removed, ADMIN_TOKEN
 * changed) is no guess: a browser sends its old cookie until told, so it is never counted.
 */
async function signIn(req: Request, credential: Credential, resolve: ReturnType<typeof credentialResolver>, throttle: SignInThrottle): Promise<RequestUser> {
  const address = req.ip ?? "";
  const locked = throttle.lockedFor("users", address);
  const user = await resolve(credential, locked > 0);
  if (user) return user;
  if (credential.kind === "token") {
    if (locked > 0) throw tooMany(locked);
    throttle.failed("users", address);
  }
  const why =
    credential.kind === "session"
      ? "the session has ended (signed out, expired, or its user was removed): sign in again"
      : "the token is not valid (it may have been revoked)";
  throw new HttpError(401, "unauthorized", why, { "WWW-Authenticate": 'Bearer realm="debatt", error="invalid_token"' });
}

/**
 * Identifies the user of every `/api/v1/*` request (and of `/v1` and `/mcp`). With AUTH=none
 * everyone is the one local user. With AUTH=tokens a request needs a user's token (or
 * ADMIN_TOKEN) as a Bearer header, or the session cookie; without one it gets 401. The session
 * routes and the admin API (which has its own token) pass through. Only a token that is sent and
 * refused counts against the address (`throttle`).
 */
export function identify(settings: Pick<Settings, "auth" | "adminToken">, users: UserStore | undefined, throttle: SignInThrottle): RequestHandler[] {
  if (settings.auth === "none") return [(_req, res, next) => ((res.locals.user = LOCAL_USER), next())];
  const resolve = credentialResolver(settings, users);
  const check: RequestHandler = async (req, res, next) => {
    if (req.path === "/session" || req.path.startsWith("/admin/") || req.path === "/admin") return next();
    const credential = credentialOf(req);
    if (!credential) {
      throw new HttpError(401, "unauthorized", "this server needs a user token: send Authorization: Bearer <token>, or sign in with POST /api/v1/session", {
        "WWW-Authenticate": 'Bearer realm="debatt"',
      });
    }
    res.locals.user = await signIn(req, credential, resolve, throttle);
    next();
  };
  return [check];
}

/**
 * `/api/v1/session`: GET says whether the server needs a token, who is signed in and whether
 * admin is on (`admin`: ADMIN_TOKEN is set); POST `{token}` checks the token and opens a session
 * (the cookie holds its id); DELETE ends the session on the server and clears the cookie. A token
 * or session that is refused here counts against the address as anywhere (no free oracle).
 */
export function sessionRouter(settings: Pick<Settings, "auth" | "adminToken">, users: UserStore | undefined, throttle: SignInThrottle): Router {
  const router = Router();
  const resolve = credentialResolver(settings, users);
  const cookie = (req: Request) => ({ httpOnly: true, sameSite: "strict" as const, secure: req.secure, path: "/" });
  router.get("/api/v1/session", async (req, res) => {
    // `admin` says whether the admin page can be used at all (ADMIN_TOKEN is set), never the token.
    const admin = Boolean(settings.adminToken);
    if (settings.auth === "none") return void res.json({ auth: "none", user: LOCAL_USER, admin });
    const credential = credentialOf(req);
    const user = credential ? await signIn(req, credential, resolve, throttle).catch(passOnlyTooMany) : null;
    res.json({ auth: "tokens", user, admin });
  });
  router.post("/api/v1/session", async (req, res) => {
    const token = (req.body as { token?: unknown } | undefined)?.token;
    if (typeof token !== "string" || token.trim() === "" || token.length > 512) {
      throw new HttpError(400, "invalid_body", 'the body must be {"token": "<your token>"}');
    }
    if (settings.auth === "none") return void res.json({ auth: settings.auth, user: LOCAL_USER });
    const user = await signIn(req, { kind: "token", value: token.trim() }, resolve, throttle);
    if (!users)
      throw new HttpError(
        503,
        "users_unavailable",
        "sessions are kept in the history database, which this server does not have: send the token as Authorization: Bearer <token>",
      );
    const bound = user.id === ADMIN_OWNER ? (id: string) => adminBinding(token.trim(), id) : () => tokenHash(token.trim());
    res.cookie(SESSION_COOKIE, await users.openSession(user.id, bound, SESSION_TTL_MS), cookie(req));
    res.json({ auth: settings.auth, user });
  });
  router.delete("/api/v1/session", async (req, res) => {
    const credential = credentialOf(req);
    if (credential?.kind === "session" && credential.value) await users?.closeSession(credential.value);
    res.clearCookie(SESSION_COOKIE, cookie(req));
    res.status(204).end();
  });
  return router;
}

/** For GET /session: a refused credential is no user (null), but a locked-out address is told so. */
function passOnlyTooMany(err: unknown): null {
  if (err instanceof HttpError && err.status === 429) throw err;
  return null;
}
