import { setImmediate as nextTurn } from "node:timers/promises";
import type { RunnableConfig } from "@langchain/core/runnables";
import { BaseCheckpointSaver, type CheckpointTuple } from "@langchain/langgraph";
import { WriteFailedError } from "../state/errors.js";

type Put = BaseCheckpointSaver["put"];
type PutWrites = BaseCheckpointSaver["putWrites"];
type ListOptions = Parameters<BaseCheckpointSaver["list"]>[1];

/**
 * A checkpointer whose writes run on the next turn of the event loop, in order, instead of at
 * once. LangGraph's default durability ("async") saves a step while the next one runs, but the
 * SQLite saver does all its work (serialising the state, the insert) synchronously inside `put`,
 * so it held up the next step's model call. Deferred, the work fills the time that call waits
 * for the provider. Reads wait for the writes queued before them, so nothing reads a stale
 * thread; a killed process loses at most the write of the step that had just ended, which a
 * resume then runs again.
 */
export class WriteBehindSaver extends BaseCheckpointSaver {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly inner: BaseCheckpointSaver) {
    super(inner.serde);
  }

  /** Who hears of a failed write (the run service, which stops the thread's run at once). */
  private readonly failureListeners = new Set<(threadId: string, err: WriteFailedError) => void>();

  /** Calls `listener` with the thread and the error whenever a write fails; returns the unsubscribe. */
  onFailure(listener: (threadId: string, err: WriteFailedError) => void): () => void {
    this.failureListeners.add(listener);
    return () => this.failureListeners.delete(listener);
  }

  /**
   * Runs `write` for `config`'s thread after the writes queued before it, on a later turn of the
   * event loop. A failure (a full disk) becomes a `write_failed` error, and the listeners hear of
   * it: LangGraph itself learns of a failed save only when the run ends.
   */
  private later<T>(config: RunnableConfig, write: () => Promise<T>): Promise<T> {
    const done = this.queue
      .then(() => nextTurn())
      .then(write)
      .catch((cause: unknown) => {
        const err = new WriteFailedError("the run's checkpoint", cause);
        for (const listener of this.failureListeners) listener(String(config.configurable?.thread_id ?? ""), err);
        throw err;
      });
    this.queue = done.catch(() => {});
    return done;
  }

  /**
   * Resolves when every queued write has run and a whole turn of the event loop has passed without
   * a new one. A graph's stream can end (aborted) while LangGraph still has a save to queue: its
   * own chain waits for the earlier saves first. Closing the database before that would lose it.
   */
  async flushed(): Promise<void> {
    for (;;) {
      const queue = this.queue;
      await queue;
      await nextTurn();
      if (queue === this.queue) return;
    }
  }

  put(...args: Parameters<Put>): ReturnType<Put> {
    return this.later(args[0], () => this.inner.put(...args));
  }

  putWrites(...args: Parameters<PutWrites>): ReturnType<PutWrites> {
    return this.later(args[0], () => this.inner.putWrites(...args));
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    await this.queue;
    return this.inner.getTuple(config);
  }

  async *list(config: RunnableConfig, options?: ListOptions): AsyncGenerator<CheckpointTuple> {
    await this.queue;
    yield* this.inner.list(config, options);
  }

  async deleteThread(threadId: string): Promise<void> {
    await this.queue;
    return this.inner.deleteThread(threadId);
  }

  override getNextVersion(current: number | undefined): number {
    return this.inner.getNextVersion(current);
  }
}
