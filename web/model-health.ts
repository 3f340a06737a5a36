import { readApi } from "./api-error.js";

/** A configured model id its endpoint no longer lists, and the listed id of the same vendor nearest to it, when there is one. */
export interface MissingModel {
  id: string;
  nearest?: string;
}

/**
 * The missing model ids of a `GET /api/v1/health/models` answer, each once, with its nearest
 * listed id. Anything not of the documented shape counts as nothing missing: the notice is a help,
 * never a claim the page cannot back.
 */
export function missingModels(body: unknown): MissingModel[] {
  const endpoints = (body as { endpoints?: unknown } | null)?.endpoints;
  if (!Array.isArray(endpoints)) return [];
  const found = new Map<string, MissingModel>();
  for (const e of endpoints) {
    if (typeof e !== "object" || e === null) continue;
    const { missing, nearest } = e as { missing?: unknown; nearest?: unknown };
    if (!Array.isArray(missing)) continue;
    const near = typeof nearest === "object" && nearest !== null ? (nearest as Record<string, unknown>) : {};
    for (const id of missing) {
      if (typeof id !== "string" || !id || found.has(id)) continue;
      const to = near[id];
      found.set(id, { id, ...(typeof to === "string" && to ? { nearest: to } : {}) });
    }
  }
  return [...found.values()];
}

/** The page's one check (per page load): a failed call or an unexpected answer is nothing missing, silently. */
let check: Promise<MissingModel[]> | undefined;

/** The configured model ids no endpoint offers, asked of the server once per page load. */
export function loadMissingModels(): Promise<MissingModel[]> {
  check ??= fetch("/api/v1/health/models")
    .then((res) => readApi<unknown>(res))
    .then(missingModels)
    .catch(() => []);
  return check;
}
