/**
 * What one user (or, without users, one client address) may start and have going: a slot of its
 * limits for each run or client chore, taken when it is asked for and given back when it ends, on
 * whichever instance. In one process, the process's counters; across instances, Redis's.
 */
export interface RunSlots {
  /** Takes a slot of `key`'s limits for `id` (a run, or a chore), or throws RunLimitError (`rate_limited`). */
  acquire(key: string, id: string): Promise<void>;
  /** Gives `id`'s slot back (once; later calls do nothing). */
  release(key: string, id: string): Promise<void>;
  /** Keeps `id`'s slot while its run goes on: a slot nobody keeps lapses (the instance running it died). */
  keep(key: string, id: string): Promise<void>;
  /** How often a slot is kept so that it does not lapse (Infinity: slots here never lapse). */
  readonly keepMs: number;
}
