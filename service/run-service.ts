import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { DebattGraph } from "../graph/build.js";
import { buildAppGraph } from "./formats.js";
import type { RunFacts } from "../history/rows.js";
import type { HistoryStore } from "../history/store.js";
import { randomUUID } from "node:crypto";
import type { RunEvent } from "../ports/event-log.js";
import type { RunJob, RunQueue } from "../ports/run-queue.js";
import type { RunSlots } from "../ports/run-slots.js";
import { MemoryEventLog } from "../providers/event-log.js";
import { LocalRunQueue } from "../providers/local-run-queue.js";
import { WriteBehindSaver } from "../providers/write-behind-saver.js";
import type { InputRequest, PersonInput } from "../state/person.js";
import type { Requester } from "../state/ownership.js";
import { ActiveRuns, HandedBackError, ShutdownError, StopRequestedError, UserRemovedError } from "./active-runs.js";
import { nodeDepsOf, stderrLog, type AppDeps } from "./app-deps.js";
import { RunMeters } from "./meter.js";
import { PersonWaits } from "./person-waits.js";
import { RunEndings } from "./run-endings.js";
import { RunHub } from "./run-hub.js";
import { keepAlive, RunLimits } from "./run-limits.js";
import { RunOwners } from "./run-owners.js";
import { PersonInputs } from "./run-person-input.js";
import { RunProducer } from "./run-producer.js";
import type { RunCosts, RunRequest, StartedRun } from "./run-request.js";
import { RunStarts } from "./run-starts.js";
import { ThreadAccess } from "./thread-access.js";

/** How often the runs of this process are checked for users removed elsewhere. */
const REMOVED_USERS_SWEEP_MS = 5_000;

/** Most bytes of run events kept in this process's memory (the oldest finished runs go first). */
const EVENT_LOG_MAX_BYTES = 256 * 1024 * 1024;

/**
 * The one place runs are started, resumed, streamed with ids, recorded, cancelled and drained;
 * the HTTP routes and the CLI are adapters on it. Every event of a run goes to its hub (ids 1, 2,
 * 3…; replayable, and shared with other instances through Redis), the history is written as the
 * stages land, and the run goes on apart from whoever reads it: it is cancelled when no reader
 * has come back within the resume grace period, or by `cancel`, or by a shutdown.
 *
 * It holds this process's registries of runs and hands the work to small parts: ThreadAccess
 * (ownership checks), RunStarts (starting, resuming), RunProducer (producing and recording a
 * run's events), PersonInputs (the person who joined a debate) and RunEndings (stops and
 * interrupted runs).
 */
export class RunService {
  private readonly runs = new ActiveRuns();
  /** The owners of the runs running in this process; the history knows the rest. */
  private readonly owners = new RunOwners();
  /** The runs of this process that wait for the person who joined them. */
  private readonly waits = new PersonWaits();
  private readonly access: ThreadAccess;
  private readonly starts: RunStarts;
  private readonly inputs: PersonInputs;
  private readonly endings: RunEndings;
  /** Runs a shutdown stopped while they waited for their person (counted with the cancelled ones). */
  private stoppedWaiting = 0;
  /** Looks now and then for runs whose user was removed (on another instance, or from the terminal). */
  private readonly sweep: NodeJS.Timeout;

