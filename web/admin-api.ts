/** The admin page's calls to the admin API. */
import { readApi } from "./api-error.js";

/** Calls the admin API with the session's token; throws an ApiError for a refusal. */
export async function api<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`/api/v1/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await readApi<T>(res)) as T;
}
