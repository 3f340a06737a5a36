import type { Clock } from "../../state/clock.js";

/** Turns of the event loop with nothing done on the clock before it moves on. */
const IDLE_TURNS = 20;

/**
 * A clock whose time moves only when everything else waits on it: once the event loop has turned
 * `IDLE_TURNS` times since the last wait began or ended, it jumps to the earliest wait's end and
 * ends it. Work that awaits only promises (a scripted model, fake speech, the graph's own steps)
 * therefore takes no time on it, and a test can compare times exactly, however busy the machine.
 * Real timers and I/O do take turns, so a test on this clock keeps to the former.
 */
export class VirtualClock implements Clock {
  private time = 0;
  /** Pending waits, earliest first (in the order they began when they end together). */
  private readonly waits: { until: number; end: () => void }[] = [];
  private moving = false;
  /** Turns of the event loop since a wait last began or ended. */
  private quiet = 0;

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const wait = {
        until: this.time + ms,
        end: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.waits.splice(this.waits.indexOf(wait), 1);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const at = this.waits.findIndex((w) => w.until > wait.until);
      this.waits.splice(at < 0 ? this.waits.length : at, 0, wait);
      this.quiet = 0;
      this.moveWhenIdle();
    });
  }

  /** Ends the earliest wait once the event loop has turned idly, and so on while any is left. */
  private moveWhenIdle(): void {
    if (this.moving) return;
    this.moving = true;
    void (async () => {
      for (this.quiet = 0; this.quiet < IDLE_TURNS; this.quiet++) await new Promise((resolve) => setImmediate(resolve));
      this.moving = false;
      const next = this.waits.shift();
      if (!next) return;
      this.time = Math.max(this.time, next.until);
      next.end();
      if (this.waits.length > 0) this.moveWhenIdle();
    })();
  }
}
