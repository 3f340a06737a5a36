import { randomUUID } from "node:crypto";
import { mapChatMessagesToStoredMessages } from "@langchain/core/messages";
import type { DebattGraph } from "../graph/build.js";
import { RunRecorder } from "../history/recorder.js";
import { runIdOf } from "../history/rows.js";
import type { HistoryStore } from "../history/store.js";
import type { RunJob, RunQueue } from "../ports/run-queue.js";
import type { RunSlots } from "../ports/run-slots.js";
import { formatOfCommand, isUsageOnly, parseCommand } from "../state/commands.js";
import { DebattError } from "../state/errors.js";
import type { State } from "../state/graph-state.js";
import { LOCAL_OWNER } from "../state/ownership.js";
import { isPerson, replyTo, type PersonInput } from "../state/person.js";
import { sleep } from "../state/sleep.js";
import { checkedUserText, removeSpoofing } from "../state/text.js";
import type { ActiveRuns } from "./active-runs.js";
import { checkFormatOptions } from "./formats.js";
import { questionOf } from "./person-waits.js";
import type { RunHub } from "./run-hub.js";
import type { RunRequest, StartedRun } from "./run-request.js";
import { hasUnfinishedRun } from "./stream.js";

/**
 * A thread's unfinished run, from its checkpoint, and the person's reply when `input` is given:
 * checked against what the debate waits for (`not_awaiting_input` when it waits for nobody,
 * `invalid_input` when it does not fit). `nothing_to_resume` when the thread has nothing left to run.
 */
export async function stoppedRun(graph: DebattGraph, threadId: string, input?: PersonInput) {
  const state = await graph.getState({ configurable: { thread_id: threadId } });
  if (!hasUnfinishedRun(state)) {
    throw new DebattError(
      "nothing_to_resume",
      `thread "${threadId}" has no unfinished run${state.createdAt ? "" : " (it never ran here, or no step of it was saved)"}`,
    );
  }
  if (!input) return { state, reply: undefined };
  const request = questionOf(state);
  if (!request) throw new DebattError("not_awaiting_input", `the debate of thread "${threadId}" does not wait for anyone's input`);
  return { state, reply: replyTo(request, input, 0), answers: { kind: request.kind, round: request.round } };
}

/**
 * Starts new runs and resumes stopped ones: checks what is asked, takes a slot of the limits,
 * announces the run (its `metadata`, the first event of its log) and puts it on the queue under its
 * thread, where a worker takes it. Refuses both while the process shuts down, and a run of a
 * thread that has one going (`run_in_progress`), on this instance or any other.
 */
export class RunStarts {
  constructor(
    private readonly graph: DebattGraph,
    private readonly hub: RunHub,
    private readonly history: HistoryStore | undefined,
    private readonly limits: RunSlots | undefined,
    private readonly runs: ActiveRuns,
    private readonly queue: RunQueue,
  ) {}

  /** Starts a new run (see `RunService.start`). */
  async start(sent: RunRequest): Promise<StartedRun> {
    this.assertAccepting();
    // Whatever surface it came from, the user's text is checked as the HTTP routes check it (its
    // length is each surface's own limit) and kept without the characters that could spoof a reader.
    const checked = (field: string, text: string) => checkedUserText(field, text, Number.POSITIVE_INFINITY);
    const request =
      sent.question === undefined
        ? { ...sent, message: checked("message", sent.message) }
        : { ...sent, message: removeSpoofing(sent.message), question: checked("question", sent.question) };
    const command = parseCommand(request.message);
    checkFormatOptions(formatOfCommand(command), request.configurable?.mode_config);
    const joined = command.kind === "debate" && (command.options.withMe === true || request.configurable?.with_me === true);
    if (joined && !request.seatsPerson) {
      throw new DebattError(
        "unknown_option",
        "--with-me needs a client that can write the person's turns and vote: the page (the chat stream and POST /api/v1/debates/:id/input) or the terminal",
      );
    }
    // A run without a thread starts one of the same id, so its run_id, thread_id and debate_id
    // are one id (the `:id` of /api/v1/debates/:id/…).
    const runId = randomUUID();
    const threadId = request.threadId ?? runId;
    // A message that only gets an explanation (a command without its topic) asks no model: it uses
    // up none of the user's runs, and is limited apart, as cheaply as a run.
    const quotaKey = request.quotaKey ?? request.owner ?? LOCAL_OWNER;
    await this.enqueue({
      runId,
      threadId,
      input: {
        message: request.message,
        participants: request.participants,
        ...(request.history ? { history: mapChatMessagesToStoredMessages(request.history) } : {}),
        continuation: request.continuation,
        ...(request.material?.length ? { material: request.material } : {}),
      },
      configurable: request.configurable,
      filing: { messageId: runId, message: request.message, question: request.question, owner: request.owner ?? LOCAL_OWNER },
      quotaKey: isUsageOnly(command) ? `${quotaKey} (explanations)` : quotaKey,
      seated: joined,
    });
    return { runId, threadId };
  }

