import { randomUUID } from "node:crypto";
import type { DebattGraph } from "../graph/build.js";
import { runIdOf } from "../history/rows.js";
import type { HistoryStore } from "../history/store.js";
import { formatOfCommand, isUsageOnly, parseCommand } from "../state/commands.js";
import { DebattError } from "../state/errors.js";
import type { State } from "../state/graph-state.js";
import { LOCAL_OWNER } from "../state/ownership.js";
import { isPerson, replyTo, type PersonInput } from "../state/person.js";
import { checkedUserText, removeSpoofing } from "../state/text.js";
import type { ActiveRuns } from "./active-runs.js";
import { checkFormatOptions } from "./formats.js";
import { questionOf } from "./person-waits.js";
import type { RunHub } from "./run-hub.js";
import type { RunLimits } from "./run-limits.js";
import type { RunProducer } from "./run-producer.js";
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
  return { state, reply: replyTo(request, input, 0) };
}

/**
 * Starts new runs and resumes stopped ones: checks what is asked, takes a slot of the limits, and
 * hands the run to the producer. Refuses both while the process shuts down.
 */
export class RunStarts {
  constructor(
    private readonly graph: DebattGraph,
    private readonly hub: RunHub,
    private readonly history: HistoryStore | undefined,
    private readonly limits: RunLimits | undefined,
    private readonly runs: ActiveRuns,
    private readonly producer: RunProducer,
  ) {}

  /** Starts a new run (see `RunService.start`). */
  start(sent: RunRequest): StartedRun {
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
    // A message that only gets an explanation (a command without its topic) asks no model: it uses
    // up none of the user's runs, and is limited apart, as cheaply as a run.
    const quotaKey = request.quotaKey ?? request.owner ?? LOCAL_OWNER;
    const quota = this.limits?.acquire(isUsageOnly(command) ? `${quotaKey} (explanations)` : quotaKey);
    // A run without a thread starts one of the same id, so its run_id, thread_id and debate_id
    // are one id (the `:id` of /api/v1/debates/:id/…).
    const runId = randomUUID();
    const threadId = request.threadId ?? runId;
    this.producer.produce(
      runId,
      threadId,
      { message: request.message, participants: request.participants, history: request.history, continuation: request.continuation },
      request.configurable,
      {
        messageId: runId,
        message: request.message,
        question: request.question,
        owner: request.owner ?? LOCAL_OWNER,
        quota,
      },
      joined,
    );
    return { runId, threadId };
  }

  /**
   * Whether a run of the thread is going on, here or on another instance that lives: a thread has
   * one run at a time, across the instances (the history knows every run's id, a resumed one's too).
   */
  async threadRunning(threadId: string): Promise<boolean> {
    if (this.hub.runningThread(threadId)) return true;
    const runs = (await this.history?.runsOf(threadId, true)) ?? [];
    return (await Promise.all(runs.map((run) => this.hub.runningAnywhere(run)))).some(Boolean);
  }

  /** Continues a thread's unfinished run from its checkpoint as a new run (see `RunService.resume`). */
  async resume(threadId: string, quotaKey?: string, input?: PersonInput): Promise<StartedRun> {
    if (!this.graph.checkpointer) throw new DebattError("no_checkpointer", "this server keeps no checkpoints, so runs cannot be resumed");
    if (await this.threadRunning(threadId)) {
      throw new DebattError("run_in_progress", `thread "${threadId}" has a run going on; follow it with GET /api/v1/debates/<run_id>/events`);
    }
    const { state, reply } = await stoppedRun(this.graph, threadId, input);
    this.assertAccepting();
    const values = state.values as State;
    // A debate with a person's seat (planned, or about to be) may stop to wait for them again.
    const seated = values.options?.withMe === true || values.debate_participants?.some(isPerson) === true;
    const runId = randomUUID();
    const owner = (await this.history?.conversation(threadId))?.userId ?? LOCAL_OWNER;
    const quota = this.limits?.acquire(quotaKey ?? owner);
    const messageId = runIdOf(values) ?? runId;
    // The attempts before used part of the budget: the resumed run counts on from there.
    const spent = (await this.history?.message(messageId))?.usage ?? undefined;
    this.producer.produce(
      runId,
      threadId,
      { message: values.message, resume: true, reply },
      undefined,
      { messageId, message: values.message, owner, quota, spent },
      seated,
    );
    return { runId, threadId };
  }

  /** Throws `shutting_down` once the process drains. */
  assertAccepting(): void {
    if (this.runs.shuttingDown) throw new DebattError("shutting_down", "the server is shutting down; retry on another instance");
  }
}
