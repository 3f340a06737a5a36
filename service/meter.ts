import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { AIMessage } from "@langchain/core/messages";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../ports/emit.js";
import type { ModelFactory, ModelRequest } from "../ports/models.js";
import { BudgetExceededError } from "../state/errors.js";
import { addToReport, emptyReport, NO_USAGE, usageOfAnswer, type PriceTable, type UsageReport } from "../state/usage.js";

/** Who a call is counted for: the participant, or for the internal model's tasks, the task. */
function whoOf(request: ModelRequest): string {
  return request.participant?.display ?? request.phase;
}

/** The stage a call is counted in: its phase, and its round where it has one (`turn.2`). */
function stageOf(request: ModelRequest): string {
  return request.round === undefined ? request.phase : `${request.phase}.${request.round}`;
}

/** A call started and not yet counted. */
interface Flight {
  request: ModelRequest;
}

/** A call in flight, as the report counts it until it is counted: one call, of unknown cost. */
const IN_FLIGHT = { ...NO_USAGE, calls: 1, unpriced_calls: 1 };

/**
 * Counts one run's model calls: the tokens and cost of each (the provider's usage; the price
 * table where the provider gives no cost), by participant and stage. With a budget, no call
 * starts once it is spent (see `admit`). Calls already in flight may take the total past the
 * budget; the one that spends it is kept whole.
 */
export class RunMeter {
  private used: UsageReport;
  private told = false;
  /** Calls started and not yet counted, and who waits for there to be none. */
  private readonly flying = new Set<Flight>();
  private idle: (() => void)[] = [];

  /**
   * `spent`: what the run's earlier attempts used (a resumed run goes on counting from it);
   * `counted` hears the report as each call starts and as it is counted (the history writes it as
   * it goes), and a call is sent once what it returns has resolved: a call is never paid for
   * before it is on record.
   */
  constructor(
    private readonly prices: PriceTable,
    private readonly internalModel: string,
    private readonly budgetUsd: number | undefined,
    spent: UsageReport = emptyReport(),
    private readonly counted: (report: UsageReport) => Promise<void> | void = () => {},
  ) {
    this.used = spent;
  }

  /**
   * What the run has used so far: the calls counted, and each call still in flight as a call of
   * unknown cost (its tokens are not known until it answers, and a provider may bill it anyway).
   */
  get report(): UsageReport {
    let report = this.used;
    for (const f of this.flying) report = addToReport(report, whoOf(f.request), stageOf(f.request), IN_FLIGHT);
    return report;
  }

  /**
   * Before a call: once the budget is spent, no call starts. The first that would tells the run
   * (an `error` event, `budget_exceeded`, through the node's stream) and every such call waits for
   * the run to stop: the run service stops it when that event reaches it, so that everything the
   * run said before it has reached its clients and the history first.
   */
  async admit(config: LangGraphRunnableConfig | undefined): Promise<void> {
    if (this.budgetUsd === undefined || this.used.total.cost_usd < this.budgetUsd) return;
    const err = new BudgetExceededError(this.budgetUsd, this.used.total.cost_usd);
    const signal = config?.signal;
    if (!config?.writer || !signal) throw err;
    if (!this.told) emit(config, "error", { code: err.code, message: err.message });
    this.told = true;
    await new Promise<never>((_resolve, reject) => {
      if (signal.aborted) reject(signal.reason);
      else signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
  }

  /** A call starts (after `admit`): on record before it is sent; `record` counts it when it has ended. */
  async started(request: ModelRequest): Promise<Flight> {
    const flight = { request };
    this.flying.add(flight);
    await this.counted(this.report);
    return flight;
  }

  /**
   * Resolves once every call started has been counted, or after `maxMs` (a provider that ignores
   * its stop): a stopped run's calls reject a moment after the run's stream ends, and the run's
   * usage counts them.
   */
  settled(maxMs: number): Promise<void> {
    if (this.flying.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, maxMs);
      this.idle.push(() => (clearTimeout(timer), resolve()));
    });
  }

  /** A call started and then not sent (its run stopped meanwhile): it is taken off the record. */
  unsent(flight: Flight): void {
    this.landed(flight);
    void this.counted(this.report);
  }

  /** The call is no longer in flight: who waits for there to be none hears when none is. */
  private landed(flight: Flight): void {
    if (this.flying.delete(flight) && this.flying.size === 0) for (const wake of this.idle.splice(0)) wake();
  }

  /** After a call: counts what it used; a call that failed before its usage came counts as a call of unknown cost. */
  record(flight: Flight, answer: AIMessage | undefined): void {
    const { request } = flight;
    this.landed(flight);
    // Priced as the model that answered (a fallback's answer says which it was).
    const usage = (answer && usageOfAnswer(request.participant?.model ?? this.internalModel, answer, this.prices)) ?? {
      ...NO_USAGE,
      calls: 1,
      unpriced_calls: 1,
    };
    // A call that spends the budget is kept whole: the run stops when the next call would start.
    this.used = addToReport(this.used, whoOf(request), stageOf(request), usage);
    void this.counted(this.report);
  }
}

/** Anything a node calls `invoke` on: a chat model, or one with tools bound. */
interface Invokable {
  invoke(input: unknown, options?: unknown): Promise<unknown>;
}

/** `model` with every `invoke` (also of its `bindTools` result) admitted and counted by `meter`. */
function metered<T extends object>(model: T, meter: RunMeter, request: ModelRequest, config: LangGraphRunnableConfig): T {
  return new Proxy(model, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop === "invoke") {
        return async (input: unknown, options?: unknown) => {
          await meter.admit(config);
          const flight = await meter.started(request);
          // Stopped while the call was put on record: it is not sent, and not counted.
          const stopped = [(options as { signal?: AbortSignal } | undefined)?.signal, config.signal].find((s) => s?.aborted);
          if (stopped) {
            meter.unsent(flight);
            throw stopped.reason;
          }
          let answer: AIMessage | undefined;
          try {
            answer = (await (target as unknown as Invokable).invoke(input, options)) as AIMessage;
            return answer;
          } finally {
            meter.record(flight, answer);
          }
        };
      }
      if (prop === "bindTools" && typeof value === "function")
        return (...args: unknown[]) => metered(value.apply(target, args) as object, meter, request, config);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * The meters of the runs in progress, by run id. `wrap` gives the graph a model factory whose
 * models count their calls in the meter of the run they are made for (the run id of the node's
 * configuration, which LangChain carries through the call), so no node has to.
 */
export class RunMeters {
  private readonly meters = new Map<string, RunMeter>();

  /** Counts the calls of `runId` in `meter` until `close`. */
  open(runId: string, meter: RunMeter): void {
    this.meters.set(runId, meter);
  }

  close(runId: string): void {
    this.meters.delete(runId);
  }

  wrap(base: ModelFactory): ModelFactory {
    return {
      simulated: base.simulated,
      create: (request: ModelRequest): BaseChatModel => {
        const model = base.create(request);
        // The node's configuration, with its run id, its stream writer and the run's signal.
        const config = AsyncLocalStorageProviderSingleton.getRunnableConfig() as LangGraphRunnableConfig | undefined;
        const runId = config?.configurable?.run_id as string | undefined;
        const meter = runId === undefined ? undefined : this.meters.get(runId);
        return meter && config ? metered(model, meter, request, config) : model;
      },
    };
  }
}
