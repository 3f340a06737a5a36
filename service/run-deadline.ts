import { DebattError } from "../state/errors.js";

/** Why a run was stopped when it ran longer than its deadline (RUN_DEADLINE_MS). */
export class RunDeadlineError extends DebattError {
  constructor(ms: number) {
    super(
      "deadline_exceeded",
      `the run took longer than its deadline of ${Math.round(ms / 1000)} s (RUN_DEADLINE_MS), so it is stopped with what it has: what was said is kept, and it can be resumed`,
    );
  }
}

/**
 * A run's deadline: calls `expired` once the run has taken `ms` of its own time (the time it
 * waits for the person who joined it does not count: that has a deadline of its own). 0: none.
 */
export class RunDeadline {
  private timer: NodeJS.Timeout | undefined;
  private left: number;
  private since = Date.now();

  constructor(
    ms: number,
    private readonly expired: () => void,
  ) {
    this.left = ms;
    if (ms > 0) this.resume();
  }

  /** Stops the clock (the run waits for its person). */
  pause(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.left -= Date.now() - this.since;
  }

  /** Starts the clock again with the time that was left. */
  resume(): void {
    if (this.timer || this.left <= 0) return;
    this.since = Date.now();
    this.timer = setTimeout(this.expired, this.left);
    this.timer.unref();
  }

  /** The run has ended. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.left = 0;
  }
}
