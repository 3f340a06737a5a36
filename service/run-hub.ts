import { SerializedEvent, type EventLog, type RunEvent } from "../ports/event-log.js";
import type { MemoryEventLog } from "../providers/event-log.js";
import { HandedBackError } from "./active-runs.js";

interface LiveRun {
  threadId: string;
  controller: AbortController;
  readers: number;
  timer?: NodeJS.Timeout;
  /** Resolves once its producer here has let go of it. */
  ended: Promise<void>;
}

/**
 * The runs of this process and their events. Every event goes to the local log (replay and live
 * following here) and, with Redis, to the shared log (any instance). A run is not tied to the
 * connection that started it: when its last reader leaves, it goes on for `resumeGraceMs`
 * waiting for a reader on any instance, and only then is cancelled.
 */
export class RunHub {
  private readonly live = new Map<string, LiveRun>();
  /** Each run's last event on its way to this process's log (through the shared log first). */
  private readonly delivering = new Map<string, Promise<void>>();

  constructor(
    private readonly local: MemoryEventLog,
    private readonly shared: EventLog | undefined,
    private readonly resumeGraceMs: number,
  ) {}

  /**
   * A new run's first event (its `metadata`), before any worker takes it: in the log every
   * instance reads when there is one, so that its clients can follow it wherever it runs.
   * Resolves once the log has it.
   */
  async announce(runId: string, event: RunEvent): Promise<void> {
    const kept = serialized(event);
    if (this.shared) await this.shared.append(runId, kept);
    else await this.local.append(runId, kept);
  }

  /**
   * Registers a run this process now produces (a worker took it), and makes this instance the
   * only writer of its log: it goes on after the log's last event (its `metadata`, or what a
   * worker that died or handed it back had written), which this process's log gets too, for its
   * readers here. Undefined when the run is not to be produced: its log is gone (its conversation
   * was deleted) or has ended (it was stopped while it waited). Call `finish` when it has ended.
   */
  async adopt(runId: string, threadId: string, controller: AbortController): Promise<{ lastId: number; finish: () => void } | undefined> {
    // Taken up again by this very process (its hold had lapsed while it still ran the run): the
    // producer that lost it stops first, and its last events reach the log, so one goes on.
    const before = this.live.get(runId);
    if (before) {
      before.controller.abort(new HandedBackError());
      await before.ended;
    }
    await this.delivering.get(runId);
    let lastId: number | undefined;
    if (this.shared?.claim) {
      lastId = await this.shared.claim(runId);
      if (lastId === undefined) return undefined;
      if (this.local.lastId(runId) < lastId) await this.local.forget(runId);
      // Its readers here read this process's log, whose events come once the shared log has them.
      if (!(await this.local.has(runId))) {
        this.local.begin(runId);
        for (const event of (await this.shared.upTo?.(runId, lastId)) ?? []) await this.local.append(runId, event);
      }
    } else {
      if (!(await this.local.has(runId)) || (await this.local.finished(runId))) return undefined;
      lastId = this.local.lastId(runId);
    }
    let ended!: () => void;
    const run: LiveRun = { threadId, controller, readers: 0, ended: new Promise((resolve) => (ended = resolve)) };
    this.live.set(runId, run);
    const finish = () => {
      if (run.timer) clearTimeout(run.timer);
      if (this.live.get(runId) === run) this.live.delete(runId);
      // Handed back while its log goes on elsewhere: this process's copy would never end, so its
      // readers here move to the shared log (they reconnect with their last id).
      if (controller.signal.reason instanceof HandedBackError) void (this.delivering.get(runId) ?? Promise.resolve()).then(() => this.local.forget(runId));
      ended();
    };
    return { lastId, finish };
  }

  /** Whether a stop of the run was asked for on another instance while no worker held it. */
  async stopRequested(runId: string): Promise<boolean> {
    return (await this.shared?.stopRequested?.(runId)) ?? false;
  }

  /** Whether the runs' events go to a log every instance reads (Redis), or stay in this process. */
  get isShared(): boolean {
    return this.shared !== undefined;
  }

  /** Whether this process is running the run. */
  runsHere(runId: string): boolean {
    return this.live.has(runId);
  }

  /** Whether this process is running a run of the thread. */
  runningThread(threadId: string): boolean {
    return [...this.live.values()].some((run) => run.threadId === threadId);
  }

  /** Stops this process's runs of the thread with `reason` (a save of the thread failed). */
  abortThread(threadId: string, reason: Error): void {
    for (const run of this.live.values()) if (run.threadId === threadId) run.controller.abort(reason);
  }