  /**
   * Whether a run of the thread is going on or waits for a worker, here or on another instance: a
   * thread has one run at a time, across the instances (the queue holds one job per thread).
   */
  async threadRunning(threadId: string): Promise<boolean> {
    return (await this.queue.runOf(threadId)) !== undefined;
  }

  /** Waits (at most `ms`) for the thread's run, which was asked to stop, to let go of it. */
  async whenFree(threadId: string, ms = 5_000): Promise<void> {
    const until = Date.now() + ms;
    while ((await this.threadRunning(threadId)) && Date.now() < until) await sleep(FREE_POLL_MS);
  }

  /** Continues a thread's unfinished run from its checkpoint as a new run (see `RunService.resume`). */
  async resume(threadId: string, quotaKey?: string, input?: PersonInput): Promise<StartedRun> {
    if (!this.graph.checkpointer) throw new DebattError("no_checkpointer", "this server keeps no checkpoints, so runs cannot be resumed");
    if (await this.threadRunning(threadId)) throw inProgress(threadId);
    const { state, reply, answers } = await stoppedRun(this.graph, threadId, input);
    this.assertAccepting();
    const values = state.values as State;
    // A debate with a person's seat (planned, or about to be) may stop to wait for them again.
    const seated = values.options?.withMe === true || values.debate_participants?.some(isPerson) === true;
    const runId = randomUUID();
    const owner = (await this.history?.conversation(threadId))?.userId ?? LOCAL_OWNER;
    // The answer it goes on writing: its run's, as the checkpoint says; a run killed before its
    // first step was saved left no id there, and its answer is the thread's latest, unfinished one.
    const messageId = runIdOf(values) ?? (await this.unfinishedAnswer(threadId)) ?? runId;
    // The attempts before used part of the budget: the resumed run counts on from there.
    const spent = (await this.history?.message(messageId))?.usage ?? undefined;
    await this.enqueue({
      runId,
      threadId,
      input: { message: values.message, resume: true, ...(reply ? { reply, answers } : {}) },
      filing: { messageId, message: values.message, owner, ...(spent ? { spent } : {}) },
      quotaKey: quotaKey ?? owner,
      seated,
    });
    return { runId, threadId };
  }

  /** The thread's latest answer when it did not complete (its run was cut), by id. */
  private async unfinishedAnswer(threadId: string): Promise<string | undefined> {
    const [latest] = (await this.history?.runsOf(threadId, true)) ?? [];
    const answer = latest === undefined ? undefined : await this.history?.message(latest);
    return answer && answer.status !== "complete" ? answer.id : undefined;
  }

  /**
   * Takes the run's slot of the limits, announces it and puts it on the queue; gives the slot back
   * and forgets it when the thread has a run already (`run_in_progress`).
   */
  private async enqueue(job: RunJob): Promise<void> {
    if (job.quotaKey) await this.limits?.acquire(job.quotaKey, job.runId);
    try {
      // Acknowledged at once, before any worker takes it (as the LangGraph API server does): the
      // client learns the thread and run ids, and sees the stream is live even when the server is busy.
      const metadata = { thread_id: job.threadId, run_id: job.runId, timestamp: new Date().toISOString() };
      await this.hub.announce(job.runId, { id: 1, event: "metadata", data: metadata });
      if (!(await this.queue.add(job))) {
        await this.hub.forget(job.runId);
        throw inProgress(job.threadId);
      }
      // Filed before the answer, so that every instance knows whose run it is at once, even before
      // a worker takes it (which files it too). A message that only gets an explanation (a command
      // without its topic) is not filed.
      if (this.history && (job.input.resume || !isUsageOnly(parseCommand(job.filing.message))))
        await this.history.startRun(RunRecorder.filing({ conversationId: job.threadId, runId: job.runId, ...job.filing }));
    } catch (err) {
      if (job.quotaKey) await this.limits?.release(job.quotaKey, job.runId);
      throw err;
    }
    this.keepWhileWaiting(job);
  }

  /**
   * Keeps the slot of a job that waits for a worker (every worker busy) from here, so that a long
   * wait does not free it; its worker keeps it once it runs. A slot whose instance died meanwhile
   * lapses, as one whose run's instance died.
   */
  private keepWhileWaiting(job: RunJob): void {
    const { limits, queue } = this;
    const key = job.quotaKey;
    if (!key || !limits || !Number.isFinite(limits.keepMs)) return;
    const timer = setInterval(() => {
      void queue.waiting(job).then(
        (waiting) => (waiting ? limits.keep(key, job.runId) : clearInterval(timer)),
        () => clearInterval(timer),
      );
    }, limits.keepMs);
    timer.unref();
  }

  /** Throws `shutting_down` once the process drains. */
  assertAccepting(): void {
    if (this.runs.shuttingDown) throw new DebattError("shutting_down", "the server is shutting down; retry on another instance");
  }
}

/** How often `whenFree` looks. */
const FREE_POLL_MS = 50;

/** A thread with a run going on (or waiting for a worker) takes no other. */
function inProgress(threadId: string): DebattError {
  return new DebattError("run_in_progress", `thread "${threadId}" has a run going on; follow it with GET /api/v1/debates/<run_id>/events`);
}
