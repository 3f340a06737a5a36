/**
 * One event of a run with its SSE id (1, 2, 3, … without gaps). The log keeps events as they are
 * framed (a name and its data, kept as a JSON string: `SerializedEvent`); state/events.ts types
 * them for the clients that read them. Id 0 marks an event that is not the run's own: the
 * `replay_incomplete` error a replay ends with when it cannot be complete. A followed event's
 * `data` may be a getter that parses anew: read it once, and do not spread or clone the event.
 */
export interface RunEvent {
  id: number;
  event: string;
  readonly data: Record<string, unknown>;
  /** The data as one line of JSON, when it has been serialized already: framed as it is, not serialized again. */
  json?: string;
}

/** An event's data as one line of JSON: as it was serialized, or serialized now. */
export function dataJson(event: Pick<RunEvent, "data" | "json">): string {
  return event.json ?? JSON.stringify(event.data);
}

/**
 * An event kept as it goes out: its data serialized once, when the run produced it. A live debate
 * keeps thousands of events for replay, and one string holds an event's data in about half the
 * memory of its object; every SSE reader frames it without serializing it again. A reader that
 * wants the object (the CLI, the MCP tools) gets it parsed anew. The shared log (Redis) keeps the
 * same JSON and hands it back as it is.
 */
export class SerializedEvent implements RunEvent {
  constructor(
    readonly id: number,
    readonly event: string,
    readonly json: string,
  ) {}

  /** The event with `data` serialized. */
  static of(id: number, event: string, data: Record<string, unknown>): SerializedEvent {
    const json = JSON.stringify(data);
    // V8's JSON.stringify returns a chain of concatenated parts; reading the string as a number
    // flattens it into one (its value is not used). Kept as a chain it takes about 235 bytes for
    // a 105-character delta event, flat about 140.
    Number(json);
    return new SerializedEvent(id, event, json);
  }

  get data(): Record<string, unknown> {
    return JSON.parse(this.json) as Record<string, unknown>;
  }
}

/**
 * Where a run's events are kept so that a client can replay what it missed and follow the rest:
 * this process's memory, or Redis streams that every instance reads.
 */
export interface EventLog {
  /**
   * Appends the run's next event (ids in order); `done` ends the run's log. Resolves once the log
   * has it: false when it never will (another instance has taken the run over).
   */
  append(runId: string, event: RunEvent): Promise<boolean>;
  /**
   * The run's events with an id above `afterId`, in order, then the later ones as they arrive,
   * until `done` or `signal`. Yields nothing for a run the log does not know, and ends with a
   * `replay_incomplete` error (id 0) rather than skip ids it cannot have.
   */
  follow(runId: string, afterId: number, signal: AbortSignal): AsyncGenerator<RunEvent>;
  /** Whether the log knows the run (running, or finished within its time to live). */
  has(runId: string): Promise<boolean>;
  /** Whether the run's log has ended with `done`. */
  finished(runId: string): Promise<boolean>;
  /**
   * Asks the instance running the run to stop it (the shared log tells every instance). Resolves
   * true once that instance has acknowledged it (or the run has ended), false when none did
   * within the wait: the instance that ran it is gone.
   */
  requestStop?(runId: string): Promise<boolean>;
  /**
   * Makes this instance the run's only writer (a worker taking it up) and returns the last id of
   * its log; undefined when the log has no such run or it has ended.
   */
  claim?(runId: string): Promise<number | undefined>;
  /** The run's events up to `lastId`, in order. */
  upTo?(runId: string, lastId: number): Promise<RunEvent[]>;
  /** Whether a stop of the run was asked for lately, on any instance. */
  stopRequested?(runId: string): Promise<boolean>;
  /** Calls `listener` with each run of this instance that another instance has taken up (it took this one for dead). */
  onTakenOver?(listener: (runId: string) => void): void;
  /** Calls `listener` with each run some instance was asked to stop; it returns whether it stopped it. */
  onStopRequest?(listener: (runId: string) => boolean): void;
  /**
   * Calls `listener` with each run of this instance whose log another instance ended (a stop
   * that no instance answered for), so that the run stops here too rather than go on unseen.
   */
  onEndedElsewhere?(listener: (runId: string) => void): void;
  /**
   * Appends `events` after the run's last event, unless its log has ended (`done`): for a run
   * whose instance is gone, so its readers are told how it ended. Returns whether they were appended.
   */
  endOrphan?(runId: string, events: Omit<RunEvent, "id">[]): Promise<boolean>;
  /** Notes that a client is reading the run now (from any instance). */
  touch(runId: string): Promise<void>;
  /** When a client last read the run (epoch ms), or null. */
  lastSeen(runId: string): Promise<number | null>;
  /** Drops a run's events (its conversation was deleted); followers end. */
  forget(runId: string): Promise<void>;
  /** Waits for pending appends and lets go of connections (at shutdown). */
  close?(): Promise<void>;
}

/**
 * The events that end a replay that cannot be complete: an `error` (replay_incomplete) and, when
 * the missing events can never come (they are gone), `done`. Neither has an id (0): they are not
 * the run's own, so the client's last event id stays at the last event it really got. Without
 * `done` (Redis is unreachable), a client that reconnects later may still get the rest.
 */
export function replayIncomplete(lastId: number, why: string, final: boolean): RunEvent[] {
  const timestamp = new Date().toISOString();
  const error: RunEvent = {
    id: 0,
    event: "error",
    data: { code: "replay_incomplete", message: `the replay stops after event ${lastId}: ${why}`, last_event_id: lastId, timestamp },
  };
  return final ? [error, { id: 0, event: "done", data: { timestamp } }] : [error];
}

/**
 * The events that end the log of a run whose server stopped before it finished (it crashed or
 * was killed): an `error` (run_interrupted) that says it can be resumed, and `done`.
 */
export function runInterrupted(): Omit<RunEvent, "id">[] {
  const timestamp = new Date().toISOString();
  const message =
    "the server running this run stopped before it finished (it crashed or was killed); what was said so far is kept, and POST /api/v1/debates/<thread_id>/resume continues it from its last saved step";
  return [
    { event: "error", data: { code: "run_interrupted", message, timestamp } },
    { event: "done", data: { timestamp } },
  ];
}
