import type { JobAttempt, JobOutcome, RunJob, RunQueue } from "../ports/run-queue.js";

/**
 * The run queue of one process (no Redis): a job runs at once, in this process, and the thread
 * has no other until it ends. Nothing outlives the process: a run it held when it died is resumed
 * from its checkpoint by whoever asks (POST …/resume).
 */
export class LocalRunQueue implements RunQueue {
  readonly shared = false;
  private readonly jobs = new Map<string, { runId: string; running: Promise<unknown> }>();
  private work?: (job: RunJob, attempt: JobAttempt) => Promise<JobOutcome>;
  private closed = false;

  add(job: RunJob): Promise<boolean> {
    if (this.jobs.has(job.threadId) || this.closed || !this.work) return Promise.resolve(false);
    const work = this.work;
    // Never handed back here (a shutdown of this process cancels its runs): it ends when `work` does.
    const running = work(job, { takenUp: 0, died: 0 })
      .catch(() => {})
      .finally(() => this.jobs.delete(job.threadId));
    this.jobs.set(job.threadId, { runId: job.runId, running });
    return Promise.resolve(true);
  }

  runOf(threadId: string): Promise<string | undefined> {
    return Promise.resolve(this.jobs.get(threadId)?.runId);
  }

  /** A job never waits here: it runs as it is added. */
  waiting(): Promise<boolean> {
    return Promise.resolve(false);
  }

  process(work: (job: RunJob, attempt: JobAttempt) => Promise<JobOutcome>): void {
    this.work = work;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.jobs.values()].map((j) => j.running));
  }
}
