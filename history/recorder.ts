import type { State } from "../state/graph-state.js";
import { answerText, modeOfMessage, stageRows, titleOf } from "./rows.js";
import type { HistoryStore, MessageStatus, RunStart } from "./store.js";

/**
 * Writes one run to the history as it happens: the question and the conversation when it starts,
 * each stage's rows as the stage lands in the graph state, and the answer when it ends. Writes go
 * out in order on one queue, apart from the stream, so a slow database never holds up an event; a
 * failed write is logged and the run goes on (the checkpoints still hold everything).
 */
export class RunRecorder {
  private readonly written = new Set<string>();
  private queue: Promise<void> = Promise.resolve();
  private last: State | undefined;
  /** The latest answer a format subgraph had (its `answer`), for a run cancelled before it handed it back. */
  private subgraphAnswer: string | null = null;
  private error: string | null = null;

  constructor(
    private readonly store: HistoryStore,
    private readonly run: RunStart,
    private readonly log: (line: string) => void,
  ) {
    this.enqueue("question", () => store.startRun(run));
  }

  /**
   * Starts recording the run `messageId` of conversation `conversationId` for `owner`: the message
   * as sent (its command gives the mode), and the question as stored (default: the message).
   */
  static start(store: HistoryStore, run: { conversationId: string; messageId: string; message: string; question?: string; owner: string }, log: (line: string) => void): RunRecorder {
    const question = run.question ?? run.message;
    return new RunRecorder(store, { conversationId: run.conversationId, messageId: run.messageId, userId: run.owner, mode: modeOfMessage(run.message), title: titleOf(question), question, at: new Date() }, log);
  }

  /** A state the graph reached (the top graph's, `namespace` empty, or a subgraph's): writes the new rows. */
  observe(state: Record<string, unknown>, namespace: readonly string[]): void {
    if (namespace.length === 0) this.last = state as State;
    else if (state.run_id === this.run.messageId && typeof state.answer === "string") this.subgraphAnswer = state.answer;
    const rows = stageRows(state, namespace, this.run.messageId).filter((r) => !this.written.has(r.id));
    if (rows.length === 0) return;
    for (const r of rows) this.written.add(r.id);
    this.enqueue("stages", () => this.store.addStages(rows));
  }

  /** Notes the run's `error` event, if it sends one. */
  failed(message: string): void {
    this.error ??= message;
  }

  /** Writes the answer and how the run ended, and waits for every write. */
  async finish(cancelled: boolean): Promise<void> {
    const content = (this.last ? answerText(this.last) : "") || (this.subgraphAnswer ?? "");
    const status: MessageStatus = cancelled ? "cancelled" : this.error ? "error" : "complete";
    const title = this.last?.conversation_title ?? null;
    this.enqueue("answer", () => this.store.finishRun(this.run, { content, status, error: cancelled ? "cancelled" : this.error, title, at: new Date() }));
    await this.queue;
  }

  private enqueue(what: string, write: () => Promise<void>): void {
    this.queue = this.queue.then(write).catch((err: Error) => this.log(`history: writing the ${what} of run ${this.run.messageId} failed: ${err.message}`));
  }
}
