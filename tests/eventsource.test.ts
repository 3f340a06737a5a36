import { MemorySaver } from "@langchain/langgraph";
import { EventSource } from "eventsource";
import { afterEach, describe, expect, it } from "vitest";
import { withOverrides } from "./support/fake-model.js";
import { testDeps } from "./support/harness.js";
import { postChat, readSse, startApp } from "./support/http.js";

/**
 * A run's stream read with the `eventsource` package (the EventSource of Node and of the polyfills
 * that follow the specification): it stops reconnecting once it has the run's `done`, and can tell
 * the run's error from its own connection's.
 */
describe("a run's events through a real EventSource", () => {
  const closers: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  /** A finished run's id, and an EventSource on its events that counts its requests. */
  async function finishedRun(failing: boolean, query = "") {
    const script = failing ? withOverrides((req) => (req.phase === "compare" ? { error: new Error("the provider is down") } : undefined)) : undefined;
    const app = await startApp(testDeps({ script }).deps, { checkpointer: new MemorySaver() });
    closers.push(app.close);
    const { events } = await readSse(
      await postChat(app.url, { message: "/compare Which language suits web APIs best?", participants: ["call_grok", "call_claude"] }),
    );
    const runId = String(events[0].data.run_id);
    const requests: (string | null)[] = [];
    const source = new EventSource(`${app.url}/api/v1/debates/${runId}/events${query}`, {
      fetch: (input, init) => {
        requests.push(new Headers(init?.headers).get("last-event-id"));
        return fetch(input, init);
      },
    });
    closers.push(() => source.close());
    return { source, requests, lastId: events.at(-1)!.id };
  }

  it("stops reconnecting once it has the run's done: the reconnection at the end is answered 204", async () => {
    const { source, requests, lastId } = await finishedRun(false);
    let done = 0;
    source.addEventListener("done", () => done++);
    await new Promise((r) => setTimeout(r, 2_500));
    expect(done).toBe(1);
    // The first request, then one reconnection after `done` (500 ms later), answered 204: no more.
    expect(requests).toEqual([null, lastId]);
    expect(source.readyState).toBe(EventSource.CLOSED);
  });

  it("hears the run's error as run-error when it asks, and its own connection's as error", async () => {
    const { source } = await finishedRun(true, "?error_event=run-error");
    const runErrors: { code: string }[] = [];
    const connectionErrors: Event[] = [];
    source.addEventListener("run-error", (e) => runErrors.push(JSON.parse(e.data)));
    source.addEventListener("error", (e) => connectionErrors.push(e));
    await new Promise((r) => setTimeout(r, 2_000));
    expect(runErrors.map((e) => e.code)).toEqual(["all_models_failed"]);
    // Only the connection's: the stream ending, and the 204 that stops it; none carries the run's data.
    expect(connectionErrors.length).toBeGreaterThan(0);
    expect(connectionErrors.every((e) => !("data" in e) || (e as MessageEvent).data === undefined)).toBe(true);
  });

  it("refuses an error_event it does not know, naming it", async () => {
    const app = await startApp(testDeps().deps, {});
    closers.push(app.close);
    const res = await fetch(`${app.url}/api/v1/debates/abc/events?error_event=oops`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: "invalid_error_event",
      message: expect.stringContaining("error_event"),
    });
  });
});
