import { performance } from "node:perf_hooks";

/**
 * How busy this process's event loop has been over the last second (its utilization, 0–1),
 * sampled once a second (a timer that does not keep the process alive). One per process: the
 * loop is shared.
 */
class LoopLoad {
  private last = performance.eventLoopUtilization();
  private value = 0;

  constructor() {
    setInterval(() => {
      const now = performance.eventLoopUtilization();
      this.value = performance.eventLoopUtilization(now, this.last).utilization;
      this.last = now;
    }, 1_000).unref();
  }

  utilization(): number {
    return this.value;
  }
}

const loop = new LoopLoad();

/**
 * How long streamed text is coalesced into one event, in ms: 40 on a process with time to spare
 * (25 updates a second), 100 when its event loop is busy half the time, 200 from three quarters.
 * Every event costs the server (serialising, the log, a socket write per reader) far more than
 * the text in it, so a loaded server sends the same text in fewer, larger pieces rather than
 * falling behind; the first piece of an answer is never delayed.
 */
export function deltaCoalesceMs(utilization = loop.utilization()): number {
  return utilization < 0.5 ? 40 : utilization < 0.75 ? 100 : 200;
}
