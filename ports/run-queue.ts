import type { StoredMessage } from "@langchain/core/messages";
import type { Material } from "../state/client-material.js";
import type { Continuation } from "../state/continuation.js";
import type { InputRequest, PersonReply } from "../state/person.js";
import type { RunConfig } from "../state/run-config.js";
import type { UsageReport } from "../state/usage.js";

/**
 * A run as the queue keeps it until a worker has run it to its end: everything a worker on any
 * instance needs to produce it, or to take it up from its thread's last checkpoint, as JSON.
 */
export interface RunJob {
  runId: string;
  /** The job's key: a thread has at most one job, waiting or running, across the instances. */
  threadId: string;
  /** What the graph is given: a new message, or (`resume`) the thread's unfinished run. */
  input: {
    message: string;
    participants?: string[];
    /** The conversation before the message, as LangChain stores messages. */
    history?: StoredMessage[];
    continuation?: Continuation;
    /** Material every participant reads with the question, by source. */
    material?: Material[];
    resume?: boolean;
    /** The reply of the person who joined the debate, when a resume brings it. */
    reply?: PersonReply;
    /** What the reply answers: their turn or vote, and its round. */
    answers?: Pick<InputRequest, "kind" | "round">;
  };
  configurable?: RunConfig;
  /** How the run is filed in the history (see `RunFiling`). */
  filing: { messageId: string; message: string; question?: string; owner: string; spent?: UsageReport };
  /** Whose limits its slot counts against (given back when it ends, on whichever instance). */
  quotaKey?: string;
  /** A debate with a person's seat, which may stop to wait for them. */
  seated: boolean;
}

/** How a job came to a worker: its first time, or taken up again after the worker that had it died or handed it back. */
export interface JobAttempt {
  /** How many times it was taken up again (0 the first time). */
  takenUp: number;
  /** How many of its workers died while they held it: a run whose workers keep dying is given up. */
  died: number;
}

/** What a worker's run came to: `ended` (its log has `done`), or `handed_back` (another worker takes it up). */
export type JobOutcome = "ended" | "handed_back";

/**
 * Where runs wait for a worker and are held while they run: one job per thread, taken by one
 * worker at a time; a worker that dies has its job taken up by another. In one process, the
 * process itself; across instances, BullMQ on the shared Redis.
 */
export interface RunQueue {
  /** Whether the jobs are shared by several instances (a worker may be on another one). */
  readonly shared: boolean;
  /** Adds the job under its thread id; false (nothing added) when the thread has a job already. */
  add(job: RunJob): Promise<boolean>;
  /** The run of the thread's job, waiting or running, on any instance; undefined when it has none. */
  runOf(threadId: string): Promise<string | undefined>;
  /** Whether this run's job waits for a worker (added or handed back, and not taken yet). */
  waiting(job: Pick<RunJob, "threadId" | "runId">): Promise<boolean>;
  /**
   * Takes jobs from now on, one call of `work` each (at most `concurrency` at once here); a job
   * ends when `work` resolves, `handed_back` puts it back for another worker.
   */
  process(work: (job: RunJob, attempt: JobAttempt) => Promise<JobOutcome>): void;
  /** Calls `listener` with the thread of each job this instance lost its hold on (another worker may take it up). */
  onLost?(listener: (threadId: string) => void): void;
  /** Stops taking jobs; resolves once the jobs running here have ended or been handed back. */
  close(): Promise<void>;
}
