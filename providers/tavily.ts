import { tavily } from "@tavily/core";
import type { SearchClient, SearchResult } from "../ports/models.js";

/** Tavily web search within the caller's limits; `baseUrl` (TAVILY_BASE_URL) overrides the endpoint. */
export function createTavilySearch(options: { apiKey: string; baseUrl?: string; timeoutMs: number }): SearchClient {
  const client = tavily({ apiKey: options.apiKey, apiBaseURL: options.baseUrl });
  return {
    async search(query, { maxResults, maxChars, signal }) {
      // @tavily/core takes its timeout in seconds and has no AbortSignal: race the signal ourselves.
      const request = client.search(query, { maxResults, timeout: Math.ceil(options.timeoutMs / 1000) });
      const response = await abortable(request, options.timeoutMs, signal);
      return response.results.slice(0, maxResults).map(
        (r): SearchResult => ({ title: r.title, url: r.url, content: (r.content ?? "").slice(0, maxChars) }),
      );
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
    promise.then((v) => finish(() => resolve(v)), (e) => finish(() => reject(e)));
  });
}
