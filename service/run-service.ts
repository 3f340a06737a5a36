import { randomUUID } from "node:crypto";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { DebattGraph } from "../graph/build.js";
import { buildAppGraph } from "./formats.js";
import { RunRecorder } from "../history/recorder.js";
import { runIdOf, type RunFacts } from "../history/rows.js";
import type { HistoryStore } from "../history/store.js";
import { runInterrupted, type RunEvent } from "../ports/event-log.js";
import { MemoryEventLog } from "../providers/event-log.js";
import { WriteBehindSaver } from "../providers/write-behind-saver.js";
import type { RunConfig } from "../state/config.js";
import { DebattError } from "../state/errors.js";
import type { State } from "../state/graph-state.js";
import { ActiveRuns, RunInterruptedError, ShutdownError, StopRequestedError, UserRemovedError } from "./active-runs.js";
import { RunDeadline, RunDeadlineError } from "./run-deadline.js";
import { RunPublisher } from "./run-publisher.js";
import { nodeDepsOf, stderrLog, type AppDeps } from "./app-deps.js";
import { LOCAL_OWNER, mayAccess, type Requester } from "../state/ownership.js";
import { RunOwners } from "./run-owners.js";
import { RunHub } from "./run-hub.js";
import { RunLimits } from "./run-limits.js";
import { StartGate } from "./start-gate.js";
import { hasUnfinishedRun, streamClientEvents, type RunInput } from "./stream.js";
import { isUsageOnly, parseCommand } from "../state/commands.js";
import { checkedUserText, removeSpoofing } from "../state/text.js";
import { RunMeter, RunMeters } from "./meter.js";
import type { UsageReport } from "../state/usage.js";
import { isPerson, replyTo, type InputRequest, type PersonInput } from "../state/person.js";
import { PersonWaits, questionOf, type PersonWait } from "./person-waits.js";
import { budgetOf, type RunCosts, type RunRequest, type StartedRun } from "./run-request.js";

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
 */
export class RunService {
  private readonly runs = new ActiveRuns();
  private readonly gate = new StartGate();
  /** The owners of the runs running in this process; the history knows the rest. */
  private readonly owners = new RunOwners();
  /** The runs of this process that wait for the person who joined them. */
  private readonly waits = new PersonWaits();
  /** Runs a shutdown stopped while they waited for their person (counted with the cancelled ones). */
  private stoppedWaiting = 0;
  /** Looks now and then for runs whose user was removed (on another instance, or from the terminal). */
  private readonly sweep: NodeJS.Timeout;

