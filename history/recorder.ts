import type { CompareAnswer } from "../state/compare.js";
import type { CollectedAnswer } from "../state/deliberation.js";
import { notesFields, type AnswerNotes } from "../state/answer.js";
import type { Turn } from "../state/debate.js";
import { ConversationDeletedError, WriteFailedError } from "../state/errors.js";
import type { ClientEvent } from "../state/events.js";
import type { State } from "../state/graph-state.js";
import { countWords } from "../state/text.js";
import type { FormatId } from "../state/formats.js";
import type { HistoryCodec } from "./codec.js";
import { answerText, modeOfMessage, stageRows, titleOf, type RunFacts } from "./rows.js";
import type { UsageReport } from "../state/usage.js";
import type { HistoryStore, MessageStatus, RunEnd, RunStart } from "./store.js";

/** What one speaker of a run has streamed, and (a parallel answer) how its call ended. */
interface Streamed {
  /** A turn, a /compare answer, a first answer, or (`cut`) an answer of a format's own parallel step (its codec's `cut`: /revise's revisions, /moa's proposals). */
  kind: "turn" | "compare" | "collect" | "cut";
  /** The `answer_delta` stage it streamed in. */
  stage?: string;
  key: string;
  display: string;
  model: string;
  round: number;
  position: number;
  text: string;
  end?: {
    status: "ok" | "error";
    latencyMs: number;
    error?: string;
    /** A turn's words as its end event counted them, and its notes (thinking, sources, how it ended). */
    turn?: { wordCount: number; notes: AnswerNotes };
  };
}

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
  /** What the run's model calls used, written as they are counted and with its answer. */
  private used: UsageReport | undefined;
  /** A write of `used` on the queue that has not started: it resolves once written (or failed, and reported). */
  private usageWrite: Promise<void> | undefined;
  /** The run's conversation was deleted: nothing more is written. */
  private deleted = false;
  private reported = false;
  /** The latest state of each format subgraph of the run, by its namespace. */
  private readonly subgraphs = new Map<string, { state: Record<string, unknown>; namespace: readonly string[] }>();
  /**
   * What the run's speakers have streamed, by who: the calls still going, and the parallel ones
   * that ended in a step the run did not finish (their results never reached the state). A
   * stopped run keeps them, so what was shown is not lost.
   */
  private readonly streamed = new Map<string, Streamed>();
  /** The `answer_delta` stages of the parallel steps the formats' codecs keep when cut (read once). */
  private cuts?: Set<string>;
  private get cutStages(): Set<string> {
    return (this.cuts ??= new Set(Object.values(this.store.formats ?? {}).flatMap((c: HistoryCodec) => c.cut?.stages ?? [])));
  }
  /** The events that end such a step (read once). */
  private closers?: Set<string>;
  private get cutClosers(): Set<string> {
    return (this.closers ??= new Set(Object.values(this.store.formats ?? {}).flatMap((c: HistoryCodec) => c.cut?.closedBy ?? [])));
  }

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
    run: { conversationId: string; messageId: string; runId?: string; message: string; question?: string; owner: string },
    log: (line: string) => void,
    onFailure?: (err: WriteFailedError) => void,
    facts?: RunFacts,
  ): RunRecorder {
    return new RunRecorder(store, RunRecorder.filing(run), log, onFailure, facts);
  }

  /** How a run is filed when it starts: its conversation, its question, its answer (`streaming`) and its id. */
  static filing(run: { conversationId: string; messageId: string; runId?: string; message: string; question?: string; owner: string }): RunStart {
    const question = run.question ?? run.message;
    return {
      conversationId: run.conversationId,
      messageId: run.messageId,
      runId: run.runId,
      userId: run.owner,
      mode: modeOfMessage(run.message),
      title: titleOf(question),
      question,
      at: new Date(),
    };
  }

  /** A state the graph reached (the top graph's, `namespace` empty, or a subgraph's): writes the new rows. */
  observe(state: Record<string, unknown>, namespace: readonly string[]): void {
    if (namespace.length === 0) {
      this.last = state as State;
      // The finished turns the state now has are no longer kept here.
      for (const t of this.last.debate_turns ?? []) if (this.streamed.get(`turn:${t.round}:${t.key}`)?.end) this.streamed.delete(`turn:${t.round}:${t.key}`);
    } else {
      this.subgraphs.set(namespace.join("|"), { state, namespace });
      if (state.run_id === this.run.messageId && typeof state.answer === "string") this.subgraphAnswer = state.answer;
    }
    this.write(stageRows(state, namespace, this.run.messageId, this.store.formats, this.facts));
  }

  /** One of the run's events: keeps track of what the run's speakers have streamed. */
  heard(e: ClientEvent): void {
    // The step of a cut stage is over: its answers are in its state, so a cut can only be of a later
    // step's. (Told by the event, in the events' own order: a step's state may reach the recorder
    // after the next step's first events.)
    if (this.cutClosers.has(e.event)) for (const [who, p] of this.streamed) if (p.kind === "cut") this.streamed.delete(who);
    switch (e.event) {
      case "debate-participant-start":
        this.streamed.set(`turn:${e.data.round}:${e.data.model_key}`, {
          kind: "turn",
          key: e.data.model_key,
          display: e.data.model,
          model: "",
          round: e.data.round,
          position: e.data.position,
          text: "",
        });
        break;
      case "debate-participant-delta":
        this.add(`turn:${e.data.round}:${e.data.model_key}`, e.data.delta);
        break;
      case "debate-participant-end": {
        // A finished turn reaches the state when its step ends (a sequential round's step ends
        // with the round, a simultaneous round's with its last turn): until then it is kept here.
        const who = this.streamed.get(`turn:${e.data.round}:${e.data.model_key}`);
        if (who)
          who.end = {
            status: e.data.status,
            latencyMs: e.data.latency_ms,
            error: e.data.error,
            turn: { wordCount: e.data.word_count, notes: notesFields(e.data) },
          };
        break;
      }
      case "compare-answer-start":
        this.streamed.set(`compare:${e.data.model_key}`, {
          kind: "compare",
          key: e.data.model_key,
          display: e.data.model,
          model: "",
          round: 0,
          position: 0,
          text: "",
        });
        break;
      case "compare-answer-delta":
        this.add(`compare:${e.data.model_key}`, e.data.delta);
        break;
      case "compare-answer-end": {
        const who = this.streamed.get(`compare:${e.data.model_key}`);
        if (who) who.end = { status: e.data.status, latencyMs: e.data.latency_ms, error: e.data.error };
        break;
      }
      case "answer-delta": {
        // The first answers and the parallel steps a codec keeps when cut (`cut`) run in parallel; the other stages are kept whole.
        const stage = e.data.stage;
        const kind = stage === "collect" ? "collect" : this.cutStages.has(stage) ? "cut" : undefined;
        if (!kind) break;
        const who = `${kind}:${stage}:${e.data.modelKey}`;
        if (!this.streamed.has(who))
          this.streamed.set(who, { kind, stage, key: e.data.modelKey, display: e.data.display, model: e.data.model, round: 0, position: 0, text: "" });
        this.add(who, e.data.delta);
        break;
      }
      default:
        // Only what speakers stream is kept here; the rows come from the states.
        break;
    }
  }

  private add(who: string, delta: string): void {
    const streamed = this.streamed.get(who);
    if (streamed) streamed.text += delta;
  }

  /** Writes the rows not written yet. */
  private write(rows: ReturnType<typeof stageRows>): void {
    const fresh = rows.filter((r) => !this.written.has(r.id));
    if (fresh.length === 0) return;
    for (const r of fresh) this.written.add(r.id);
    this.enqueue("stages", () => this.store.addStages(fresh));
  }

  /**
   * Notes what the run's model calls have used so far (a resumed run's with its earlier attempts')
   * and writes it at once, on the queue: a run cut short (a killed process, a failed write) keeps
   * what it spent, and its resumption counts on from there. Writes that pile up on a slow database
   * become one, of the newest figures.
   */
  usage(report: UsageReport): Promise<void> {
    this.used = report;
    return (this.usageWrite ??= this.enqueue("usage", () => {
      this.usageWrite = undefined;
      return this.store.setUsage(this.run.messageId, this.used!);
    }));
  }

  /** Notes the run's `error` event, if it sends one. */
  failed(message: string): void {
    this.error ??= message;
  }

  /**
   * A stopped run's speakers whose words are not in its state: the turn in progress, and the
   * answers of a parallel step that did not finish (each as it ended, or cancelled), written
   * through the same row builders as the rest.
   */
  private keepWhatWasStreaming(): void {
    // A call that had said nothing leaves nothing to keep.
    const said = [...this.streamed.values()].filter((p) => p.text.trim() !== "" || p.end);
    this.streamed.clear();
    const of = (kind: Streamed["kind"]) => said.filter((p) => p.kind === kind);
    if (this.last) this.keepTurns(this.last, of("turn"));
    for (const { state, namespace } of this.subgraphs.values()) {
      const answers = (state as { answers?: { key: string }[] }).answers;
      if (!answers) continue;
      const kept = new Set(answers.map((a) => a.key));
      const kind = namespace[0].startsWith("compare:") ? "compare" : "collect";
      const added = of(kind)
        .filter((p) => !kept.has(p.key))
        .map((p) =>
          kind === "compare"
            ? ({
                key: p.key,
                display: p.display,
                status: p.end?.status ?? "error",
                text: p.text,
                word_count: countWords(p.text),
                latency_ms: p.end?.latencyMs ?? 0,
                error: p.end ? p.end.error : "cancelled",
              } satisfies CompareAnswer)
            : ({
                key: p.key,
                display: p.display,
                model: p.model,
                status: "error",
                response: p.text,
                responseTimeMs: 0,
                error: "cancelled",
              } satisfies CollectedAnswer),
        );
      if (added.length > 0) this.write(stageRows({ ...state, answers: [...answers, ...added] }, namespace, this.run.messageId, this.store.formats, this.facts));
      const codec = this.store.formats[namespace[0].split(":")[0] as FormatId] as HistoryCodec | undefined;
      const cut = of("cut").filter((p) => codec?.cut?.stages.includes(p.stage ?? ""));
      // Only this run's own subgraph (as stageRows writes rows for).
      if (codec?.cut && cut.length > 0 && namespace.length === 1 && state.run_id === this.run.messageId) {
        const added = codec.cut.add(
          state as never,
          cut.map((p) => ({ stage: p.stage ?? "", key: p.key, display: p.display, model: p.model, text: p.text })),
        );
        this.write(stageRows(added, namespace, this.run.messageId, this.store.formats, this.facts));
      }
    }
  }

  /**
   * The turns of a stopped run that its state does not have: each finished one as it ended (its
   * step had not), the one in progress as cancelled with what it had streamed.
   */
  private keepTurns(last: State, streamed: Streamed[]): void {
    const kept = new Set(last.debate_turns.map((t) => `${t.round}:${t.key}`));
    const missing = streamed.filter((p) => !kept.has(`${p.round}:${p.key}`));
    if (missing.length === 0) return;
    const turns: Turn[] = missing.map((p) => {
      const ok = p.end?.status === "ok";
      return {
        round: p.round,
        position: p.position,
        key: p.key,
        display: p.display,
        status: ok ? "ok" : "error",
        word_count: p.end?.turn?.wordCount ?? countWords(p.text),
        latency_ms: p.end?.latencyMs ?? 0,
        ...p.end?.turn?.notes,
        ...(ok ? {} : { partial_text: p.text, error: p.end ? (p.end.error ?? "error") : "cancelled" }),
      };
    });
    const responses = { ...last.debate_round_responses };
    for (const p of missing) if (p.end?.status === "ok") responses[p.round] = { ...responses[p.round], [p.display]: p.text };
    this.write(
      stageRows(
        { ...last, debate_turns: [...last.debate_turns, ...turns], debate_round_responses: responses },
        [],
        this.run.messageId,
        this.store.formats,
        this.facts,
      ),
    );
  }

  /**
   * Writes the answer and how the run ended (an error the run reported wins over its
   * cancellation), and waits for every write. Resolves with the error when that write failed (it
   * is then tried again later), so the client can be told.
   */
  /** Writes what is on its way (the rows and usage so far) but not the answer's end: another worker goes on with the run. */
  async letGo(): Promise<void> {
    await this.queue;
  }

  async finish(cancelled: boolean): Promise<WriteFailedError | undefined> {
    if (cancelled) this.keepWhatWasStreaming();
    const content = (this.last ? answerText(this.last) : "") || (this.subgraphAnswer ?? "");
    const status: MessageStatus = this.error ? "error" : cancelled ? "cancelled" : "complete";
    const end: RunEnd = {
      content,
      status,
      error: this.error ?? (cancelled ? "cancelled" : null),
      title: this.last?.conversation_title ?? null,
      at: new Date(),
    };
    let failed: WriteFailedError | undefined;
    this.queue = this.queue
      .then(() => (this.deleted ? undefined : this.store.finishRun(this.run, { ...end, ...(this.used ? { usage: this.used } : {}) })))
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

  /** Queues a write; resolves once it is done (or has failed, and that was reported). */
  private enqueue(what: string, write: () => Promise<void>): Promise<void> {
    return (this.queue = this.queue
      .then(() => (this.deleted ? undefined : write()))
      .catch(async (err: Error) => {
        // The conversation was deleted while the run went on: nothing of it is written any more, and that is no failure.
        if (this.deleted || err instanceof ConversationDeletedError || (await this.store.isDeleted(this.run.conversationId).catch(() => false))) {
          this.deleted = true;
          return;
        }
        this.log(`history: writing the ${what} of run ${this.run.messageId} failed: ${err.message}`);
        if (this.reported) return;
        this.reported = true;
        this.onFailure(new WriteFailedError(`the history (the ${what} of this run)`, err));
      }));
  }
}