  constructor(
    readonly graph: DebattGraph,
    readonly hub: RunHub,
    private readonly history: HistoryStore | undefined,
    private readonly log: (line: string) => void,
    private readonly limits?: RunSlots,
    /** What every run's history rows record besides its states. */
    facts: RunFacts = { simulated: false },
    /** Counts and prices every run's model calls; absent → not counted. */
    costs?: RunCosts,
    /** The longest a run may take, in ms of its own time (RUN_DEADLINE_MS); 0: no deadline. */
    deadlineMs = 0,
    /** Where runs wait for a worker: this process's own queue, or one every instance shares. */
    private readonly queue: RunQueue = new LocalRunQueue(),
    /** Each user's open event streams (absent: not capped). */
    private readonly streams?: RunSlots,
  ) {
    const { runs, owners, waits } = this;
    const producer = new RunProducer({
      graph,
      hub,
      history,
      log,
      facts,
      costs,
      deadlineMs,
      runs,
      owners,
      waits,
      stopWaiting: (runId) => this.stopWaiting(runId),
      releaseSlot: (job) => void (job.quotaKey && limits?.release(job.quotaKey, job.runId)),
    });
    this.access = new ThreadAccess(owners, history);
    this.starts = new RunStarts(graph, hub, history, limits, runs, queue);
    queue.process((job, attempt) => this.keepingSlot(job, () => producer.produce(job, attempt)));
    this.inputs = new PersonInputs(graph, hub, history, waits, this.starts);
    this.endings = new RunEndings(hub, history, (threadId) => queue.runOf(threadId));
    this.sweep = setInterval(() => void this.endRunsOfRemovedUsers().catch(() => {}), REMOVED_USERS_SWEEP_MS);
    this.sweep.unref();
  }

  /**
   * Stops this process's runs of a user who was removed (their streams end with `user_removed`
   * and `done`; what was said is kept). Returns how many.
   */
  endRunsOf(userId: string): number {
    return this.owners.runsOf(userId).filter((runId) => this.hub.stopHere(runId, new UserRemovedError())).length;
  }

  /** Stops the runs of users removed elsewhere: the admin API of another instance, or `npm run users -- remove`. */
  private async endRunsOfRemovedUsers(): Promise<void> {
    if (!this.history) return;
    for (const owner of await this.owners.removed(this.history.users)) this.endRunsOf(owner);
  }

  /** Runs in progress in this process. */
  get size(): number {
    return this.runs.size;
  }

  /** Runs `work` (a job's run) while keeping its slot of the limits alive, so that it does not lapse while the run goes on. */
  private async keepingSlot<T>(job: RunJob, work: () => Promise<T>): Promise<T> {
    // Kept at once (it may have lapsed while the job waited for a worker), then while it goes on.
    const stop = job.quotaKey && this.limits ? keepAlive(this.limits, job.quotaKey, job.runId) : undefined;
    try {
      return await work();
    } finally {
      stop?.();
    }
  }

  /**
   * One of `quotaKey`'s open event streams (at most MAX_OPEN_STREAMS, across the instances), kept
   * while it is open; throws RunLimitError when they are all open. Returns its closing.
   */
  async openStream(quotaKey: string): Promise<() => void> {
    const streams = this.streams;
    if (!streams) return () => {};
    const key = `${quotaKey} (streams)`;
    const id = randomUUID();
    await streams.acquire(key, id);
    const stop = keepAlive(streams, key, id);
    return () => {
      stop();
      void streams.release(key, id);
    };
  }

  /**
   * A slot of `quotaKey`'s limits for a model call outside any run (a chat client's chore), counted
   * apart from its runs, as cheaply as a run; throws RunLimitError when spent. Gives it back.
   */
  async acquireApart(quotaKey: string, kind: string): Promise<() => void> {
    if (!this.limits) return () => {};
    const key = `${quotaKey} (${kind})`;
    const id = randomUUID();
    await this.limits.acquire(key, id);
    return () => void this.limits!.release(key, id);
  }

  /** True once `shutdown` has begun: new runs are refused. */
  get shuttingDown(): boolean {
    return this.runs.shuttingDown;
  }

  /**
   * Starts a new run; throws `shutting_down` while the process drains, `rate_limited` over the
   * limits, `run_in_progress` when its thread has a run going on.
   */
  start(sent: RunRequest): Promise<StartedRun> {
    return this.starts.start(sent);
  }

  /** Whether a run of the thread is going on or waits for a worker, on this instance or another (see `RunStarts.threadRunning`). */
  threadRunning(threadId: string): Promise<boolean> {
    return this.starts.threadRunning(threadId);
  }

  /**
   * Whether `requester` may see or continue a thread: a thread nobody has used is free (it is
   * about to be started); one that exists belongs to the user who started it.
   */
  mayUseThread(requester: Requester, threadId: string): Promise<boolean> {
    return this.access.mayUseThread(requester, threadId);
  }

