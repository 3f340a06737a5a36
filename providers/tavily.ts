import type { SearchClient, SearchResult } from "../ports/models.js";

/**
 * Tavily web search within the caller's limits; `baseUrl` (TAVILY_BASE_URL) overrides the endpoint.
 * The client library is loaded at the first search: it is large (about 17 MB of heap), and a
 * server whose debates never search need not hold it.
 */
export function createTavilySearch(options: { apiKey: string; baseUrl?: string; timeoutMs: number }): SearchClient {
  let client: Promise<ReturnType<typeof import("@tavily/core").tavily>> | undefined;
  return {
    async search(query, { maxResults, maxChars, signal }) {
      client ??= import("@tavily/core").then(({ tavily }) => tavily({ apiKey: options.apiKey, apiBaseURL: options.baseUrl }));
      const search = (await client).search(query, { maxResults, timeout: Math.ceil(options.timeoutMs / 1000) });
      // @tavily/core takes its timeout in seconds and has no AbortSignal: race the signal ourselves.
      const response = await abortable(search, options.timeoutMs, signal);
      return response.results.slice(0, maxResults).map((r): SearchResult => ({ title: r.title, url: r.url, content: (r.content ?? "").slice(0, maxChars) }));
    },
  };
}

/** Rejects when `signal` aborts or `ms` pass, whichever comes first. */
function abortable<T>(promise: Promise<T>, ms: number, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => finish(() => reject(new Error(`web search timed out after ${ms} ms`))), ms);
    const onAbort = () => finish(() => reject(signal!.reason));
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      settle();
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => finish(() => resolve(v)),
      (e) => finish(() => reject(e)),
    );
  });
}
