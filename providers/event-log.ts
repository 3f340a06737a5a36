import { closeSync, mkdtempSync, openSync, readdirSync, readSync, rmSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dataJson, replayIncomplete, SerializedEvent, type EventLog, type RunEvent } from "../ports/event-log.js";

/** An event kept on disk: where its data's JSON is in the run's spill file. */
interface SpilledEvent {
  id: number;
  event: string;
  at: number;
  length: number;
}

/**
 * A run's spill file: the data of its large events, appended in order. It is open for writing
 * only while its run lives (`fd`); each reader opens it for itself while it reads, so a finished
 * run kept for replay holds no file descriptor.
 */
interface Spill {
  fd?: number;
  path: string;
  size: number;
}

/** A follower's own descriptor of a run's spill file, opened at its first spilled event. */
interface SpillReader {
  fd?: number;
}

interface MemoryRun {
  events: (RunEvent | SpilledEvent)[];
  bytes: number;
  done: boolean;
  finishedAt: number;
  seen: number | null;
  wake: Set<() => void>;
  spill?: Spill;
}

/** Events whose data takes at least this many characters go to disk (a /dvoice audio chunk: about 6,500). */
const SPILL_OVER_CHARS = 4096;

/** Spill directories are named `debatt-events-<pid>-<random>` in the system's temporary directory. */
const SPILL_PREFIX = "debatt-events-";

/** Spill directories of this process's logs, removed when it exits. */
const spillDirs = new Set<string>();
let cleanupRegistered = false;

const isSpilled = (e: RunEvent | SpilledEvent): e is SpilledEvent => "at" in e;

/** Removes the spill directories of processes that no longer run. */
export function removeStaleSpillDirs(dir = tmpdir()): void {
  for (const name of readdirSync(dir)) {
    const pid = name.startsWith(SPILL_PREFIX) ? Number(/^(\d+)-/.exec(name.slice(SPILL_PREFIX.length))?.[1]) : 0;
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch (err) {
      // ESRCH: no such process. (EPERM: it runs, under another user.)
      if ((err as NodeJS.ErrnoException).code === "ESRCH") rmSync(join(dir, name), { recursive: true, force: true });
    }
  }
}

/**
 * The event log in this process's memory: bounded in bytes (the oldest finished runs are dropped
 * first) and expiring (a finished run is kept for `ttlMs`). Followers are woken as events arrive.
 *
 * A large event's data (a /dvoice audio chunk: a run speaks about 64 KB a second, 270 MB for a
 * whole debate) is written to a file of its run in a temporary directory and read back when a
 * reader reaches it; the heap keeps only where it is. A write that fails keeps the event in memory.
 */
export class MemoryEventLog implements EventLog {
  private readonly runs = new Map<string, MemoryRun>();
  private bytes = 0;
  private spillDir?: string;

  constructor(private readonly options: { ttlMs: number; maxBytes: number; now?: () => number; spillOverChars?: number }) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** Knows the run from now on, before its first event (its readers here wait for its events). */
  begin(runId: string): void {
    this.runOf(runId);
  }

  private runOf(runId: string): MemoryRun {
    let run = this.runs.get(runId);
    if (!run) {
      this.prune();
      run = { events: [], bytes: 0, done: false, finishedAt: 0, seen: null, wake: new Set() };
      this.runs.set(runId, run);
    }
    return run;
  }

  async append(runId: string, event: RunEvent): Promise<boolean> {
    const run = this.runOf(runId);
    if (run.done) return false;
    const json = dataJson(event);
    const spilled = json.length >= (this.options.spillOverChars ?? SPILL_OVER_CHARS) ? this.spill(runId, run, event, json) : undefined;
    // A spilled event counts what the heap keeps of it (its place in the file), about 64 bytes.
    const size = spilled ? 64 : json.length + event.event.length;
    run.events.push(spilled ?? event);
    run.bytes += size;
    this.bytes += size;
    if (event.event === "done") {
      run.done = true;
      run.finishedAt = this.now();
      this.closeSpill(run);
    }
    for (const wake of run.wake) wake();
    if (this.bytes > this.options.maxBytes) this.prune();
    return true;
  }