  /** Whether `requester` may see a run (its events, its result, its audio): it must be theirs. */
  mayReadRun(requester: Requester, runId: string): Promise<boolean> {
    return this.access.mayReadRun(requester, runId);
  }

  /**
   * Whether `requester` may answer for the person of the debate `id` names: a run's id (its owner's,
   * see `mayReadRun`) or a thread's (see `mayUseThread`).
   */
  mayAnswer(requester: Requester, id: string): Promise<boolean> {
    return this.access.mayAnswer(requester, id);
  }

  /**
   * Continues a thread's run that stopped before it finished (the process died, or it was
   * cancelled) from its last saved step; finished steps are not run again and its history rows
   * are completed, not written twice. A debate that stopped while it waited for the person who
   * joined it goes on with their `input` when given (`invalid_input` when it does not fit what the
   * debate waits for), else waits for them again.
   */
  resume(threadId: string, quotaKey?: string, input?: PersonInput): Promise<StartedRun> {
    return this.starts.resume(threadId, quotaKey, input);
  }

  /**
   * Gives the person who joined a debate (`--with-me`) their turn or vote (`invalid_input` when it
   * does not fit what the debate waits for). A run of this process that waits for them goes on at
   * once (`accepted`, same run). A debate that stopped while it waited (the server restarted, or
   * its reader left) goes on from its checkpoint as a new run of its thread (`resumed`): `id` is
   * then its first run's id or its thread's. `not_awaiting_input` when it waits for nobody.
   */
  input(id: string, input: PersonInput, quotaKey?: string): Promise<StartedRun & { status: "accepted" | "resumed" }> {
    return this.inputs.input(id, input, quotaKey);
  }

  /**
   * What the debate `id` names (a run's id, its thread's, or its first run's) waits for from the
   * person who joined it: the question of a run waiting in this process (with its deadline, `live`),
   * or of one that stopped while it waited (from its checkpoint; the answer resumes it). Undefined
   * when it waits for nobody (or runs on another instance).
   */
  awaiting(id: string): Promise<{ runId: string; threadId: string; live: boolean; request: InputRequest & { deadline?: number } } | undefined> {
    return this.inputs.awaiting(id);
  }

  /**
   * The run's events after `afterId`, then the live ones until `done` or `signal`. While it
   * reads, the run counts as followed (it is not cancelled for want of a reader).
   */
  async *events(runId: string, afterId: number, signal: AbortSignal): AsyncGenerator<RunEvent> {
    const detach = this.hub.attach(runId);
    const ended = this.runs.addStream();
    try {
      for await (const event of this.hub.follow(runId, afterId, signal)) {
        // The server that ran it died (its log was ended by a reader's instance): its answer ends too.
        if (event.event === "error" && event.data.code === "run_interrupted") await this.endings.endAnswer(runId, "error", String(event.data.message));
        yield event;
      }
    } finally {
      detach();
      ended();
    }
  }

  /**
   * What a reader of a run that no log has is told when the process that ran it died with its
   * events (killed, without a shared log): the history still has it streaming, and no process
   * serves it, so it was interrupted. Its answer is marked so, and the reader gets the
   * `run_interrupted` error (it can be resumed) and `done`, as events that are not the run's own
   * (id 0). Undefined when the history knows no such run. Without Redis only the process that
   * runs a run serves its events, so several instances need REDIS_URL.
   */
  interrupted(runId: string): Promise<RunEvent[] | undefined> {
    return this.endings.interrupted(runId);
  }

  /**
   * Stops a run at its user's request, on whichever instance runs it: every model call in flight
   * is aborted, its answer is kept as `cancelled`, and its stream ends with `error` (cancelled)
   * and `done`. Resolves `stopping` when the instance running it has the request, `cancelled`
   * when no instance runs it any more (the one that did is gone): its log and its history are
   * then ended here. Throws `run_finished` when it has already ended.
   */
  stop(runId: string): Promise<"stopping" | "cancelled"> {
    return this.endings.stop(runId);
  }

