import { createReadStream, createWriteStream, mkdirSync, readdirSync, renameSync, rmSync, statSync, type WriteStream } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";

/** What the archive knows about a debate's audio. */
export type AudioStatus = { state: "unknown" } | { state: "speaking" } | { state: "complete"; bytes: number };

/** Debate ids are UUIDs: nothing else may reach the file system. */
const SAFE_ID = /^[A-Za-z0-9-]{1,64}$/;

/**
 * The audio of /dvoice debates on disk, exactly as it was streamed: the voice queue appends every
 * chunk in speaking order, so an export is a copy of what was generated and never calls TTS again.
 * Keeps the `keep` most recent debates (each can be tens of megabytes) and deletes older ones.
 */
export class AudioArchive {
  private readonly open = new Map<string, WriteStream>();

  constructor(
    private readonly dir: string,
    private readonly log: (line: string) => void,
    private readonly keep = 20,
  ) {
    mkdirSync(dir, { recursive: true });
  }

  /** Appends a chunk of a debate's PCM (24 kHz, 16-bit, mono). */
  append(debateId: string, pcm: Buffer): void {
    if (!SAFE_ID.test(debateId)) throw new Error(`unsafe debate id "${debateId}"`);
    let file = this.open.get(debateId);
    if (!file) {
      this.prune();
      file = createWriteStream(this.path(debateId, "pcm.part"));
      // A full or broken disk loses the export, never the live debate; say so once.
      file.once("error", (err) => this.log(`audio of debate ${debateId} cannot be archived: ${err.message}`));
      this.open.set(debateId, file);
    }
    file.write(pcm);
  }

  /** Marks a debate's audio complete (after its last chunk); resolves once it is on disk. */
  async finish(debateId: string): Promise<void> {
    const file = this.open.get(debateId);
    if (!file) return;
    this.open.delete(debateId);
    await new Promise<void>((resolve, reject) => file.end((err?: Error | null) => (err ? reject(err) : resolve())));
    renameSync(this.path(debateId, "pcm.part"), this.path(debateId, "pcm"));
  }

  status(debateId: string): AudioStatus {
    if (!SAFE_ID.test(debateId)) return { state: "unknown" };
    if (this.open.has(debateId)) return { state: "speaking" };
    try {
      return { state: "complete", bytes: statSync(this.path(debateId, "pcm")).size };
    } catch {
      return { state: "unknown" };
    }
  }

  /** Deletes a debate's recording (its conversation was deleted). */
  remove(debateId: string): void {
    rmSync(this.path(debateId, "pcm"), { force: true });
  }

  /** The PCM of a complete debate. */
  read(debateId: string): Readable {
    return createReadStream(this.path(debateId, "pcm"));
  }

  private path(debateId: string, ext: string): string {
    return join(this.dir, `${debateId}.${ext}`);
  }

  /** Deletes the oldest complete recordings beyond `keep` (open ones are never touched). */
  private prune(): void {
    const done = readdirSync(this.dir)
      .filter((f) => f.endsWith(".pcm"))
      .map((f) => ({ f, t: statSync(join(this.dir, f)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const { f } of done.slice(Math.max(0, this.keep - 1))) rmSync(join(this.dir, f), { force: true });
  }
}
