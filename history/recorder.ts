import { WriteFailedError } from "../state/errors.js";
import type { State } from "../state/graph-state.js";
import { answerText, modeOfMessage, stageRows, titleOf, type RunFacts } from "./rows.js";
import type { HistoryStore, MessageStatus, RunEnd, RunStart } from "./store.js";

/** When the answer's end is tried again after a failed write: about ten minutes in all. */
const END_RETRY_MS = [1_000, 5_000, 15_000, 30_000, 60_000, 120_000, 180_000, 240_000];
/** The answers whose end waits to be tried again, by message id: a resumed run of one cancels the wait. */
const retrying = new Map<string, NodeJS.Timeout>();

/**
 * Writes one run to the history as it happens: the question and the conversation when it starts,
 * each stage's rows as the stage lands in the graph state, and the answer when it ends. Writes go
 * out in order on one queue, apart from the stream, so a slow database never holds up an event. A
 * failed write (a full disk) is logged and reported once to `onFailure`, which stops the run; the
 * answer's end is then tried again for a while, so that it does not stay `streaming` for ever.
 */
export class RunRecorder {
  private readonly written = new Set<string>();
  private queue: Promise<void> = Promise.resolve();
  private last: State | undefined;
  /** The latest answer a format subgraph had (its `answer`), for a run cancelled before it handed it back. */
  private subgraphAnswer: string | null = null;
  private error: string | null = null;
  private reported = false;

  constructor(
    private readonly store: HistoryStore,
    private readonly run: RunStart,
    private readonly log: (line: string) => void,
    private readonly onFailure: (err: WriteFailedError) => void = () => {},
    private readonly facts?: RunFacts,
  ) {
    // The run is resumed: its own end will be written, not the earlier attempt's.
    clearTimeout(retrying.get(run.messageId));
    retrying.delete(run.messageId);
    this.enqueue("question", () => store.startRun(run));
  }

  /**
   * Starts recording the run `messageId` of conversation `conversationId` for `owner`: the message
   * as sent (its command gives the mode), and the question as stored (default: the message).
   */
  static start(
    store: HistoryStore,
    run: { conversationId: string; messageId: string; message: string; question?: string; owner: string },
    log: (line: string) => void,
    onFailure?: (err: WriteFailedError) => void,
    facts?: RunFacts,
  ): RunRecorder {
    const question = run.question ?? run.message;
    return new RunRecorder(store, { conversationId: run.conversationId, messageId: run.messageId, userId: run.owner, mode: modeOfMessage(run.message), title: titleOf(question), question, at: new Date() }, log, onFailure, facts);
  }

  /** A state the graph reached (the top graph's, `namespace` empty, or a subgraph's): writes the new rows. */
  observe(state: Record<string, unknown>, namespace: readonly string[]): void {
    if (namespace.length === 0) this.last = state as State;
    else if (state.run_id === this.run.messageId && typeof state.answer === "string") this.subgraphAnswer = state.answer;
    const rows = stageRows(state, namespace, this.run.messageId, this.facts).filter((r) => !this.written.has(r.id));
    if (rows.length === 0) return;
    for (const r of rows) this.written.add(r.id);
    this.enqueue("stages", () => this.store.addStages(rows));
  }

  /** Notes the run's `error` event, if it sends one. */
  failed(message: string): void {
    this.error ??= message;
  }

  /**
   * Writes the answer and how the run ended (an error the run reported wins over its
   * cancellation), and waits for every write. Resolves with the error when that write failed (it
   * is then tried again later), so the client can be told.
   */
  async finish(cancelled: boolean): Promise<WriteFailedError | undefined> {
    const content = (this.last ? answerText(this.last) : "") || (this.subgraphAnswer ?? "");
    const status: MessageStatus = this.error ? "error" : cancelled ? "cancelled" : "complete";
    const end = { content, status, error: this.error ?? (cancelled ? "cancelled" : null), title: this.last?.conversation_title ?? null, at: new Date() };
    let failed: WriteFailedError | undefined;
    this.queue = this.queue
      .then(() => this.store.finishRun(this.run, end))
      .catch((err: Error) => {
        this.log(`history: writing the answer of run ${this.run.messageId} failed: ${err.message}; trying again later`);
        failed = new WriteFailedError("the history (the answer of this run)", err);
        this.retryEnd(end, 0);
      });
    await this.queue;
    return failed;
  }

  /** Tries the answer's end again, further apart each time, for about ten minutes or until the run is resumed. */
  private retryEnd(end: RunEnd, attempt: number): void {
    const id = this.run.messageId;
    if (attempt >= END_RETRY_MS.length) {
      retrying.delete(id);
      this.log(`history: gave up writing the answer of run ${id}; it stays "streaming" until the run is resumed`);
      return;
    }
    const timer = setTimeout(() => {
      this.store.finishRun(this.run, end).then(
        () => {
          retrying.delete(id);
          this.log(`history: the answer of run ${id} is written (${end.status})`);
        },
        () => retrying.get(id) === timer && this.retryEnd(end, attempt + 1),
      );
    }, END_RETRY_MS[attempt]);
    timer.unref();
    retrying.set(id, timer);
  }

  private enqueue(what: string, write: () => Promise<void>): void {
    this.queue = this.queue.then(write).catch((err: Error) => {
      this.log(`history: writing the ${what} of run ${this.run.messageId} failed: ${err.message}`);
      if (this.reported) return;
      this.reported = true;
      this.onFailure(new WriteFailedError(`the history (the ${what} of this run)`, err));
    });
  }
}