  constructor(
    readonly graph: DebattGraph,
    readonly hub: RunHub,
    private readonly history: HistoryStore | undefined,
    private readonly log: (line: string) => void,
    private readonly limits?: RunLimits,
    /** What every run's history rows record besides its states. */
    private readonly facts: RunFacts = { simulated: false },
    /** Counts and prices every run's model calls; absent → not counted. */
    private readonly costs?: RunCosts,
    /** The longest a run may take, in ms of its own time (RUN_DEADLINE_MS); 0: no deadline. */
    private readonly deadlineMs = 0,
  ) {
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

  /**
   * A slot of `quotaKey`'s limits for a model call outside any run (a chat client's chore), counted
   * apart from its runs, as cheaply as a run; throws RunLimitError when spent. Gives it back.
   */
  acquireApart(quotaKey: string, kind: string): () => void {
    return this.limits?.acquire(`${quotaKey} (${kind})`) ?? (() => {});
  }

  /** True once `shutdown` has begun: new runs are refused. */
  get shuttingDown(): boolean {
    return this.runs.shuttingDown;
  }

  /** Starts a new run; throws `shutting_down` while the process drains, `rate_limited` over the limits. */
  start(sent: RunRequest): StartedRun {
    this.assertAccepting();
    // Whatever surface it came from, the user's text is checked as the HTTP routes check it (its
    // length is each surface's own limit) and kept without the characters that could spoof a reader.
    const checked = (field: string, text: string) => checkedUserText(field, text, Number.POSITIVE_INFINITY);
    const request = sent.question === undefined ? { ...sent, message: checked("message", sent.message) } : { ...sent, message: removeSpoofing(sent.message), question: checked("question", sent.question) };
    const command = parseCommand(request.message);
    const joined = command.kind === "debate" && (command.options.withMe === true || request.configurable?.with_me === true);
    if (joined && !request.seatsPerson) {
      throw new DebattError("unknown_option", "--with-me needs a client that can write the person's turns and vote: the page (the chat stream and POST /api/v1/debates/:id/input) or the terminal");
    }
    // A message that only gets an explanation (a command without its topic) asks no model: it uses
    // up none of the user's runs, and is limited apart, as cheaply as a run.
    const quotaKey = request.quotaKey ?? request.owner ?? LOCAL_OWNER;
    const quota = this.limits?.acquire(isUsageOnly(command) ? `${quotaKey} (explanations)` : quotaKey);
    // A run without a thread starts one of the same id, so its run_id, thread_id and debate_id
    // are one id (the `:id` of /api/v1/debates/:id/…).
    const runId = randomUUID();
    const threadId = request.threadId ?? runId;
    this.produce(runId, threadId, { message: request.message, participants: request.participants, history: request.history, continuation: request.continuation }, request.configurable, {
      messageId: runId,
      message: request.message,
      question: request.question,
      owner: request.owner ?? LOCAL_OWNER,
      quota,
    }, joined);
    return { runId, threadId };
  }

  /**
   * Whether `requester` may see or continue a thread: a thread nobody has used is free (it is
   * about to be started); one that exists belongs to the user who started it.
   */
  async mayUseThread(requester: Requester, threadId: string): Promise<boolean> {
    const owner = this.owners.ofThread(threadId) ?? (await this.history?.conversation(threadId))?.userId;
    if (owner !== undefined) return mayAccess(requester, owner ?? LOCAL_OWNER);
    return true;
  }

  /** Whether `requester` may see a run (its events, its result, its audio): it must be theirs. */
  async mayReadRun(requester: Requester, runId: string): Promise<boolean> {
    let owner = this.owners.ofRun(runId);
    if (owner === undefined && this.history) {
      const answer = await this.history.message(runId);
      owner = answer ? ((await this.history.conversation(answer.conversationId))?.userId ?? LOCAL_OWNER) : undefined;
    }
    // Without a record (no history here) a run is the local user's.
    return mayAccess(requester, owner ?? LOCAL_OWNER);
  }

  /**
   * Whether `requester` may answer for the person of the debate `id` names: a run's id (its owner's,
   * see `mayReadRun`) or a thread's (see `mayUseThread`).
   */
  async mayAnswer(requester: Requester, id: string): Promise<boolean> {
    const run = this.owners.ofRun(id) !== undefined || (await this.history?.message(id)) !== undefined;
    return run ? this.mayReadRun(requester, id) : this.mayUseThread(requester, id);
  }

  /**
   * Continues a thread's run that stopped before it finished (the process died, or it was
   * cancelled) from its last saved step; finished steps are not run again and its history rows
   * are completed, not written twice. A debate that stopped while it waited for the person who
   * joined it goes on with their `input` when given (`invalid_input` when it does not fit what the
   * debate waits for), else waits for them again.
   */
  async resume(threadId: string, quotaKey?: string, input?: PersonInput): Promise<StartedRun> {
    if (!this.graph.checkpointer) throw new DebattError("no_checkpointer", "this server keeps no checkpoints, so runs cannot be resumed");
    if (this.hub.runningThread(threadId)) {
      throw new DebattError("run_in_progress", `thread "${threadId}" has a run going on; follow it with GET /api/v1/debates/<run_id>/events`);
    }
    const { state, reply } = await this.stopped(threadId, input);
    this.assertAccepting();
    const values = state.values as State;
    // A debate with a person's seat (planned, or about to be) may stop to wait for them again.
    const seated = values.options?.withMe === true || values.debate_participants?.some(isPerson) === true;
    const runId = randomUUID();
    const owner = (await this.history?.conversation(threadId))?.userId ?? LOCAL_OWNER;
    const quota = this.limits?.acquire(quotaKey ?? owner);
    const messageId = runIdOf(values) ?? runId;
    // The attempts before used part of the budget: the resumed run counts on from there.
    const spent = (await this.history?.message(messageId))?.usage ?? undefined;
    this.produce(runId, threadId, { message: values.message, resume: true, reply }, undefined, { messageId, message: values.message, owner, quota, spent }, seated);
    return { runId, threadId };
  }

  /**
   * Gives the person who joined a debate (`--with-me`) their turn or vote (`invalid_input` when it
   * does not fit what the debate waits for). A run of this process that waits for them goes on at
   * once (`accepted`, same run). A debate that stopped while it waited (the server restarted, or
   * its reader left) goes on from its checkpoint as a new run of its thread (`resumed`): `id` is
   * then its first run's id or its thread's. `not_awaiting_input` when it waits for nobody.
   */
  async input(id: string, input: PersonInput, quotaKey?: string): Promise<StartedRun & { status: "accepted" | "resumed" }> {
    const { threadId, here } = await this.located(id);
    if (here) {
      here.answer(replyTo(here.request, input, Date.now() - here.since));
      return { runId: here.runId, threadId: here.threadId, status: "accepted" };
    }
    if (this.hub.runsHere(id)) throw new DebattError("not_awaiting_input", `run "${id}" does not wait for your input now`);
    const nobody = () => new DebattError("not_awaiting_input", `debate "${id}" does not wait for anyone's input: it has finished, or it never ran here`);
    if (this.hub.runningThread(threadId)) throw nobody();
    // Checked before anything is stopped: the debate waits for the person, and the input fits.
    try {
      await this.stopped(threadId, input);
    } catch (err) {
      throw DebattError.isInstance(err) && err.code === "nothing_to_resume" ? nobody() : err;
    }
    // Another instance may still hold the run, waiting: it lets go, and the debate goes on here.
    // One whose instance is gone has its log ended, so that its readers move on too.
    if ((await this.hub.has(id)) && !(await this.hub.finished(id)) && !(await this.hub.stop(id, new StopRequestedError()))) {
      await this.hub.endOrphan(id, [{ event: "done", data: { timestamp: new Date().toISOString() } }]);
    }
    return { ...(await this.resume(threadId, quotaKey, input)), status: "resumed" };
  }

  /**
   * What the debate `id` names (a run's id, its thread's, or its first run's) waits for from the
   * person who joined it: the question of a run waiting in this process (with its deadline, `live`),
   * or of one that stopped while it waited (from its checkpoint; the answer resumes it). Undefined
   * when it waits for nobody (or runs on another instance).
   */
  async awaiting(id: string): Promise<{ runId: string; threadId: string; live: boolean; request: InputRequest & { deadline?: number } } | undefined> {
    const { threadId, here } = await this.located(id);
    if (here) return { runId: here.runId, threadId, live: true, request: here.request };
    if (!this.graph.checkpointer || this.hub.runningThread(threadId) || (await this.hub.has(id) && !(await this.hub.finished(id)))) return undefined;
    const request = questionOf(await this.graph.getState({ configurable: { thread_id: threadId } }));
    return request && { runId: id, threadId, live: false, request };
  }

  /**
   * The thread of the debate `id` names (the id of a run, of its thread, or of the thread's first
   * run: a debate resumed after a restart goes on in a new run), and its run of this process that
   * waits for the person, if one does.
   */
  private async located(id: string): Promise<{ threadId: string; here?: PersonWait }> {
    const threadId = this.waits.get(id)?.threadId ?? (await this.history?.message(id))?.conversationId ?? id;
    return { threadId, here: this.waits.get(id) ?? this.waits.ofThread(threadId) };
  }

  /**
   * A thread's unfinished run, from its checkpoint, and the person's reply when `input` is given:
   * checked against what the debate waits for (`not_awaiting_input` when it waits for nobody,
   * `invalid_input` when it does not fit). `nothing_to_resume` when the thread has nothing left to run.
   */
  private async stopped(threadId: string, input?: PersonInput) {
    const state = await this.graph.getState({ configurable: { thread_id: threadId } });
    if (!hasUnfinishedRun(state)) {
      throw new DebattError("nothing_to_resume", `thread "${threadId}" has no unfinished run${state.createdAt ? "" : " (it never ran here, or no step of it was saved)"}`);
    }
    if (!input) return { state, reply: undefined };
    const request = questionOf(state);
    if (!request) throw new DebattError("not_awaiting_input", `the debate of thread "${threadId}" does not wait for anyone's input`);
    return { state, reply: replyTo(request, input, 0) };
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
        if (event.event === "error" && event.data.code === "run_interrupted") await this.endAnswer(runId, "error", String(event.data.message));
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
  async interrupted(runId: string): Promise<RunEvent[] | undefined> {
    if (this.hub.isShared || this.hub.runsHere(runId)) return undefined;
    const events = runInterrupted();
    if (!(await this.endAnswer(runId, "error", String(events[0].data.message)))) return undefined;
    return events.map((e) => ({ id: 0, ...e }));
  }

  /**
   * Ends the answer of a run that is no longer running anywhere (its server died, or it was
   * stopped after that), if it is still streaming and no run of its thread goes on here; returns
   * whether it did.
   */
  private async endAnswer(runId: string, status: "error" | "cancelled", message: string): Promise<boolean> {
    const answer = await this.history?.message(runId);
    // A resumed run of its thread writes the same answer (it keeps its first run's id): it is not ended under it.
    if (answer?.status !== "streaming" || this.hub.runningThread(answer.conversationId)) return false;
    await this.history!.finishRun({ conversationId: answer.conversationId, messageId: runId }, { content: answer.content, status, error: message, title: null, at: new Date() });
    return true;
  }

  /**
   * Stops a run at its user's request, on whichever instance runs it: every model call in flight
   * is aborted, its answer is kept as `cancelled`, and its stream ends with `error` (cancelled)
   * and `done`. Resolves `stopping` when the instance running it has the request, `cancelled`
   * when no instance runs it any more (the one that did is gone): its log and its history are
   * then ended here. Throws `run_finished` when it has already ended.
   */
  async stop(runId: string): Promise<"stopping" | "cancelled"> {
    const finished = () => new DebattError("run_finished", `run "${runId}" has already ended`);
    if (await this.hub.finished(runId)) throw finished();
    if (await this.hub.stop(runId, new StopRequestedError())) return "stopping";
    const why = new DebattError("cancelled", "the run was stopped at its user's request after the server running it had stopped; what was said so far is kept");
    const timestamp = new Date().toISOString();
    if (!(await this.hub.endOrphan(runId, [{ event: "error", data: { message: why.message, code: why.code, timestamp } }, { event: "done", data: { timestamp } }]))) throw finished();
    // The answer of a run started here is the run's message (a resumed run's keeps its first id, and stays as it is).
    await this.endAnswer(runId, "cancelled", why.message);
    return "cancelled";
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
    const draining = this.runs.drain(graceMs);
    for (const wait of this.waits.all()) this.stopWaiting(wait.runId);
    return (await draining) + this.stoppedWaiting;
  }

  /**
   * Stops a run that waits for its person while the process shuts down: it is saved where it waits,
   * and their answer resumes it on any instance, so it is not held for the grace period.
   */
  private stopWaiting(runId: string): void {
    this.stoppedWaiting++;
    this.hub.stopHere(runId, new ShutdownError("the server is shutting down while the debate waits for you; it is saved, and your answer (POST /api/v1/debates/<id>/input) resumes it"));
  }

  private assertAccepting(): void {
    if (this.runs.shuttingDown) throw new DebattError("shutting_down", "the server is shutting down; retry on another instance");
  }

  /** Produces one run into the hub, recording it, until `done`. */
  private produce(
    runId: string,
    threadId: string,
    input: RunInput,
    configurable: RunConfig | undefined,
    filing: { messageId: string; message: string; question?: string; owner: string; quota?: () => void; spent?: UsageReport },
    /** Whether it is a debate with a person's seat, which may stop to wait for them. */
    seated = false,
  ): void {
    const controller = new AbortController();
    // A history write that fails (a full disk) stops the run: nothing more is paid for that could not be kept.
    // A message that only gets an explanation (a command without its topic) is not filed; a resumed run always is.
    const recorded = this.history && (input.resume || !isUsageOnly(parseCommand(filing.message)));
    const recorder = recorded ? RunRecorder.start(this.history!, { conversationId: threadId, ...filing }, this.log, (err) => controller.abort(err), this.facts) : undefined;
    this.owners.add(runId, threadId, filing.owner);
    const release = this.runs.add(controller);
    const finish = this.hub.start(runId, threadId, controller);
    // Every model call is counted; once the budget is spent the run stops, keeping what was done.
    const budget = budgetOf(configurable?.max_cost_usd, this.costs?.maxCostUsd);
    const meter = this.costs && new RunMeter(this.costs.prices, this.costs.internalModel, budget, filing.spent);
    if (meter) this.costs!.meters.open(runId, meter);
    // A run that takes too long (a provider that never answers, turn after turn) ends with what it has.
    const deadline = new RunDeadline(this.deadlineMs, () => controller.abort(new RunDeadlineError(this.deadlineMs)));
    const out = new RunPublisher(runId, this.hub, controller, this.facts.simulated, recorder, meter, budget);
    // Acknowledge at once, before the graph starts (as the LangGraph API server does): the client
    // learns the thread and run ids, and sees the stream is live even when the server is busy.
    out.publish({ event: "metadata", data: { thread_id: threadId, run_id: runId, timestamp: new Date().toISOString() } });
    const produced = (async () => {
      try {
        await this.gate.turn();
        const onState = recorder && recorder.observe.bind(recorder);
        const onFinished = () => void (out.finished = true);
        let wait: PersonWait | undefined;
        const options = { signal: controller.signal, threadId, configurable: { ...configurable, run_id: runId }, onState, onFinished, log: this.log, ...(seated ? { waiting: () => wait !== undefined } : {}) };
        // A debate joined by a person (`--with-me`) stops at each of their turns and at their vote,
        // and is streamed on with their reply: one run, one stream of events, until `done`.
        for (let segment = input; ; ) {
          for await (const event of streamClientEvents(this.graph, segment, options)) {
            if (event.event === "debate-awaiting-input") {
              wait = this.waits.begin(runId, threadId, event.data, controller.signal);
              if (this.runs.shuttingDown) queueMicrotask(() => this.stopWaiting(runId));
            }
            const ending = out.handle(event);
            if (ending) await ending;
          }
          // Ended (stopped while the others of the person's step were still at work): nothing more to wait for.
          if (out.ended) wait?.cancel();
          if (out.ended || !wait) break;
          // The time it waits for its person is theirs, not the run's.
          deadline.pause();
          const reply = await wait.reply;
          deadline.resume();
          wait = undefined;
          // Stopped while it waited (the user, a shutdown, no reader came back): it ends as any stopped run.
          if (!reply) {
            await out.end();
            break;
          }
          segment = { message: input.message, reply };
        }
      } finally {
        deadline.stop();
        this.waits.get(runId)?.cancel();
        // The history (written before `done`) answers for the run from now on.
        this.owners.remove(runId);
        this.costs?.meters.close(runId);
        finish();
        release();
        filing.quota?.();
        if (controller.signal.aborted && !(controller.signal.reason instanceof ShutdownError)) {
          this.log(`run ${runId} cancelled: ${(controller.signal.reason as Error)?.message}`);
        }
      }
    })();
    produced.catch((err) => this.log(`run ${runId} failed: ${(err as Error).message}`));
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
  const limits = new RunLimits(deps.settings.runsPerMinute, deps.settings.maxConcurrentRuns);
  // A save that fails (a full disk) stops its run at once, rather than when the graph ends.
  if (options.checkpointer instanceof WriteBehindSaver) options.checkpointer.onFailure((threadId, err) => hub.abortThread(threadId, err));
  // Another instance was asked to stop a run that this one runs.
  deps.events?.onStopRequest?.((runId) => hub.stopHere(runId, new StopRequestedError()));
  // Another instance took this one for dead and ended a run's log: the run stops here too.
  deps.events?.onEndedElsewhere?.((runId) => hub.stopHere(runId, new RunInterruptedError()));
  const costs = { meters, prices: deps.settings.prices, internalModel: deps.settings.oneseekModel, maxCostUsd: deps.settings.maxCostUsd };
  return new RunService(graph, hub, options.history, deps.log ?? stderrLog, limits, { simulated: deps.models.simulated }, costs, deps.settings.runDeadlineMs);
}
