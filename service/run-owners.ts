import type { UserStore } from "../history/users.js";
import { ADMIN_OWNER, LOCAL_OWNER } from "../state/ownership.js";

/**
 * Who owns the runs this process is running, and their threads (the history knows the rest),
 * and which of those owners are users who have since been removed.
 */
export class RunOwners {
  private readonly runs = new Map<string, { threadId: string; owner: string }>();

  /** Notes a run of `owner` starting here. */
  add(runId: string, threadId: string, owner: string): void {
    this.runs.set(runId, { threadId, owner });
  }

  /** The run has ended here: the history answers for it from now on. */
  remove(runId: string): void {
    this.runs.delete(runId);
  }

  /** The owner of a run running here. */
  ofRun(runId: string): string | undefined {
    return this.runs.get(runId)?.owner;
  }

  /** The owner of a thread with a run running here. */
  ofThread(threadId: string): string | undefined {
    for (const run of this.runs.values()) if (run.threadId === threadId) return run.owner;
    return undefined;
  }

  /** The runs of `owner` running here. */
  runsOf(owner: string): string[] {
    return [...this.runs].filter(([, run]) => run.owner === owner).map(([runId]) => runId);
  }

  /** The owners of runs here who were users and are no longer (removed on any instance, or from the terminal). */
  async removed(users: UserStore): Promise<string[]> {
    const owners = new Set([...this.runs.values()].map((run) => run.owner).filter((owner) => owner !== LOCAL_OWNER && owner !== ADMIN_OWNER));
    if (owners.size === 0) return [];
    const still = await users.existing([...owners]);
    return [...owners].filter((owner) => !still.has(owner));
  }
}
