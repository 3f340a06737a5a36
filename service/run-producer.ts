import { mapStoredMessagesToChatMessages } from "@langchain/core/messages";
import type { StateSnapshot } from "@langchain/langgraph";
import type { DebattGraph } from "../graph/build.js";
import { RunRecorder } from "../history/recorder.js";
import { runIdOf, type RunFacts } from "../history/rows.js";
import type { HistoryStore } from "../history/store.js";
import { isUsageOnly, parseCommand } from "../state/commands.js";
import type { JobAttempt, JobOutcome, RunJob } from "../ports/run-queue.js";
import type { State } from "../state/graph-state.js";
import type { UsageReport } from "../state/usage.js";
import { HandedBackError, RunGivenUpError, ShutdownError, StopRequestedError, type ActiveRuns } from "./active-runs.js";
import { RunMeter } from "./meter.js";
import { questionOf, type PersonWait, type PersonWaits } from "./person-waits.js";
import { RunDeadline, RunDeadlineError } from "./run-deadline.js";
import type { RunHub } from "./run-hub.js";
import type { RunOwners } from "./run-owners.js";
import { RunPublisher } from "./run-publisher.js";
import { budgetOf, type RunCosts } from "./run-request.js";
import { StartGate } from "./start-gate.js";
import { hasUnfinishedRun, runClientEvents, type RunInput } from "./stream.js";

/**
 * What a run taken up again is given, its thread's checkpoint having saved a step of it: `finished`
 * when its graph had run to its end; the person's reply it was resumed with when the debate still
 * waits for what that reply answers (its worker died before the reply was saved); else the
 * thread's unfinished run from its last saved step.
 */
export function takeUpInput(job: RunJob, state: StateSnapshot): RunInput | "finished" {
  if (!hasUnfinishedRun(state)) return "finished";
  const { message, reply, answers } = job.input;
  const asked = questionOf(state);
  if (reply && answers && asked?.kind === answers.kind && asked.round === answers.round) return { message, reply };
  return { message, resume: true };
}

/** A run whose workers died this many times (taken up again each time) is given up: it may be what kills them. */
export const MAX_DEATHS = 3;

/** How a run is filed in the history, and what it holds until it ends. */
export interface RunFiling {
  /** The history's answer it writes (a resumed run keeps its first run's). */
  messageId: string;
  message: string;
  question?: string;
  owner: string;
  /** What its earlier attempts used of the budget. */
  spent?: UsageReport;
}

/** What a producer works with: the service's graph, hub and history, and its registries of this process's runs. */
export interface RunProducerDeps {
  graph: DebattGraph;
  hub: RunHub;
  history: HistoryStore | undefined;
  log: (line: string) => void;
  /** What every run's history rows record besides its states. */
  facts: RunFacts;
  /** Counts and prices every run's model calls; absent → not counted. */
  costs: RunCosts | undefined;
  /** The longest a run may take, in ms of its own time; 0: no deadline. */
  deadlineMs: number;
  runs: ActiveRuns;
  owners: RunOwners;
  waits: PersonWaits;
  /** Stops a run that waits for its person while the process shuts down. */
  stopWaiting: (runId: string) => void;
  /** Gives back the slot of the limits a run held (taken when it was asked for, on any instance). */
  releaseSlot: (job: RunJob) => void;
}

/**
 * Produces runs into the hub: each run's events are streamed from the graph, numbered, recorded,
 * metered and held to its deadline until `done`; a debate joined by a person waits for them
 * between its segments.
 */
export class RunProducer {
  /** Lets runs start one per event-loop turn. */
  private readonly gate = new StartGate();

  constructor(private readonly deps: RunProducerDeps) {}

