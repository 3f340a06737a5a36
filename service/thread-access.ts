import type { HistoryStore } from "../history/store.js";
import { LOCAL_OWNER, mayAccess, type Requester } from "../state/ownership.js";
import type { RunOwners } from "./run-owners.js";

/**
 * Who may see or continue a thread, read a run, or answer for a debate's person: the runs of this
 * process know their owners, the history knows the rest.
 */
export class ThreadAccess {
  constructor(
    private readonly owners: RunOwners,
    private readonly history: HistoryStore | undefined,
  ) {}

  /**
   * Whether `requester` may see or continue a thread: a thread nobody has used is free (it is
   * about to be started); one that exists belongs to the user who started it; a deleted one is
   * nobody's, for good (not its owner's, not an admin's, not whoever asks first).
   */
  async mayUseThread(requester: Requester, threadId: string): Promise<boolean> {
    const conversation = this.history && (await this.history.conversation(threadId));
    if (!conversation && (await this.history?.isDeleted(threadId))) return false;
    const owner = this.owners.ofThread(threadId) ?? conversation?.userId;
    if (owner !== undefined) return mayAccess(requester, owner ?? LOCAL_OWNER);
    return true;
  }

  /** Whether `requester` may see a run (its events, its result, its audio): it must be theirs. */
  async mayReadRun(requester: Requester, runId: string): Promise<boolean> {
    let owner = this.owners.ofRun(runId);
    if (owner === undefined && this.history) {
      const answer = await this.history.answerOfRun(runId);
      owner = answer ? ((await this.history.conversation(answer.conversationId))?.userId ?? LOCAL_OWNER) : undefined;
    }
    // Without a record (no history here) a run is the local user's.
    return mayAccess(requester, owner ?? LOCAL_OWNER);
  }

  /**
   * Whether `requester` may answer for the person of the debate `id` names: a run's id (its owner's,
   * see `mayReadRun`) or a thread's (see `mayUseThread`).
   */
  async mayAnswer(requester: Requester, id: string): Promise<boolean> {
    const run = this.owners.ofRun(id) !== undefined || (await this.history?.answerOfRun(id)) !== undefined;
    return run ? this.mayReadRun(requester, id) : this.mayUseThread(requester, id);
  }
}
