import type { ClientEvent } from "../state/events.js";
import type { RunService } from "./run-service.js";

/**
 * Reads a run's events from the start, handing each to `onEvent`, until `done`. A reader that
 * cannot come back for the rest (an OpenAI-compatible completion, an MCP tool call) stops the run
 * when it leaves first (`left` aborts): what was said is kept in the history. Resolves with the
 * run's own error, if it ended with one.
 */
export async function followRun(
  service: RunService,
  runId: string,
  left: AbortSignal,
  onEvent: (e: ClientEvent) => void,
  leaveReason: string,
): Promise<{ code: string; message: string } | undefined> {
  let failure: { code: string; message: string } | undefined;
  let done = false;
  try {
    for await (const { event, data } of service.events(runId, 0, left)) {
      if (event === "done") done = true;
      if (event === "error" && data.code !== "replay_incomplete") failure = { code: String(data.code), message: String(data.message) };
      onEvent({ event, data } as ClientEvent);
    }
  } finally {
    if (!done) service.cancel(runId, new Error(leaveReason));
  }
  return failure;
}
