import type { z } from "zod";

/**
 * The CORS_ALLOWED_ORIGINS setting: read, and checked at start-up with each bad entry named.
 */

/** The entries of a comma list, trimmed, empty ones left out. */
const listOf = (raw: string | undefined) =>
  (raw ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);

/** CORS_ALLOWED_ORIGINS read: `*` (any origin), or the origins listed. */
export const corsOriginsOf = (raw: string | undefined): readonly string[] | "*" => (listOf(raw).includes("*") ? "*" : listOf(raw));

/**
 * Checks CORS_ALLOWED_ORIGINS: `*` alone, or origins as a browser sends them in `Origin` (http or
 * https, the host in lower case, a port only when it is not the scheme's own, no path, query or
 * user), since they are compared as strings. Each bad entry is named, with the origin meant when
 * it can be told.
 */
export function checkCorsOrigins(raw: string, ctx: z.RefinementCtx): void {
  const entries = listOf(raw);
  if (entries.includes("*")) {
    if (entries.length > 1)
      ctx.addIssue({ code: "custom", message: "CORS_ALLOWED_ORIGINS: * allows every origin and stands alone, not in a list with others" });
    return;
  }
  for (const entry of entries) {
    const problem = originProblem(entry);
    if (problem) ctx.addIssue({ code: "custom", message: `CORS_ALLOWED_ORIGINS: "${entry.slice(0, 200)}" ${problem}` });
  }
}

/** What is wrong with `entry` as an exact origin, or undefined when it is one. */
function originProblem(entry: string): string | undefined {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return "is not an origin: write the scheme, host and port a browser shows, e.g. https://chat.example.org or http://localhost:8080";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "is not an http(s) origin (a page's origin is http:// or https://)";
  if (entry.includes("*")) return "is not an origin: a wildcard is not supported within one (list each origin, or * alone for any)";
  if (url.origin === entry) return undefined;
  return `is not an origin as a browser sends it: write ${url.origin} (scheme, host in lower case, and a port only when it is not the scheme's default; no path, query or user)`;
}
