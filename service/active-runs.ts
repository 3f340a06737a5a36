import { DebattError } from "../state/errors.js";

/** How long a shutdown waits for responses to deliver their runs' last events. */
const STREAM_FLUSH_MS = 5_000;

/** Why a run was cancelled by the server rather than by its client. */
export class ShutdownError extends DebattError {
  constructor(message = "the server is shutting down; the debate was cancelled after the grace period") {
    super("shutting_down", message);
  }
}

/** Why a run was stopped at its user's request (the stop button, `POST …/cancel`). */
export class StopRequestedError extends DebattError {
  constructor() {
    super("cancelled", "the run was stopped at its user's request; what was said so far is kept");
  }
}

/** Why a run was stopped when the user who started it was removed. */
export class UserRemovedError extends DebattError {
  constructor() {
    super("user_removed", "the user who started this run was removed, so it is stopped; what was said so far is kept");
  }
}

/**
 * Why a run stops in this process without ending: it is handed back to the queue (the process
 * shuts down, or lost its hold on the run) and another worker takes it up from its checkpoint.
 * Nothing is published and its answer stays `streaming`.
 */
export class HandedBackError extends DebattError {
  constructor(message = "the run was handed back to the queue; another worker takes it up from its last saved step") {
    super("shutting_down", message);
  }
}

/** Why a run whose workers kept dying is not taken up again (it may be what kills them). */
export class RunGivenUpError extends DebattError {
  constructor(deaths: number) {
    super(
      "run_interrupted",
      `the servers running this run stopped ${deaths} times before it finished (crashed or killed), so it is not taken up again; what was said so far is kept, and POST /api/v1/debates/<thread_id>/resume continues it from its last saved step`,
    );
  }
}

/**
 * The runs this process is streaming, so that a graceful shutdown can let them finish and cancel
 * what is left when the grace period ends.
 */
export class ActiveRuns {
  private readonly runs = new Map<AbortController, Promise<void>>();
  private readonly streams = new Set<Promise<void>>();
  private closing = false;
  /** Why the runs still going at the end of a drain are stopped. */
  private reason: () => Error = () => new ShutdownError();

  /** Number of runs in progress. */
  get size(): number {
    return this.runs.size;
  }

  /** True once `drain` has begun: new runs are refused. */
  get shuttingDown(): boolean {
    return this.closing;
  }

  /** Registers a run; call the returned function when it has ended. */
  add(controller: AbortController): () => void {
    // Taken while the process drains (a worker took it just before): stopped at once, as the rest will be.
    if (this.closing) queueMicrotask(() => controller.abort(this.reason()));
    let finish!: () => void;
    this.runs.set(controller, new Promise<void>((resolve) => (finish = resolve)));
    return () => {
      this.runs.delete(controller);
      finish();
    };
  }

  /** Registers a response streaming a run's events; call the returned function when it has ended. */
  addStream(): () => void {
    let finish!: () => void;
    const ended = new Promise<void>((resolve) => (finish = resolve));
    this.streams.add(ended);
    return () => {
      this.streams.delete(ended);
      finish();
    };
  }

  /**
   * Waits up to `graceMs` for every run to end, then stops the rest with `reason`: a ShutdownError
   * (their clients get an `error` event and `done`), or a HandedBackError (another worker takes
   * them up), and waits for them to wind down.
   * Resolves with the number of runs that had to be cancelled.
   */
  async drain(graceMs: number, reason: () => Error = () => new ShutdownError()): Promise<number> {
    this.closing = true;
    this.reason = reason;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.all(this.runs.values()), grace]);
    clearTimeout(timer);
    const left = [...this.runs.keys()];
    for (const controller of left) controller.abort(reason());
    await Promise.all(this.runs.values());
    // The responses still have to deliver the runs' last events (`done`) before connections close.
    let flushTimer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(this.streams), new Promise<void>((resolve) => (flushTimer = setTimeout(resolve, STREAM_FLUSH_MS)))]);
    clearTimeout(flushTimer);
    return left.length;
  }
}
