import { createRequire } from "node:module";
import type { Job, Queue, Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { JobAttempt, JobOutcome, RunJob, RunQueue } from "../ports/run-queue.js";
import { DebattError } from "../state/errors.js";
import { newRedis } from "./redis-prompt-store.js";

const require = createRequire(import.meta.url);

/** The queue's name, and the prefix of its keys in Redis. */
const QUEUE = "runs";
const PREFIX = "debatt:queue";
/** Set when a worker takes a run's job: the job was added, though it may have ended already. */
const takenKey = (runId: string) => `${PREFIX}:taken:${runId}`;
const TAKEN_KEEP_MS = 24 * 60 * 60 * 1000;

/** Options of the BullMQ run queue. */
export interface BullRunQueueOptions {
  /**
   * How long a worker's hold on a job lasts without renewal (renewed at half of it): a worker
   * that dies has its jobs taken up by another within about twice this.
   */
  lockMs: number;
  /** Most jobs one instance runs at once (0: none, it only adds them). */
  concurrency: number;
  log: (line: string) => void;
}

/**
 * The run queue on Redis, with BullMQ: a job per thread (its job id is the thread id, so a second
 * run of a thread is refused wherever it is asked for), taken by any instance's worker, which
 * holds its lock while the run goes on. A worker that dies (`kill -9`, out of memory, a lost host)
 * stops renewing its lock, and BullMQ's stalled-job check on a live worker puts the job back for
 * another to take up; a worker shutting down puts its jobs back itself. Finished jobs are removed,
 * so the thread is free for its next run.
 */
export class BullRunQueue implements RunQueue {
  readonly shared = true;
  private readonly connection: Redis;
  private readonly queue: Queue<RunJob>;
  private worker?: Worker<RunJob, void>;
  private readonly lost = new Set<(threadId: string) => void>();
  private watchdog?: NodeJS.Timeout;

  constructor(
    private readonly url: string,
    private readonly options: BullRunQueueOptions,
  ) {
    const { Queue } = require("bullmq") as typeof import("bullmq");
    // BullMQ's own blocking commands wait for Redis rather than fail at once while it is away.
    this.connection = newRedis(url, { maxRetriesPerRequest: null, retryStrategy: (attempt) => Math.min(100 * attempt, 2_000) });
    this.connection.on("error", () => {});
    this.queue = new Queue<RunJob>(QUEUE, { connection: this.connection, prefix: PREFIX });
    this.queue.on("error", () => {});
  }

  add(job: RunJob): Promise<boolean> {
    return withinReach(async () => {
      // Added only if the thread has no job: BullMQ leaves a job whose id exists as it is.
      await this.queue.add("run", job, { jobId: job.threadId, removeOnComplete: true, removeOnFail: true });
      const stored = await this.queue.getJob(job.threadId);
      if (stored) return stored.data.runId === job.runId;
      // No job of the thread now: ours, taken and ended already, or the one before it, which ended just after ours was refused.
      return (await this.connection.exists(takenKey(job.runId))) === 1;
    });
  }

  runOf(threadId: string): Promise<string | undefined> {
    return withinReach(async () => (await this.queue.getJob(threadId))?.data.runId);
  }

  waiting(job: Pick<RunJob, "threadId" | "runId">): Promise<boolean> {
    return withinReach(async () => {
      const stored = await this.queue.getJob(job.threadId);
      return stored?.data.runId === job.runId && (await stored.isWaiting());
    });
  }

  process(work: (job: RunJob, attempt: JobAttempt) => Promise<JobOutcome>): void {
    // An instance without workers serves the API and the streams; the others run.
    if (this.options.concurrency === 0) return;
    const { Worker, WaitingError } = require("bullmq") as typeof import("bullmq");
    /** When each job held here last had its lock renewed (or was taken). */
    const held = new Map<string, number>();
    const run = async (job: Job<RunJob>, token?: string) => {
      held.set(job.id!, Date.now());
      try {
        await this.connection.set(takenKey(job.data.runId), "1", "PX", TAKEN_KEEP_MS);
        const outcome = await work(job.data, { takenUp: Math.max(0, job.attemptsStarted - 1), died: job.stalledCounter });
        if (outcome === "handed_back") {
          // Back in the queue for another worker (which goes on from the thread's last checkpoint),
          // through the queue's connection: the worker's own is closing when a shutdown hands runs back.
          // (A job whose lock was lost is another worker's already: nothing to put back.)
          await (await this.queue.getJob(job.id!))?.moveToWait(token).catch(() => {});
          throw new WaitingError();
        }
      } finally {
        held.delete(job.id!);
      }
    };
    const connection = newRedis(this.url, { maxRetriesPerRequest: null, retryStrategy: (attempt) => Math.min(100 * attempt, 2_000) });
    connection.on("error", () => {});
    const lockMs = this.options.lockMs;
    this.worker = new Worker<RunJob, void>(QUEUE, run, {
      connection,
      prefix: PREFIX,
      concurrency: this.options.concurrency,
      lockDuration: lockMs,
      stalledInterval: Math.max(500, Math.floor(lockMs / 2)),
      // A run whose workers keep dying is given up by the service (see `JobAttempt.died`), not here.
      maxStalledCount: Number.MAX_SAFE_INTEGER,
    });
    this.worker.on("error", (err) => this.options.log(`run queue: ${err.message}`));
    const lose = (threadId: string) => {
      held.delete(threadId);
      for (const listener of this.lost) listener(threadId);
    };
    this.worker.on("lockRenewalFailed", (threadIds) => threadIds.forEach(lose));
    this.worker.on("locksRenewed", ({ jobIds }) => {
      for (const id of jobIds) if (held.has(id)) held.set(id, Date.now());
    });
    // Cut off from Redis, a renewal fails without a word (BullMQ only reports an error): a hold not
    // renewed for a whole lock may be another worker's already, so the run stops here.
    this.watchdog = setInterval(
      () => {
        for (const [threadId, at] of held) if (Date.now() - at > lockMs) lose(threadId);
      },
      Math.max(100, Math.floor(lockMs / 4)),
    );
    this.watchdog.unref();
  }

  onLost(listener: (threadId: string) => void): void {
    this.lost.add(listener);
  }

  /** Stops taking jobs, waits for those running here to end or be handed back, and lets go of Redis. */
  async close(): Promise<void> {
    await this.worker?.close();
    clearInterval(this.watchdog);
    await this.queue.close();
    this.connection.disconnect();
  }
}

/** How long a request waits for the queue (its connection waits for Redis rather than fail at once). */
const REACH_MS = 3_000;

/** `ask`'s answer, or 503 `event_log_unavailable` when Redis does not answer in time. */
async function withinReach<T>(ask: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DebattError("event_log_unavailable", "the run queue (Redis) cannot be reached; retry in a moment")), REACH_MS);
  });
  try {
    return await Promise.race([ask(), late]);
  } finally {
    clearTimeout(timer);
  }
}
