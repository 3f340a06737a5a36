import type { EventLog, RunEvent } from "../ports/event-log.js";

interface MemoryRun {
  events: RunEvent[];
  bytes: number;
  done: boolean;
  finishedAt: number;
  seen: number | null;
  wake: Set<() => void>;
}

/**
 * The event log in this process's memory: bounded in bytes (the oldest finished runs are dropped
 * first) and expiring (a finished run is kept for `ttlMs`). Followers are woken as events arrive.
 */
export class MemoryEventLog implements EventLog {
  private readonly runs = new Map<string, MemoryRun>();
  private bytes = 0;

  constructor(
    private readonly options: { ttlMs: number; maxBytes: number; now?: () => number },
  ) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  async append(runId: string, event: RunEvent): Promise<void> {
    let run = this.runs.get(runId);
    if (!run) {
      this.prune();
      run = { events: [], bytes: 0, done: false, finishedAt: 0, seen: null, wake: new Set() };
      this.runs.set(runId, run);
    }
    if (run.done) return;
    const size = (event.json ?? JSON.stringify(event.data)).length + event.event.length;
    run.events.push(event);
    run.bytes += size;
    this.bytes += size;
    if (event.event === "done") {
      run.done = true;
      run.finishedAt = this.now();
    }
    for (const wake of [...run.wake]) wake();
    if (this.bytes > this.options.maxBytes) this.prune();
  }

  async *follow(runId: string, afterId: number, signal: AbortSignal): AsyncGenerator<RunEvent> {
    const run = this.runs.get(runId);
    if (!run) return;
    // Ids run 1, 2, 3…, so the event after `afterId` is at index `afterId`.
    let next = Math.max(0, afterId);
    while (!signal.aborted) {
      while (next < run.events.length) yield run.events[next++];
      if (run.done || !this.runs.has(runId)) return;
      await new Promise<void>((resolve) => {
        const wake = () => {
          run.wake.delete(wake);
          signal.removeEventListener("abort", wake);
          resolve();
        };
        run.wake.add(wake);
        signal.addEventListener("abort", wake, { once: true });
      });
    }
  }

  async has(runId: string): Promise<boolean> {
    this.prune();
    return this.runs.has(runId);
  }

  async finished(runId: string): Promise<boolean> {
    return this.runs.get(runId)?.done ?? false;
  }

  async touch(runId: string): Promise<void> {
    const run = this.runs.get(runId);
    if (run) run.seen = this.now();
  }

  async lastSeen(runId: string): Promise<number | null> {
    return this.runs.get(runId)?.seen ?? null;
  }

  async forget(runId: string): Promise<void> {
    const run = this.runs.get(runId);
    if (run) this.drop(runId, run);
  }

  /** Drops expired finished runs, then the oldest finished ones while over the byte budget. */
  private prune(): void {
    const now = this.now();
    for (const [id, run] of this.runs) {
      const expired = run.done && now - run.finishedAt > this.options.ttlMs;
      if (expired || (this.bytes > this.options.maxBytes && run.done)) this.drop(id, run);
    }
  }

  private drop(id: string, run: MemoryRun): void {
    this.runs.delete(id);
    this.bytes -= run.bytes;
    for (const wake of [...run.wake]) wake();
  }
}
