import { afterEach, describe, expect, it, vi } from "vitest";
import {
  audioUrl,
  cancelRun,
  createShare,
  exportUrl,
  getConversation,
  getShare,
  getWaitingInput,
  revokeShare,
  sendPersonInput,
  UnexpectedResponse,
} from "../web/api-client.js";
import { ApiError } from "../web/api-error.js";

/** The page's REST client (web/api-client.ts) against a stubbed fetch: what it asks, and what it makes of the answers. */

/** The requests the client made, as `[method, url, content-type, body]`. */
let asked: [string, string, string | undefined, string | undefined][] = [];

/** Answers every request with `status` and `json` (no body when undefined), recording it. */
function answering(status: number, json?: unknown) {
  asked = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
    asked.push([init.method ?? "GET", url, (init.headers as Record<string, string> | undefined)?.["content-type"], init.body as string | undefined]);
    return new Response(json === undefined ? null : JSON.stringify(json), {
      status,
      headers: json === undefined ? {} : { "content-type": "application/json" },
    });
  });
}

/** What a call was refused with: its class, status, code and message. */
async function refusal(call: Promise<unknown>) {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, "the call should have been refused").toBeInstanceOf(ApiError);
  const e = err as ApiError;
  return { unexpected: e instanceof UnexpectedResponse, status: e.status, code: e.code, message: e.message };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the page's REST client", () => {
  it("reads a conversation of the history by its id, escaped into the path", async () => {
    const conversation = { id: "a b/c", mode: "vote", title: null, messages: [] };
    answering(200, conversation);
    expect(await getConversation("a b/c")).toEqual(conversation);
    expect(asked).toEqual([["GET", "/api/v1/conversations/a%20b%2Fc", undefined, undefined]]);
  });

  it("posts the person's input as JSON and answers the run that goes on", async () => {
    answering(202, { run_id: "r2", thread_id: "t1", status: "resumed" });
    expect(await sendPersonInput("r1", { vote: "Model A", motivation: "clearer" })).toEqual({ run_id: "r2", thread_id: "t1", status: "resumed" });
    expect(asked).toEqual([["POST", "/api/v1/debates/r1/input", "application/json", '{"vote":"Model A","motivation":"clearer"}']]);
  });

  it("asks what a debate waits for: nothing, or the request and its run", async () => {
    answering(200, { waiting: null });
    expect(await getWaitingInput("t1")).toEqual({ waiting: null });
    const waiting = { kind: "vote", round: 4, participant: "person", candidates: ["A", "B"] };
    answering(200, { run_id: "r1", thread_id: "t1", live: false, waiting });
    expect(await getWaitingInput("t1")).toEqual({ run_id: "r1", thread_id: "t1", live: false, waiting });
    expect(asked).toEqual([["GET", "/api/v1/debates/t1/input", undefined, undefined]]);
  });

  it("hands a refusal on as an ApiError with the server's code", async () => {
    answering(409, { error: { code: "not_awaiting_input", message: 'debate "r1" does not wait for anyone\'s input' } });
    expect(await refusal(sendPersonInput("r1", { text: "hi" }))).toEqual({
      unexpected: false,
      status: 409,
      code: "not_awaiting_input",
      message: 'debate "r1" does not wait for anyone\'s input',
    });
  });

  it("stops a run; a run that had already finished (409) is no failure, anything else is", async () => {
    answering(202, { run_id: "r1", status: "stopping" });
    expect(await cancelRun("r1")).toEqual({ run_id: "r1", status: "stopping" });
    expect(asked).toEqual([["POST", "/api/v1/debates/r1/cancel", undefined, undefined]]);
    answering(409, { error: { code: "run_finished", message: "it has ended" } });
    expect(await cancelRun("r1")).toBe("finished");
    answering(404, { error: { code: "run_not_found", message: "no events" } });
    expect(await refusal(cancelRun("r1"))).toMatchObject({ unexpected: false, status: 404, code: "run_not_found" });
  });

  it("makes, reads and withdraws a conversation's read-only link", async () => {
    answering(201, { url: "/shared/tok", token: "tok", createdAt: "2025-01-01T00:00:00.000Z" });
    expect((await createShare("c1")).url).toBe("/shared/tok");
    answering(200, { shared: true, createdAt: "2025-01-01T00:00:00.000Z" });
    expect(await getShare("c1")).toEqual({ shared: true, createdAt: "2025-01-01T00:00:00.000Z" });
    answering(204);
    await expect(revokeShare("c1")).resolves.toBeUndefined();
    expect(asked).toEqual([["DELETE", "/api/v1/conversations/c1/share", undefined, undefined]]);
    answering(404, { error: { code: "share_not_found", message: "no link" } });
    expect(await refusal(revokeShare("c1"))).toMatchObject({ status: 404, code: "share_not_found" });
  });

  it("refuses a success without the JSON object its endpoint always sends, saying which call it was", async () => {
    answering(204);
    expect(await refusal(getShare("c1"))).toEqual({
      unexpected: true,
      status: 204,
      code: undefined,
      message: "GET share: the server answered 204 without the JSON object it always sends",
    });
    answering(200, "ok");
    expect(await refusal(getWaitingInput("t1"))).toMatchObject({ unexpected: true, status: 200, message: expect.stringMatching(/^GET debate input: /) });
    answering(200, [1, 2]);
    expect(await refusal(getConversation("c1"))).toMatchObject({ unexpected: true, message: expect.stringMatching(/^GET conversation: /) });
  });

  it("names where an export and a debate's audio download from", () => {
    expect(exportUrl("a b", "html", "sv")).toBe("/api/v1/conversations/a%20b/export?format=html&lang=sv");
    expect(audioUrl("d1", "mp3")).toBe("/api/v1/debates/d1/audio.mp3");
  });
});
