import type { RequestHandler } from "express";
import { HttpError } from "./errors.js";
import { markAllowedOrigin } from "./origin.js";

/** How long a browser may keep a preflight's answer, in seconds (Chromium keeps one 2 h at most). */
export const CORS_MAX_AGE_S = 600;

/**
 * The response headers a page of an allowed origin may read, besides the ones every page may
 * (Content-Type, Content-Length, Cache-Control…): the run and conversation of a completion, when
 * to retry, why a token was refused, what a route allows, and the MCP session.
 */
export const CORS_EXPOSED_HEADERS = [
  "X-Debatt-Run-Id",
  "X-Debatt-Conversation-Id",
  "Retry-After",
  "WWW-Authenticate",
  "Allow",
  "Mcp-Session-Id",
  "Mcp-Protocol-Version",
] as const;

/** A header name (a token of RFC 9110). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** The most request headers one preflight may name. */
const MAX_REQUESTED_HEADERS = 64;

/** The header names a preflight asks for (`Access-Control-Request-Headers`), lower case, without duplicates. */
function requestedHeaders(raw: string | undefined): string[] {
  const names = (raw ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => HEADER_NAME.test(name));
  return [...new Set(names)].slice(0, MAX_REQUESTED_HEADERS);
}

/**
 * Cross-origin access (CORS) to a surface that browser clients of other origins call (`/v1`,
 * `/mcp`; mount it there, before anything that may refuse the request, so that refusals carry the
 * headers too). `allowed` lists the origins whose pages may call it (exact, as a browser sends
 * `Origin`), or `*` for any.
 *
 * - A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) from an allowed
 *   origin gets 204 with `Access-Control-Allow-Origin`, `-Allow-Methods` (`methods`),
 *   `-Allow-Headers` (the ones it asked for: `authorization`, `content-type`, the OpenAI SDKs'
 *   `x-stainless-*`, `openai-organization`…), `-Max-Age` and, when asked (Private Network
 *   Access), `-Allow-Private-Network`; from any other origin, 403
 *   `forbidden_origin` without them, so the browser sends nothing more.
 * - Any other request from an allowed origin goes on with `Access-Control-Allow-Origin` and
 *   `Access-Control-Expose-Headers` set, so its answer (a stream, or an error) is readable by the
 *   page. Requests from other origins, and from clients that are not browsers, go on unchanged.
 *
 * Credentials are never allowed (no `Access-Control-Allow-Credentials`): a page of another origin
 * cannot read an answer given for the person's session cookie, so it has to bring a token of its
 * own (`Authorization: Bearer`). Such a request is therefore not refused as foreign (see
 * `foreignOrigin`), while one that relies on the cookie still is (`noForeignWrites`).
 */
export function cors(allowed: readonly string[] | "*", methods: readonly string[]): RequestHandler {
  const allows = (origin: string) => allowed === "*" || allowed.includes(origin);
  return (req, res, next) => {
    // The answer depends on the Origin: a shared cache must not hand one origin's to another.
    res.vary("Origin");
    const origin = req.get("origin");
    const preflight = req.method === "OPTIONS" && origin !== undefined && req.get("access-control-request-method") !== undefined;
    if (origin === undefined || !allows(origin)) {
      if (!preflight) return next();
      const why =
        allowed === "*" || allowed.length > 0 ? "it is not one of CORS_ALLOWED_ORIGINS" : "CORS_ALLOWED_ORIGINS is not set, so no page of another origin may";
      throw new HttpError(403, "forbidden_origin", `a page of ${JSON.stringify(origin.slice(0, 100))} may not call ${req.baseUrl} from a browser: ${why}`);
    }
    markAllowedOrigin(req);
    res.setHeader("Access-Control-Allow-Origin", allowed === "*" ? "*" : origin);
    if (!preflight) {
      res.setHeader("Access-Control-Expose-Headers", CORS_EXPOSED_HEADERS.join(", "));
      return next();
    }
    res.vary("Access-Control-Request-Method");
    res.vary("Access-Control-Request-Headers");
    res.setHeader("Access-Control-Allow-Methods", methods.join(", "));
    const headers = requestedHeaders(req.get("access-control-request-headers"));
    if (headers.length > 0) res.setHeader("Access-Control-Allow-Headers", headers.join(", "));
    // A page of a public site calling a server on this machine or network (Chrome's Private Network
    // Access asks first): the allowlist is this server's consent.
    if (req.get("access-control-request-private-network") === "true") res.setHeader("Access-Control-Allow-Private-Network", "true");
    res.setHeader("Access-Control-Max-Age", String(CORS_MAX_AGE_S));
    res.status(204).end();
  };
}
