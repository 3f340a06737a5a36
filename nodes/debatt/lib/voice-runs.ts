import type { VoiceQueue } from "./voice-queue.js";

/**
 * The voice queues of the debates a graph is running, by debate id. A queue lives outside the
 * graph state (it holds audio in flight, not checkpointable data): the round executor creates it
 * with the first answer of a /dvoice debate and the voice pipeline node drains and removes it.
 */
export class VoiceRuns {
  private readonly queues = new Map<string, VoiceQueue>();

  get(debateId: string): VoiceQueue | undefined {
    return this.queues.get(debateId);
  }

  set(debateId: string, queue: VoiceQueue): void {
    this.queues.set(debateId, queue);
  }

  /** Drops a debate's queue without waiting (its run was cancelled). */
  forget(debateId: string): void {
    this.queues.delete(debateId);
  }

  /** Waits until the debate's audio has all been sent, then forgets the queue. */
  async finish(debateId: string): Promise<void> {
    const queue = this.queues.get(debateId);
    if (!queue) return;
    try {
      await queue.drain();
    } finally {
      this.queues.delete(debateId);
    }
  }
}
