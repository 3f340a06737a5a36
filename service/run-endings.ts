import type { HistoryStore } from "../history/store.js";
import { runInterrupted, type RunEvent } from "../ports/event-log.js";
import { DebattError } from "../state/errors.js";
import { StopRequestedError } from "./active-runs.js";
import type { RunHub } from "./run-hub.js";

/**
 * Ends runs whose process may be gone: a stop requested on whichever instance runs it, the
 * readers of a run that died with its events, and the answers those runs left `streaming`.
 */
export class RunEndings {
  constructor(
    private readonly hub: RunHub,
    private readonly history: HistoryStore | undefined,
    /** The run of the thread's job, on any instance (see `RunQueue.runOf`). */
    private readonly runOf: (threadId: string) => Promise<string | undefined>,
  ) {}

  /** The `run_interrupted` error and `done` for a reader of a run that died with its events (see `RunService.interrupted`). */
  async interrupted(runId: string): Promise<RunEvent[] | undefined> {
    if (this.hub.isShared || this.hub.runsHere(runId)) return undefined;
    const events = runInterrupted();
    if (!(await this.endAnswer(runId, "error", String(events[0].data.message)))) return undefined;
    return events.map((e) => ({ id: 0, ...e }));
  }

  /**
   * Ends the answer of a run that is no longer running anywhere (its server died, or it was
   * stopped after that), if it is still streaming and no other run of its thread goes on, on any
   * instance; returns whether it did.
   */
  async endAnswer(runId: string, status: "error" | "cancelled", message: string): Promise<boolean> {
    const answer = await this.history?.message(runId);
    if (answer?.status !== "streaming") return false;
    // A resumed run of its thread writes the same answer (it keeps its first run's id): it is not ended under it.
    const going = await this.runOf(answer.conversationId).catch(() => undefined);
    if (going !== undefined && going !== runId) return false;
    await this.history!.finishRun(
      { conversationId: answer.conversationId, messageId: runId },
      { content: answer.content, status, error: message, title: null, at: new Date() },
    );
    return true;
  }

  /** Stops a run at its user's request on whichever instance runs it, or ends it here when none does (see `RunService.stop`). */
  async stop(runId: string): Promise<"stopping" | "cancelled"> {
    const finished = () => new DebattError("run_finished", `run "${runId}" has already ended`);
    if (await this.hub.finished(runId)) throw finished();
    if (await this.hub.stop(runId, new StopRequestedError())) return "stopping";
    const why = new DebattError("cancelled", "the run was stopped at its user's request after the server running it had stopped; what was said so far is kept");
    const timestamp = new Date().toISOString();
    if (
      !(await this.hub.endOrphan(runId, [
        { event: "error", data: { message: why.message, code: why.code, timestamp } },
        { event: "done", data: { timestamp } },
      ]))
    )
      throw finished();
    // The answer of a run started here is the run's message (a resumed run's keeps its first id, and stays as it is).
    await this.endAnswer(runId, "cancelled", why.message);
    return "cancelled";
  }
}
