import { setImmediate } from "node:timers/promises";

/**
 * Lets graph runs start one per event-loop turn.
 *
 * Starting a run costs several milliseconds of CPU (LangGraph's first steps, up to the first model
 * call) without yielding to the event loop. When many requests arrive together, starting them all
 * in one go would hold back the acknowledgement of the later ones and every other stream's events.
 * Each turn of the loop first serves pending I/O (new requests get their `metadata` event at
 * once), then starts the next waiting run.
 */
export class StartGate {
  private tail: Promise<void> = Promise.resolve();

  /** Resolves when it is this caller's turn to start. */
  turn(): Promise<void> {
    const mine = this.tail.then(() => setImmediate());
    this.tail = mine;
    return mine;
  }
}
