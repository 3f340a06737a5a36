import type { Reason } from "../state/errors.js";
import { errorWords, type Translate } from "../state/messages/index.js";

/** A refusal as the API answered it (`{error: {code, message, reason?}}`), or only its status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
    readonly reason?: Reason,
  ) {
    super(message);
  }
}

/** The JSON of an API answer (undefined for 204); throws an ApiError for a refusal. */
export async function readApi<T>(res: Response): Promise<T | undefined> {
  if (res.status === 204) return undefined;
  const json = (await res.json().catch(() => null)) as (T & { error?: { code?: string; message?: string; reason?: Reason } }) | null;
  if (!res.ok || json === null) {
    const e = json?.error;
    throw new ApiError(res.status, e?.code, e?.message ?? "", e?.reason);
  }
  return json;
}

/** A failed API call in the reader's words: a refusal by its code, else the server's status, else an unreachable server. */
export function inWords(t: Translate, err: unknown): string {
  if (!(err instanceof ApiError)) return t("error.network", { detail: (err as Error).message });
  return (err.code && errorWords(t, err.code, err.message, err.reason)) || err.message || t("error.server", { status: err.status });
}