  /**
   * Appends the run's next event, its data serialized once for every log and reader. With a
   * shared log, to it first: the local log (from which this instance's readers are served) gets
   * the event once the shared log has it, in order, so a client never holds an id that another
   * instance cannot serve or that a broken run's end could reuse. The run never waits for it.
   */
  append(runId: string, event: RunEvent): void {
    const kept = serialized(event);
    if (!this.shared) return void this.local.append(runId, kept);
    // Not kept: another instance has taken the run up, and this one stops (its readers here follow the shared log).
    const delivered = this.shared.append(runId, kept).then((written) => void (written && this.local.append(runId, kept)));
    this.delivering.set(runId, delivered);
    void delivered.finally(() => this.delivering.get(runId) === delivered && this.delivering.delete(runId));
  }

  /** Drops a finished run's events here and in the shared log, once its readers here have them all. */
  async forget(runId: string): Promise<void> {
    await this.delivering.get(runId);
    await Promise.all([this.local.forget(runId), this.shared?.forget(runId)]);
  }

  /** Whether a run has ended (its log ends with `done`), here or in the shared log. */
  async finished(runId: string): Promise<boolean> {
    return (await this.local.has(runId)) ? this.local.finished(runId) : ((await this.shared?.finished(runId)) ?? false);
  }

  /**
   * Stops a run with `reason`: here if this process runs it, else by asking the instance that
   * does through the shared log. Returns false when no instance runs it (the one that did is gone).
   */
  async stop(runId: string, reason: Error): Promise<boolean> {
    if (this.stopHere(runId, reason)) return true;
    return (await this.shared?.requestStop?.(runId)) ?? false;
  }

  /** Ends the log of a run whose instance is gone with `events`; false when it has ended already. */
  async endOrphan(runId: string, events: Omit<RunEvent, "id">[]): Promise<boolean> {
    return (await this.shared?.endOrphan?.(runId, events)) ?? false;
  }

  /** Stops the run with `reason` if this process runs it; returns whether it does. */
  stopHere(runId: string, reason: Error): boolean {
    this.live.get(runId)?.controller.abort(reason);
    return this.live.has(runId);
  }

  /** Whether a run's events can be served (this process's runs, or the shared log's). */
  async has(runId: string): Promise<boolean> {
    return (await this.local.has(runId)) || ((await this.shared?.has(runId)) ?? false);
  }

  /** The run's events after `afterId`, then live ones until `done`: from memory when the run is here. */
  async *follow(runId: string, afterId: number, signal: AbortSignal): AsyncGenerator<RunEvent> {
    const log = (await this.local.has(runId)) ? this.local : this.shared;
    if (log) yield* log.follow(runId, afterId, signal);
  }

  /**
   * A client starts reading the run; call the returned function when it stops. While it reads,
   * the shared log hears of it now and then, so the instance running it keeps it alive.
   */
  attach(runId: string): () => void {
    const run = this.live.get(runId);
    const beat = () => void this.shared?.touch(runId);
    beat();
    const heartbeat = this.shared ? setInterval(beat, Math.max(250, Math.floor(this.resumeGraceMs / 3))) : undefined;
    heartbeat?.unref();
    if (run) {
      run.readers++;
      if (run.timer) clearTimeout(run.timer);
      run.timer = undefined;
    }
    let attached = true;
    return () => {
      if (!attached) return;
      attached = false;
      if (heartbeat) clearInterval(heartbeat);
      if (run && --run.readers === 0 && this.live.has(runId)) this.waitForReader(runId, run);
    };
  }

  /** After the grace period without a reader here or (per the shared log) anywhere, the run is cancelled. */
  private waitForReader(runId: string, run: LiveRun): void {
    const check = async () => {
      if (run.readers > 0 || !this.live.has(runId)) return;
      const seen = (await this.shared?.lastSeen(runId)) ?? null;
      const left = seen === null ? 0 : seen + this.resumeGraceMs - Date.now();
      if (left > 0) {
        run.timer = setTimeout(check, left);
        return;
      }
      run.controller.abort(new Error("the client disconnected and did not come back"));
    };
    if (this.resumeGraceMs === 0) void check();
    else run.timer = setTimeout(check, this.resumeGraceMs);
  }
}

/** The event with its data serialized once, for every log and reader. */
function serialized(event: RunEvent): RunEvent {
  return event.json === undefined ? SerializedEvent.of(event.id, event.event, event.data) : event;
}
