import type { Request, RequestHandler } from "express";
import { HttpError } from "./errors.js";

/** Methods that change nothing, which a page of another site may send (it cannot read the answer). */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Requests that routes/cors.ts found to come from a page of an origin CORS_ALLOWED_ORIGINS allows. */
const fromAllowedOrigins = new WeakSet<Request>();

/** Notes that `req` comes from a page of an origin that CORS_ALLOWED_ORIGINS allows (routes/cors.ts). */
export function markAllowedOrigin(req: Request): void {
  fromAllowedOrigins.add(req);
}

/**
 * What shows that a browser sent `req` for a page of another origin. A browser's own word first:
 * `Sec-Fetch-Site` (every current browser sends it, and no page can forge it) refuses
 * `cross-site` and `same-site` and allows `same-origin` and `none` (typed or bookmarked), even when
 * a proxy rewrote the Host header. Without it (an older browser), the `Origin` must name this
 * server as the request addresses it (behind a trusted proxy, as the proxy forwards it).
 * Undefined for the server's own page and for clients that are not browsers (they send neither),
 * and for a page of an origin that CORS_ALLOWED_ORIGINS allows when it names its user with an
 * `Authorization` header: a browser sends that header for a page of another origin only after the
 * answer to its preflight allowed it (which only allowed origins get), and the token, not the
 * browser's cookie, is then the credential.
 */
export function foreignOrigin(req: Request): string | undefined {
  if (fromAllowedOrigins.has(req) && req.get("authorization") !== undefined) return undefined;
  const site = req.get("sec-fetch-site");
  if (site !== undefined) return site === "cross-site" || site === "same-site" ? `a ${site} page` : undefined;
  const origin = req.get("origin");
  if (origin === undefined) return undefined;
  let host: string | undefined;
  try {
    host = new URL(origin).host;
  } catch {
    host = undefined;
  }
  return host !== undefined && host === req.host ? undefined : origin.slice(0, 100);
}

/**
 * Refuses a request that changes something (POST, PUT, DELETE…) when a browser sent it for a page
 * of another origin and it carries no `Authorization` header: it would act with the ambient
 * credentials of the person's browser (the session cookie, or with AUTH=none the loopback
 * address), as a form on another site can. SameSite=Strict keeps the cookie from other sites,
 * but not from a sibling subdomain, and a loopback server without users has no cookie at all.
 * A request with a Bearer token names its user itself, so it is not refused here.
 */
export const noForeignWrites: RequestHandler = (req, _res, next) => {
  if (SAFE_METHODS.has(req.method) || req.get("authorization") !== undefined) return next();
  const foreign = foreignOrigin(req);
  if (foreign !== undefined)
    throw new HttpError(
      403,
      "forbidden_origin",
      `a request from ${foreign} may not change anything here: this server's own page, or a client with Authorization: Bearer <token>, may`,
    );
  next();
};
