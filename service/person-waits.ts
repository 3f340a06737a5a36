import type { InputRequest, PersonReply } from "../state/person.js";

/** What a saved debate waits for from the person who joined it (the value its graph was interrupted with), if anything. */
export function questionOf(state: { tasks: readonly { interrupts: readonly { value?: unknown }[] }[] }): InputRequest | undefined {
  return state.tasks.flatMap((t) => t.interrupts).map((i) => i.value as InputRequest)[0];
}

/** A run that waits for the person who joined its debate. */
export interface PersonWait {
  /** What it waits for: their turn or their vote. */
  request: InputRequest;
  runId: string;
  threadId: string;
  /** When it began to wait (epoch ms). */
  since: number;
  /** Their reply, a skip at the deadline, or undefined when the run was stopped first. */
  reply: Promise<PersonReply | undefined>;
  /** Ends the wait with `reply` (once; later calls do nothing). */
  answer(reply: PersonReply | undefined): void;
  /** Ends the wait because the run stopped. */
  cancel(): void;
}

/**
 * The runs of this process that wait for the person who joined their debate (`--with-me`), by run
 * id: each until the person's reply, a skip once the deadline passes, or the run's stop.
 */
export class PersonWaits {
  private readonly waits = new Map<string, PersonWait>();

  /** The wait of a run. */
  get(runId: string): PersonWait | undefined {
    return this.waits.get(runId);
  }

  /** The wait of a run of the thread. */
  ofThread(threadId: string): PersonWait | undefined {
    return [...this.waits.values()].find((w) => w.threadId === threadId);
  }

  /** Every run that waits now. */
  all(): PersonWait[] {
    return [...this.waits.values()];
  }

  /**
   * Waits for the person's reply to `request` (announced with its deadline): their input through
   * `answer`, a skip once the deadline passes, or nothing when `signal` stops the run first.
   */
  begin(runId: string, threadId: string, request: InputRequest & { deadline: number }, signal: AbortSignal): PersonWait {
    const since = Date.now();
    let settle!: (reply: PersonReply | undefined) => void;
    const reply = new Promise<PersonReply | undefined>((resolve) => (settle = resolve));
    const timer = setTimeout(() => wait.answer({ skip: "timeout", waited_ms: Date.now() - since }), Math.max(0, request.deadline - since));
    const stopped = () => wait.cancel();
    signal.addEventListener("abort", stopped, { once: true });
    let settled = false;
    const wait: PersonWait = {
      request,
      runId,
      threadId,
      since,
      reply,
      answer: (r) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal.removeEventListener("abort", stopped);
        this.waits.delete(runId);
        settle(r);
      },
      cancel: () => wait.answer(undefined),
    };
    this.waits.set(runId, wait);
    return wait;
  }
}
