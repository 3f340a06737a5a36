import type { DebattGraph } from "../graph/build.js";
import type { HistoryStore } from "../history/store.js";
import { DebattError } from "../state/errors.js";
import { replyTo, type InputRequest, type PersonInput } from "../state/person.js";
import { StopRequestedError } from "./active-runs.js";
import { questionOf, type PersonWait, type PersonWaits } from "./person-waits.js";
import type { RunHub } from "./run-hub.js";
import type { StartedRun } from "./run-request.js";
import { stoppedRun, type RunStarts } from "./run-starts.js";

/**
 * The person who joined a debate (`--with-me`): what it waits for from them, and their answer,
 * given to the run of this process that waits or resuming the debate that stopped while it waited.
 */
export class PersonInputs {
  constructor(
    private readonly graph: DebattGraph,
    private readonly hub: RunHub,
    private readonly history: HistoryStore | undefined,
    private readonly waits: PersonWaits,
    private readonly starts: RunStarts,
  ) {}

  /** Gives the person their turn or vote: to the run waiting here, or by resuming the debate (see `RunService.input`). */
  async input(id: string, input: PersonInput, quotaKey?: string): Promise<StartedRun & { status: "accepted" | "resumed" }> {
    const { threadId, here } = await this.located(id);
    if (here) {
      here.answer(replyTo(here.request, input, Date.now() - here.since));
      return { runId: here.runId, threadId: here.threadId, status: "accepted" };
    }
    if (this.hub.runsHere(id)) throw new DebattError("not_awaiting_input", `run "${id}" does not wait for your input now`);
    const nobody = () => new DebattError("not_awaiting_input", `debate "${id}" does not wait for anyone's input: it has finished, or it never ran here`);
    if (this.hub.runningThread(threadId)) throw nobody();
    // Checked before anything is stopped: the debate waits for the person, and the input fits.
    try {
      await stoppedRun(this.graph, threadId, input);
    } catch (err) {
      throw DebattError.isInstance(err) && err.code === "nothing_to_resume" ? nobody() : err;
    }
    // Another instance may still hold the run, waiting: it lets go, and the debate goes on here.
    // One whose instance is gone has its log ended, so that its readers move on too.
    if ((await this.hub.has(id)) && !(await this.hub.finished(id)) && !(await this.hub.stop(id, new StopRequestedError()))) {
      await this.hub.endOrphan(id, [{ event: "done", data: { timestamp: new Date().toISOString() } }]);
    }
    // The run let go of its thread (its job ends once it has saved where it waits): the debate goes on in a new one.
    await this.starts.whenFree(threadId);
    return { ...(await this.starts.resume(threadId, quotaKey, input)), status: "resumed" };
  }

  /** What the debate `id` names waits for from its person, if anything (see `RunService.awaiting`). */
  async awaiting(id: string): Promise<{ runId: string; threadId: string; live: boolean; request: InputRequest & { deadline?: number } } | undefined> {
    const { threadId, here } = await this.located(id);
    if (here) return { runId: here.runId, threadId, live: true, request: here.request };
    if (!this.graph.checkpointer || this.hub.runningThread(threadId) || ((await this.hub.has(id)) && !(await this.hub.finished(id)))) return undefined;
    const request = questionOf(await this.graph.getState({ configurable: { thread_id: threadId } }));
    return request && { runId: id, threadId, live: false, request };
  }

  /**
   * The thread of the debate `id` names (the id of a run, of its thread, or of the thread's first
   * run: a debate resumed after a restart goes on in a new run), and its run of this process that
   * waits for the person, if one does.
   */
  private async located(id: string): Promise<{ threadId: string; here?: PersonWait }> {
    const threadId = this.waits.get(id)?.threadId ?? (await this.history?.message(id))?.conversationId ?? id;
    return { threadId, here: this.waits.get(id) ?? this.waits.ofThread(threadId) };
  }
}
