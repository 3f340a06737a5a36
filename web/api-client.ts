import type { CancelAccepted, InputAccepted, ShareLink, ShareStatus, StoredConversation } from "../state/api.js";
import type { Lang } from "../state/messages/index.js";
import type { PersonInput } from "../state/person.js";
import { ApiError, readApi } from "./api-error.js";
import type { Awaiting } from "./arena-state.js";

export type { CancelAccepted, InputAccepted, ShareLink, ShareStatus, StoredConversation, StoredMessage } from "../state/api.js";

/*
 * The chat page's REST calls, one function per endpoint, typed as routes/*.ts answer them. Each
 * throws an ApiError for a refusal (api-error.ts), and an UnexpectedResponse for a success without
 * the JSON body its endpoint always sends. The run streams (SSE) are stream.ts's.
 *
 * The responses' types are the zod schemas' of state/api.ts (what the routes answer with, and
 * tests check real answers against), imported as types only: checking them here would bring zod
 * and, through the formats' state modules, LangGraph into the page (the bundle would grow from
 * about 0.3 MB to 1 MB). The person's wait is the `debate_awaiting_input` event's payload.
 */

/**
 * `GET /api/v1/debates/:id/input` (routes/resume.ts): nothing awaited, or what the debate waits
 * for (the `debate-awaiting-input` request, its deadline only while a server waits on it), its
 * run, and whether that run is live.
 */
export type WaitingInput = { waiting: null } | { run_id: string; thread_id: string; live: boolean; waiting: Awaiting };

/** A success without the JSON object its endpoint always answers (an empty 204, a bare value): refused rather than used. */
export class UnexpectedResponse extends ApiError {}

const conversationPath = (id: string) => `/api/v1/conversations/${encodeURIComponent(id)}`;
const debatePath = (id: string) => `/api/v1/debates/${encodeURIComponent(id)}`;

/** The JSON body of a successful answer to `what`, which always has one (a 204 is refused); throws an ApiError for a refusal. */
async function body<T>(res: Response, what: string): Promise<T> {
  const json = await readApi<T>(res);
  if (typeof json !== "object" || json === null || Array.isArray(json))
    throw new UnexpectedResponse(res.status, undefined, `${what}: the server answered ${res.status} without the JSON object it always sends`);
  return json;
}

/** `GET /api/v1/conversations/:id`: one conversation of the history, with its messages. */
export async function getConversation(id: string): Promise<StoredConversation> {
  return body<StoredConversation>(await fetch(conversationPath(id), { method: "GET" }), "GET conversation");
}

/** `POST /api/v1/debates/:id/input`: the person's turn, vote or pass in the debate they joined. */
export async function sendPersonInput(runId: string, input: PersonInput): Promise<InputAccepted> {
  const res = await fetch(`${debatePath(runId)}/input`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(input) });
  return body<InputAccepted>(res, "POST debate input");
}

/** `GET /api/v1/debates/:id/input` (a run or thread id): what the debate waits for from the person. */
export async function getWaitingInput(id: string): Promise<WaitingInput> {
  return body<WaitingInput>(await fetch(`${debatePath(id)}/input`), "GET debate input");
}

/**
 * `POST /api/v1/debates/:id/cancel`: stops a run wherever it runs; `finished` when it had just
 * ended anyway (409), which is no failure.
 */
export async function cancelRun(runId: string): Promise<CancelAccepted | "finished"> {
  const res = await fetch(`${debatePath(runId)}/cancel`, { method: "POST" });
  if (res.status === 409) return "finished";
  return body<CancelAccepted>(res, "POST cancel");
}

/** `GET /api/v1/conversations/:id/share`: whether the conversation has a read-only link. */
export async function getShare(conversation: string): Promise<ShareStatus> {
  return body<ShareStatus>(await fetch(`${conversationPath(conversation)}/share`), "GET share");
}

/** `POST /api/v1/conversations/:id/share`: a new read-only link (any earlier one stops working). */
export async function createShare(conversation: string): Promise<ShareLink> {
  return body<ShareLink>(await fetch(`${conversationPath(conversation)}/share`, { method: "POST" }), "POST share");
}

/** `DELETE /api/v1/conversations/:id/share`: withdraws the read-only link (204). */
export async function revokeShare(conversation: string): Promise<void> {
  await readApi(await fetch(`${conversationPath(conversation)}/share`, { method: "DELETE" }));
}

/** The formats `GET /api/v1/conversations/:id/export` makes (history/export.ts's, which the page may not import). */
export const EXPORT_FORMATS = ["md", "json", "html"] as const;

/** Where a conversation's export downloads from, in `lang`. */
export function exportUrl(conversation: string, format: (typeof EXPORT_FORMATS)[number], lang: Lang): string {
  return `${conversationPath(conversation)}/export?format=${format}&lang=${lang}`;
}

/** Where a /dvoice debate's audio is (`GET /api/v1/debates/:id/audio.wav|mp3`, routes/debates.ts). */
export function audioUrl(debateId: string, format: "wav" | "mp3"): string {
  return `${debatePath(debateId)}/audio.${format}`;
}
