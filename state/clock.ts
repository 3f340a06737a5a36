import { sleep } from "./sleep.js";

/**
 * A monotonic clock in milliseconds that can be waited on. /dvoice's playback clock runs on one: the
 * real one in the service, a virtual one in a test, whose time moves only when everything else
 * waits on it (so pacing is tested exactly, however busy the machine).
 */
export interface Clock {
  /** Milliseconds since an arbitrary origin; never goes back. */
  now(): number;
  /** Waits `ms` on this clock, or rejects with the signal's reason as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The process's own clock: `performance.now()` and timers. */
export const REAL_CLOCK: Clock = { now: () => performance.now(), sleep };
