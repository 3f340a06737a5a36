import type { RunRecorder } from "../history/recorder.js";
import { BudgetExceededError, DebattError, WriteFailedError } from "../state/errors.js";
import type { ClientEvent } from "../state/events.js";
import type { RunMeter } from "./meter.js";
import { HandedBackError, RunGivenUpError } from "./active-runs.js";
import { RunDeadlineError } from "./run-deadline.js";
import type { RunHub } from "./run-hub.js";

/**
 * What a run does with each of its events: numbers them (1, 2, 3…) into its hub, records them,
 * stops the run once its budget is spent, and ends it: why it stopped (if it did), what it used,
 * its history completed, then `done`.
 */
export class RunPublisher {
  private id: number;
  /** Set when the graph's last step has run: a stop that lands after it stops nothing. */
  finished = false;
  /** Set once `done` is published: the run has ended. */
  ended = false;
  /** Set when the run stopped here to go on with another worker: nothing more is published. */
  handedBack = false;

  constructor(
    private readonly runId: string,
    private readonly hub: RunHub,
    private readonly controller: AbortController,
    private readonly simulated: boolean,
    private readonly recorder?: RunRecorder,
    private readonly meter?: RunMeter,
    private readonly budget?: number,
    /** The last id its log has (its `metadata`, or what earlier workers wrote): its events go on after it. */
    lastId = 0,
  ) {
    this.id = lastId;
  }

  /** Publishes the run's next event. */
  publish(event: ClientEvent): void {
    if (this.handedBack) return;
    this.hub.append(this.runId, { id: ++this.id, ...event });
  }

  /** Publishes an `error` event for `err`. */
  publishError(err: DebattError): void {
    this.publish({ event: "error", data: { message: err.message, code: err.code, timestamp: new Date().toISOString() } });
  }

  /** Records an event of the graph, stops the run over its budget, ends it at `done`, and publishes it. */
  handle(event: ClientEvent): Promise<void> | void {
    this.recorder?.heard(event);
    if (event.event === "error") this.recorder?.failed(event.data.message);
    // The budget is spent (the meter said so once everything before it was streamed): stop the run.
    // On the next turn of the event loop: the event comes straight from the node, and the states the
    // graph has streamed before it (the history's rows) are read first; a stop now would drop them.
    if (event.event === "error" && event.data.code === "budget_exceeded")
      setImmediate(() => this.controller.abort(new BudgetExceededError(this.budget ?? 0, this.meter?.report.total.cost_usd ?? 0)));
    if (event.event === "done") return this.end(event);
    this.publish(event);
  }

  /** The run's last event: why it stopped (if it did), what it used, its history completed, then `done`. */
  async end(event: ClientEvent = { event: "done", data: { timestamp: new Date().toISOString() } }): Promise<void> {
    // A stop or a shutdown that lands after the graph's last step (while `done` is on its way)
    // stops nothing: the run finished. A failed write is still a failed write.
    const aborted: unknown = this.controller.signal.reason;
    const reason = this.finished && !(aborted instanceof WriteFailedError) ? undefined : aborted;
    // Handed back: another worker goes on from the last checkpoint, and writes the end.
    if (reason instanceof HandedBackError) {
      this.handedBack = this.ended = true;
      // What its calls used so far (those cut now too) is in the history before another worker counts on from it.
      await this.meter?.settled(1_000);
      await this.recorder?.letGo();
      return;
    }
    // Stopped by the server (shutting down, a failed write, its user removed, its deadline) or at
    // the user's request: the client is told why. (A spent budget was told by the meter already.)
    if (DebattError.isInstance(reason) && !(reason instanceof BudgetExceededError)) this.publishError(reason);
    if (reason instanceof WriteFailedError || reason instanceof RunDeadlineError || reason instanceof RunGivenUpError) this.recorder?.failed(reason.message);
    // What the calls used and cost, in all and by participant and stage: the last word before `done`.
    const meter = this.meter;
    await meter?.settled(1_000);
    if (meter && meter.report.total.calls > 0) {
      this.recorder?.usage(meter.report);
      this.publish({
        event: "usage",
        data: {
          ...meter.report,
          ...(this.budget === undefined ? {} : { budget_usd: this.budget }),
          simulated: this.simulated,
          timestamp: new Date().toISOString(),
        },
      });
    }
    // The history is complete before `done`, so a client that then fetches the run finds all of it.
    const unsaved = await this.recorder?.finish(reason !== undefined);
    if (unsaved && !(reason instanceof WriteFailedError)) this.publishError(unsaved);
    this.ended = true;
    this.publish(event);
  }
}
