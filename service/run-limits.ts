import type { RunSlots } from "../ports/run-slots.js";
import { RunLimitError } from "../state/errors.js";

export { RunLimitError };

/**
 * Keeps `id`'s slot now and then as often as its slots ask (none, for slots that never lapse)
 * until the returned function is called.
 */
export function keepAlive(slots: RunSlots, key: string, id: string): () => void {
  const keep = () => void slots.keep(key, id);
  keep();
  if (!Number.isFinite(slots.keepMs)) return () => {};
  const timer = setInterval(keep, slots.keepMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Keys kept before forgotten ones are swept (each holds at most `perMinute` times). */
const SWEEP_AT = 10_000;

/**
 * What one user (or, without users, one client address) may start: at most `perMinute` runs in
 * any minute and `concurrent` at once, counted in this process. Every run costs money with a real
 * key, and CPU. (Across instances, `RedisRunSlots` counts them in Redis.)
 */
export class RunLimits implements RunSlots {
  /** The slots held, by id, as `acquire` gave them: released by id on any call. */
  private readonly held = new Map<string, () => void>();

  private readonly starts = new Map<string, number[]>();
  private readonly active = new Map<string, number>();

  constructor(
    private readonly perMinute: number,
    private readonly concurrent: number,
    private readonly now: () => number = Date.now,
    /** What a slot is for, in the refusal: runs, or open streams. */
    private readonly noun = "runs",
  ) {}

  async acquire(key: string, id: string): Promise<void> {
    this.held.set(id, this.take(key));
  }

  async release(_key: string, id: string): Promise<void> {
    this.held.get(id)?.();
    this.held.delete(id);
  }

  /** A slot here lives as long as this process: nothing to keep. */
  async keep(): Promise<void> {}

  readonly keepMs = Infinity;

  /** Takes a slot for a new run of `key`, or throws RunLimitError; the returned function gives it back. */
  take(key: string): () => void {
    const t = this.now();
    const recent = (this.starts.get(key) ?? []).filter((s) => s > t - 60_000);
    if ((this.active.get(key) ?? 0) >= this.concurrent) {
      throw new RunLimitError(`at most ${this.concurrent} ${this.noun} at once; wait for one of yours to finish`, 5);
    }
    if (recent.length >= this.perMinute) {
      throw new RunLimitError(`at most ${this.perMinute} runs a minute`, Math.max(1, Math.ceil((recent[0] + 60_000 - t) / 1000)));
    }
    if (this.starts.size >= SWEEP_AT) this.sweep(t);
    this.starts.set(key, [...recent, t]);
    this.active.set(key, (this.active.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.active.get(key) ?? 1) - 1;
      if (left > 0) this.active.set(key, left);
      else this.active.delete(key);
    };
  }

  private sweep(t: number): void {
    for (const [key, times] of this.starts) if (times.every((s) => s <= t - 60_000)) this.starts.delete(key);
  }
}