  /** The id of the run's last event (0 when it has none). */
  lastId(runId: string): number {
    return this.runs.get(runId)?.events.at(-1)?.id ?? 0;
  }

  /** Writes an event's data to its run's spill file; undefined when that fails (it then stays in memory). */
  private spill(runId: string, run: MemoryRun, event: RunEvent, json: string): SpilledEvent | undefined {
    try {
      if (!run.spill) {
        const path = join(this.directory(), `${encodeURIComponent(runId)}.jsonl`);
        run.spill = { fd: openSync(path, "w"), path, size: 0 };
      }
      if (run.spill.fd === undefined) return undefined;
      const bytes = Buffer.from(json, "utf8");
      writeSync(run.spill.fd, bytes, 0, bytes.length, run.spill.size);
      const spilled = { id: event.id, event: event.event, at: run.spill.size, length: bytes.length };
      run.spill.size += bytes.length;
      return spilled;
    } catch {
      return undefined;
    }
  }

  /**
   * This log's spill directory, made at its first spill and removed when the process exits. Those
   * of processes that are gone (killed before they could remove theirs) are removed then too.
   */
  private directory(): string {
    if (!this.spillDir) {
      removeStaleSpillDirs();
      this.spillDir = mkdtempSync(join(tmpdir(), `${SPILL_PREFIX}${process.pid}-`));
      spillDirs.add(this.spillDir);
      if (!cleanupRegistered) {
        cleanupRegistered = true;
        process.once("exit", () => {
          for (const dir of spillDirs) rmSync(dir, { recursive: true, force: true });
        });
      }
    }
    return this.spillDir;
  }

  /** Closes the run's spill file for writing (its run ended, or was dropped). */
  private closeSpill(run: MemoryRun): void {
    if (run.spill?.fd === undefined) return;
    try {
      closeSync(run.spill.fd);
    } catch {
      // Closed already.
    }
    run.spill.fd = undefined;
  }

  /**
   * An event as readers get it: a spilled one read back from its file through the reader's own
   * descriptor (undefined once its run is dropped, and its file with it).
   */
  private read(run: MemoryRun, e: RunEvent | SpilledEvent, reader: SpillReader): RunEvent | undefined {
    if (!isSpilled(e)) return e;
    if (!run.spill) return undefined;
    try {
      reader.fd ??= openSync(run.spill.path, "r");
      const bytes = Buffer.allocUnsafe(e.length);
      readSync(reader.fd, bytes, 0, e.length, e.at);
      return new SerializedEvent(e.id, e.event, bytes.toString("utf8"));
    } catch {
      return undefined;
    }
  }

  async *follow(runId: string, afterId: number, signal: AbortSignal): AsyncGenerator<RunEvent> {
    const run = this.runs.get(runId);
    if (!run) return;
    // One waker for the whole follow, not one per wait: a live run wakes its readers at every event,
    // and adding and removing an abort listener each time cost more than the rest of the wait.
    let resume: (() => void) | undefined;
    const wake = () => {
      const waiting = resume;
      resume = undefined;
      waiting?.();
    };
    run.wake.add(wake);
    signal.addEventListener("abort", wake, { once: true });
    const reader: SpillReader = {};
    try {
      // Ids run 1, 2, 3…, so the event after `afterId` is at index `afterId`.
      let next = Math.max(0, afterId);
      while (!signal.aborted) {
        while (next < run.events.length) {
          const event = this.read(run, run.events[next], reader);
          if (!event) {
            // Dropped meanwhile (deleted, or expired): what is on disk is gone, and the reader is told.
            yield* replayIncomplete(next, "the run's events are no longer kept (deleted, or expired)", true);
            return;
          }
          next++;
          yield event;
        }
        if (run.done || !this.runs.has(runId)) return;
        await new Promise<void>((resolve) => (resume = resolve));
      }
    } finally {
      run.wake.delete(wake);
      signal.removeEventListener("abort", wake);
      if (reader.fd !== undefined) closeSync(reader.fd);
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
    if (run.spill) {
      this.closeSpill(run);
      try {
        unlinkSync(run.spill.path);
      } catch {
        // Gone already (the temporary directory was cleaned): nothing to free.
      }
      run.spill = undefined;
    }
    for (const wake of run.wake) wake();
  }
}