  /** Cancels a run of this process: every model call in flight is aborted; its stream ends with `done`. */
  cancel(runId: string, reason: Error = new Error("the run was cancelled")): boolean {
    return this.hub.stopHere(runId, reason);
  }

  /**
   * Stops taking runs, lets the running ones finish within `graceMs`, cancels the rest (their
   * readers get an `error`, shutting_down, and `done`), and at once those that wait for the person
   * who joined them (they are saved where they wait). Resolves with the number cancelled.
   */
  async shutdown(graceMs: number): Promise<number> {
    clearInterval(this.sweep);
    // With a queue every instance shares, the runs still going at the end of the grace period are
    // handed back to it (another instance takes them up from their last checkpoint), not cut.
    const shared = this.queue.shared;
    const draining = this.runs.drain(graceMs, () => (shared ? new HandedBackError() : new ShutdownError()));
    const closing = this.queue.close();
    for (const wait of this.waits.all()) this.stopWaiting(wait.runId);
    const stopped = await draining;
    await closing;
    if (shared && stopped > 0) this.log(`handed ${stopped} run(s) back to the queue: another instance takes them up from their last saved steps`);
    return (shared ? 0 : stopped) + this.stoppedWaiting;
  }

  /**
   * Stops a run that waits for its person while the process shuts down: it is saved where it waits,
   * and their answer resumes it on any instance, so it is not held for the grace period.
   */
  private stopWaiting(runId: string): void {
    this.stoppedWaiting++;
    this.hub.stopHere(
      runId,
      new ShutdownError(
        "the server is shutting down while the debate waits for you; it is saved, and your answer (POST /api/v1/debates/<id>/input) resumes it",
      ),
    );
  }
}

/**
 * The run service of an application: its graph (with the checkpointer, when there is one), the
 * runs' events in this process's memory and, with Redis, in the shared log, and the history.
 */
export function createRunService(deps: AppDeps, options: { checkpointer?: BaseCheckpointSaver; history?: HistoryStore } = {}): RunService {
  const meters = new RunMeters();
  const graph = buildAppGraph({ ...nodeDepsOf(deps), models: meters.wrap(deps.models) }, { checkpointer: options.checkpointer, settings: deps.settings });
  const local = new MemoryEventLog({ ttlMs: deps.settings.eventLogTtlMs, maxBytes: EVENT_LOG_MAX_BYTES });
  const hub = new RunHub(local, deps.events, deps.settings.resumeGraceMs);
  const limits = deps.runSlots ?? new RunLimits(deps.settings.runsPerMinute, deps.settings.maxConcurrentRuns);
  // A save that fails (a full disk) stops its run at once, rather than when the graph ends.
  if (options.checkpointer instanceof WriteBehindSaver) options.checkpointer.onFailure((threadId, err) => hub.abortThread(threadId, err));
  // Another instance was asked to stop a run that this one runs.
  deps.events?.onStopRequest?.((runId) => hub.stopHere(runId, new StopRequestedError()));
  // Another instance ended a run's log (its user's stop, which nobody answered for in time): the run stops here too.
  deps.events?.onEndedElsewhere?.((runId) => hub.stopHere(runId, new StopRequestedError()));
  // Another instance took a run of this one up (this one lost its hold on it): it stops here, without an end.
  deps.events?.onTakenOver?.((runId) => hub.stopHere(runId, new HandedBackError()));
  deps.runQueue?.onLost?.((threadId) => hub.abortThread(threadId, new HandedBackError()));
  const costs = { meters, prices: deps.settings.prices, internalModel: deps.settings.oneseekModel, maxCostUsd: deps.settings.maxCostUsd };
  return new RunService(
    graph,
    hub,
    options.history,
    deps.log ?? stderrLog,
    limits,
    { simulated: deps.models.simulated },
    costs,
    deps.settings.runDeadlineMs,
    deps.runQueue,
    deps.streamSlots ?? new RunLimits(Number.MAX_SAFE_INTEGER, deps.settings.maxOpenStreams, Date.now, "open streams"),
  );
}
