import { BullRunQueue } from "../../providers/bull-run-queue.js";

/**
 * The run queue of an instance that shares `redisUrl` with others (as REDIS_URL gives one):
 * `workers` 0 makes an instance that runs nothing itself, so a test knows which instance runs a run.
 */
export function sharedQueue(redisUrl: string, workers = 20, lockMs = 2_000): BullRunQueue {
  return new BullRunQueue(redisUrl, { lockMs, concurrency: workers, log: () => {} });
}
