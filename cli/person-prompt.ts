import { createInterface, type Interface } from "node:readline";
import type { RunService } from "../service/run-service.js";
import { DebattError } from "../state/errors.js";
import type { ClientEvent, ClientPayload } from "../state/events.js";
import { errorWords, type Translate } from "../state/messages/index.js";
import type { PersonInput } from "../state/person.js";

/**
 * The terminal's side of a debate the person joined (`/debatt --with-me`): when the debate waits
 * for them, it asks on stderr and reads their turn or vote from stdin, one line (an empty line, or
 * the end of stdin, passes), and gives it to the run; a refusal is said and the question asked
 * again. The question is dropped when the seat is skipped meanwhile (their time ran out).
 */
export class PersonPrompt {
  private lines?: Interface;
  private asking?: AbortController;
  /** Lines read before a question wanted them (stdin piped in at once), in order. */
  private readonly queued: string[] = [];
  private ended = false;
  private waiting?: (line: string | undefined) => void;

  constructor(
    private readonly service: RunService,
    private readonly runId: string,
    private readonly t: Translate,
    private readonly say: (line: string) => void,
  ) {}

  /** One of the run's events: a question to ask, or one that is over. */
  heard(e: ClientEvent): void {
    if (e.event === "debate-awaiting-input") void this.ask(e.data);
    else if (e.event === "debate-input-skipped" || e.event === "done") this.asking?.abort();
  }

  /** Stops asking and lets go of stdin. */
  close(): void {
    this.asking?.abort();
    this.lines?.close();
  }

  /** The next line of stdin after `prompt` (on stderr); undefined at its end or once `signal` aborts. */
  private line(prompt: string, signal: AbortSignal): Promise<string | undefined> {
    if (!this.lines) {
      this.lines = createInterface({ input: process.stdin, terminal: false });
      this.lines.on("line", (line) => (this.waiting ? this.take(line) : this.late(line)));
      this.lines.on("close", () => {
        this.ended = true;
        this.take(undefined);
      });
    }
    // A terminal answers on the same line; piped answers are not echoed, so the next output starts a line of its own.
    process.stderr.write(process.stdin.isTTY ? prompt : `${prompt}\n`);
    if (this.queued.length > 0) return Promise.resolve(this.queued.shift());
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.waiting = resolve;
      signal.addEventListener("abort", () => this.take(undefined), { once: true });
    });
  }

  /**
   * A line typed at a terminal when no question was open (the last one's time ran out) is not an
   * answer to the next question, which the person has not read yet: it is said and dropped. Piped
   * lines wait for their question, in order.
   */
  private late(line: string): void {
    if (!process.stdin.isTTY) this.queued.push(line);
    else if (line.trim() !== "") this.say(this.t("cli.personLate"));
  }

  /** Hands `line` to the question waiting for one. */
  private take(line: string | undefined): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.(line);
  }

  private async ask(request: ClientPayload<"debate-awaiting-input">): Promise<void> {
    this.asking?.abort();
    const asking = (this.asking = new AbortController());
    const seconds = Math.max(0, Math.round((request.deadline - Date.now()) / 1000));
    const prompt =
      request.kind === "turn"
        ? this.t("cli.personTurn", { name: request.participant, n: request.round, limit: request.word_limit, seconds })
        : this.t("cli.personVote", { name: request.participant, seconds, candidates: request.candidates.map((c, i) => `${i + 1}. ${c}`).join("  ") });
    for (;;) {
      const read = await this.line(prompt, asking.signal);
      // Asked no more (skipped, or the run ended); at the end of stdin they pass.
      if (asking.signal.aborted) return;
      const line = read ?? "";
      try {
        await this.service.input(this.runId, inputOf(request, line));
        return;
      } catch (err) {
        if (!DebattError.isInstance(err) || asking.signal.aborted) return;
        this.say(errorWords(this.t, err.code, err.message, err.reason) ?? err.message);
        // A refusal of an empty answer cannot be mended by asking again.
        if (line.trim() === "") return;
      }
    }
  }
}

/** A line as the person's input: empty passes; a vote may name a candidate or give its number. */
function inputOf(request: ClientPayload<"debate-awaiting-input">, line: string): PersonInput {
  const text = line.trim();
  // Each answer names its round: one that comes after its time ran out is not taken for the next question.
  const round = request.round;
  if (text === "") return { skip: true, round };
  if (request.kind === "turn") return { text, round };
  const n = Number(text);
  return { vote: Number.isInteger(n) && n >= 1 && n <= request.candidates.length ? request.candidates[n - 1] : text, round };
}