  /**
   * Produces a run a worker took from the queue into the hub, recording it, until `done`; or, when
   * it is taken up again (the worker that had it died or handed it back), from its thread's last
   * checkpoint, its events numbered on after those its log has. Resolves when it has ended, or
   * `handed_back` when this process let go of it (shutting down, or another instance took it up).
   */
  async produce(job: RunJob, attempt: JobAttempt): Promise<JobOutcome> {
    const { graph, hub, history, log, facts, costs, deadlineMs, runs, owners, waits } = this.deps;
    const { runId, threadId, configurable, filing, seated } = job;
    const controller = new AbortController();
    const adopted = await hub.adopt(runId, threadId, controller);
    // Its log is gone (its conversation was deleted) or has ended (stopped while it waited): nothing to run.
    if (!adopted) {
      this.deps.releaseSlot(job);
      return "ended";
    }
    const again = attempt.takenUp > 0 || adopted.lastId > 1;
    if (again) log(`run ${runId} taken up again after its event ${adopted.lastId} (its workers died ${attempt.died} times)`);
    let input: RunInput | "finished";
    let spent: UsageReport | undefined;
    try {
      input = await this.inputOf(job, again);
      // Taken up again, it counts on from what its earlier attempts wrote.
      spent = again ? ((await history?.message(filing.messageId))?.usage ?? filing.spent) : filing.spent;
    } catch (err) {
      // Where the run stands cannot be read (the database is away): it ends, saying so, and can be resumed.
      log(`run ${runId} could not be taken up: ${(err as Error).message}`);
      const timestamp = new Date().toISOString();
      const message = `the server taking this run up could not read where it stood (${(err as Error).message}); POST /api/v1/debates/<thread_id>/resume continues it from its last saved step`;
      hub.append(runId, { id: adopted.lastId + 1, event: "error", data: { code: "run_interrupted", message, timestamp } });
      hub.append(runId, { id: adopted.lastId + 2, event: "done", data: { timestamp } });
      adopted.finish();
      this.deps.releaseSlot(job);
      return "ended";
    }
    // A history write that fails (a full disk) stops the run: nothing more is paid for that could not be kept.
    // A message that only gets an explanation (a command without its topic) is not filed; a resumed run always is.
    const recorded = history && (again || job.input.resume || !isUsageOnly(parseCommand(filing.message)));
    const recorder = recorded
      ? RunRecorder.start(history, { conversationId: threadId, runId, ...filing }, log, (err) => controller.abort(err), facts)
      : undefined;
    owners.add(runId, threadId, filing.owner);
    const release = runs.add(controller);
    const finish = adopted.finish;
    // Every model call is counted; once the budget is spent the run stops, keeping what was done.
    const budget = budgetOf(configurable?.max_cost_usd, costs?.maxCostUsd);
    // Each call's usage reaches the history as it is counted, so a run cut short keeps what it spent.
    const meter = costs && new RunMeter(costs.prices, costs.internalModel, budget, spent, recorder && ((report) => recorder.usage(report)));
    if (meter) costs.meters.open(runId, meter);
    // A run that takes too long (a provider that never answers, turn after turn) ends with what it has.
    const deadline = new RunDeadline(deadlineMs, () => controller.abort(new RunDeadlineError(deadlineMs)));
    const out = new RunPublisher(runId, hub, controller, facts.simulated, recorder, meter, budget, adopted.lastId);
    // Stopped while no worker held it, or its workers keep dying: it ends without running again.
    if (await hub.stopRequested(runId)) controller.abort(new StopRequestedError());
    else if (attempt.died >= MAX_DEATHS) controller.abort(new RunGivenUpError(attempt.died));
    // Its readers learn that the steps under way run again: their answers' text begins anew.
    else if (again && input !== "finished")
      out.publish({ event: "run-resumed", data: { attempt: Math.max(2, attempt.takenUp + 1), timestamp: new Date().toISOString() } });
    const produced = (async () => {
      if (input === "finished") {
        recorder?.observe((await graph.getState({ configurable: { thread_id: threadId } })).values as Record<string, unknown>, []);
        out.finished = true;
      }
      if (input === "finished" || controller.signal.aborted) return out.end();
      try {
        await this.gate.turn();
        const onState = recorder && recorder.observe.bind(recorder);
        const onFinished = () => void (out.finished = true);
        let wait: PersonWait | undefined;
        const options = {
          signal: controller.signal,
          threadId,
          configurable: { ...configurable, run_id: runId },
          onState,
          onFinished,
          log,
          ...(seated ? { waiting: () => wait !== undefined } : {}),
        };
        // A debate joined by a person (`--with-me`) stops at each of their turns and at their vote,
        // and is streamed on with their reply: one run, one stream of events, until `done`.
        for (let segment: RunInput = input; ;) {
          await runClientEvents(graph, segment, options, (event) => {
            if (event.event === "debate-awaiting-input") {
              wait = waits.begin(runId, threadId, event.data, controller.signal);
              if (runs.shuttingDown) queueMicrotask(() => this.deps.stopWaiting(runId));
            }
            return out.handle(event);
          });
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
      }
    })();
    try {
      await produced;
    } catch (err) {
      log(`run ${runId} failed: ${(err as Error).message}`);
    } finally {
      waits.get(runId)?.cancel();
      // The history (written before `done`) answers for the run from now on.
      owners.remove(runId);
      costs?.meters.close(runId);
      finish();
      release();
      if (!out.handedBack) this.deps.releaseSlot(job);
      await this.forgetIfDeleted(runId, threadId);
      const reason = controller.signal.reason as Error | undefined;
      if (controller.signal.aborted && !(reason instanceof ShutdownError) && !(reason instanceof HandedBackError))
        log(`run ${runId} cancelled: ${reason?.message}`);
    }
    return out.handedBack ? "handed_back" : "ended";
  }

  /**
   * What the graph is given: the job's input the first time; taken up again, the thread's
   * unfinished run from its checkpoint when this run had saved a step, or `finished` when its
   * graph had run to its end (only its `done` was missing).
   */
  private async inputOf(job: RunJob, again: boolean): Promise<RunInput | "finished"> {
    const { history, ...fresh } = job.input;
    const first: RunInput = { ...fresh, ...(history ? { history: mapStoredMessagesToChatMessages(history) } : {}) };
    const { graph } = this.deps;
    if (!again || !graph.checkpointer) return first;
    const state = await graph.getState({ configurable: { thread_id: job.threadId } });
    if (!state.values || runIdOf(state.values as State) !== job.filing.messageId) return first;
    return takeUpInput(job, state);
  }

  /**
   * A run whose conversation was deleted while it went on (on this instance or another): what it
   * saved after the deletion goes too, its checkpoints and its events, so that nothing of it is kept.
   */
  private async forgetIfDeleted(runId: string, threadId: string): Promise<void> {
    const { history, graph, hub } = this.deps;
    if (!history || !(await history.isDeleted(threadId).catch(() => false))) return;
    if (typeof graph.checkpointer === "object") await graph.checkpointer.deleteThread(threadId);
    await hub.forget(runId);
  }
}
