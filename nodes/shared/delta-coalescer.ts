/**
 * Coalesces streamed text into fewer events: the first piece goes out at once (time to first
 * token is never delayed); later pieces are joined and sent at most every `intervalMs`.
 * One event per token costs about as much CPU as the whole graph, hence the batching.
 */
export class DeltaCoalescer {
  private buffer = "";
  private lastSent = 0;
  private timer: NodeJS.Timeout | null = null;
  private sentAny = false;

  constructor(
    private readonly send: (delta: string) => void,
    private readonly intervalMs: number,
  ) {}

  /** Adds streamed text; sends it now if it is the first piece or the interval has passed. */
  push(text: string): void {
    if (!text) return;
    this.buffer += text;
    const now = performance.now();
    if (!this.sentAny || now - this.lastSent >= this.intervalMs) {
      this.flush();
    } else if (!this.timer) {
      // A stream that stalls must not hold back what it already produced.
      this.timer = setTimeout(() => this.flush(), this.intervalMs - (now - this.lastSent));
    }
  }

  /** Sends whatever is buffered. Call it when the stream ends (also on error). */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (!this.buffer) return;
    const text = this.buffer;
    this.buffer = "";
    this.sentAny = true;
    this.lastSent = performance.now();
    this.send(text);
  }
}
