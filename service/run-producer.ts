import type { DebattGraph } from "../graph/build.js";
import { RunRecorder } from "../history/recorder.js";
import type { RunFacts } from "../history/rows.js";
import type { HistoryStore } from "../history/store.js";
import { isUsageOnly, parseCommand } from "../state/commands.js";
import type { RunConfig } from "../state/run-config.js";
import type { UsageReport } from "../state/usage.js";
import { ShutdownError, type ActiveRuns } from "./active-runs.js";
import { RunMeter } from "./meter.js";
import type { PersonWait, PersonWaits } from "./person-waits.js";
import { RunDeadline, RunDeadlineError } from "./run-deadline.js";
import type { RunHub } from "./run-hub.js";
import type { RunOwners } from "./run-owners.js";
import { RunPublisher } from "./run-publisher.js";
import { budgetOf, type RunCosts } from "./run-request.js";
import { StartGate } from "./start-gate.js";
import { runClientEvents, type RunInput } from "./stream.js";

/** How a run is filed in the history, and what it holds until it ends. */
export interface RunFiling {
  /** The history's answer it writes (a resumed run keeps its first run's). */
  messageId: string;
  message: string;
  question?: string;
  owner: string;
  /** Gives back its slot of the limits. */
  quota?: () => void;
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

  /** Produces one run into the hub, recording it, until `done`; returns at once. */
  produce(
    runId: string,
    threadId: string,
    input: RunInput,
    configurable: RunConfig | undefined,
    filing: RunFiling,
    /** Whether it is a debate with a person's seat, which may stop to wait for them. */
    seated = false,
  ): void {
    const { graph, hub, history, log, facts, costs, deadlineMs, runs, owners, waits } = this.deps;
    const controller = new AbortController();
    // A history write that fails (a full disk) stops the run: nothing more is paid for that could not be kept.
    // A message that only gets an explanation (a command without its topic) is not filed; a resumed run always is.
    const recorded = history && (input.resume || !isUsageOnly(parseCommand(filing.message)));
    const recorder = recorded
      ? RunRecorder.start(history, { conversationId: threadId, runId, ...filing }, log, (err) => controller.abort(err), facts)
      : undefined;
    owners.add(runId, threadId, filing.owner);
    const release = runs.add(controller);
    const finish = hub.start(runId, threadId, controller);
    // Every model call is counted; once the budget is spent the run stops, keeping what was done.
    const budget = budgetOf(configurable?.max_cost_usd, costs?.maxCostUsd);
    // Each call's usage reaches the history as it is counted, so a run cut short keeps what it spent.
    const meter = costs && new RunMeter(costs.prices, costs.internalModel, budget, filing.spent, recorder && ((report) => recorder.usage(report)));
    if (meter) costs.meters.open(runId, meter);
    // A run that takes too long (a provider that never answers, turn after turn) ends with what it has.
    const deadline = new RunDeadline(deadlineMs, () => controller.abort(new RunDeadlineError(deadlineMs)));
    const out = new RunPublisher(runId, hub, controller, facts.simulated, recorder, meter, budget);
    // Acknowledge at once, before the graph starts (as the LangGraph API server does): the client
    // learns the thread and run ids, and sees the stream is live even when the server is busy.
    out.publish({ event: "metadata", data: { thread_id: threadId, run_id: runId, timestamp: new Date().toISOString() } });
    const produced = (async () => {
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
        for (let segment = input; ;) {
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
        waits.get(runId)?.cancel();
        // The history (written before `done`) answers for the run from now on.
        owners.remove(runId);
        costs?.meters.close(runId);
        finish();
        release();
        filing.quota?.();
        await this.forgetIfDeleted(runId, threadId);
        if (controller.signal.aborted && !(controller.signal.reason instanceof ShutdownError)) {
          log(`run ${runId} cancelled: ${(controller.signal.reason as Error)?.message}`);
        }
      }
    })();
    produced.catch((err) => log(`run ${runId} failed: ${(err as Error).message}`));
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
