import type { SpeechCache } from "../graph/models.js";

/**
 * Synthesised speech in process memory, bounded by total bytes: the least recently used entries
 * go first. Identical sentences of repeated debates are then never synthesised (or paid for) twice.
 */
export class MemorySpeechCache implements SpeechCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  /** @param maxBytes the most audio kept (default 64 MB, about 22 minutes of speech). */
  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  async get(key: string): Promise<Buffer | undefined> {
    const pcm = this.entries.get(key);
    if (pcm) {
      // Map order is insertion order: re-inserting marks the entry as recently used.
      this.entries.delete(key);
      this.entries.set(key, pcm);
    }
    return pcm;
  }

  async set(key: string, pcm: Buffer): Promise<void> {
    if (pcm.length > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.length;
      this.entries.delete(key);
    }
    this.entries.set(key, pcm);
    this.bytes += pcm.length;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.length;
    }
  }
}
