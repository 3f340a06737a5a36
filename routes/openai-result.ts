import type { Write } from "../service/narration.js";
import type { Settings } from "../state/config.js";
import type { ResultShape } from "./openai-request.js";

/** Characters a token is taken to be, for a token limit on the result (the usual figure for English and Swedish). */
const CHARS_PER_TOKEN = 4;

/**
 * The result as a client asked for it: cut at its first stop sequence (`finish_reason: "stop"`),
 * or at its token limit (`"length"`, counted at four characters a token). Text that could begin
 * a stop sequence is held back until the next piece shows whether it does.
 */
export class ResultLimit {
  private all = "";
  private sent = 0;
  /** Why the result ended early, once it has. */
  ended: "stop" | "length" | undefined;
  private readonly hold: number;
  private readonly maxChars: number;

  constructor(private readonly shape: Pick<ResultShape, "maxTokens" | "stop">) {
    this.hold = Math.max(0, ...shape.stop.map((s) => s.length - 1));
    this.maxChars = shape.maxTokens ? shape.maxTokens * CHARS_PER_TOKEN : Infinity;
  }

  /** Takes the next piece of the result; returns what may be sent now. */
  push(text: string): string {
    if (this.ended) return "";
    this.all += text;
    return this.take(false);
  }

  /** The result is complete: what was held back. */
  flush(): string {
    return this.ended ? "" : this.take(true);
  }

  private take(final: boolean): string {
    let end = final ? this.all.length : this.all.length - this.hold;
    const from = Math.max(0, this.sent - this.hold);
    for (const stop of this.shape.stop) {
      const at = this.all.indexOf(stop, from);
      if (at >= 0 && at <= end) {
        end = at;
        this.ended = "stop";
      }
    }
    if (end > this.maxChars) {
      end = this.maxChars;
      this.ended = "length";
    }
    const out = end > this.sent ? this.all.slice(this.sent, end) : "";
    this.sent = Math.max(this.sent, end);
    return out;
  }
}

/** What a completion sends, as it goes: progress (reasoning or content) and the result (content). */
export interface Delta {
  content?: string;
  reasoning_content?: string;
}

/**
 * Writes a run's narration as a completion: all the progress before the first content (as
 * `reasoning_content`, inside a `<think>` block of the content, or not at all), then the result as
 * the content, within its limits. Progress told after the result has begun is not sent between
 * its pieces: it is kept (`after`) for the completion's last chunk. With a JSON result the
 * narrated result is kept (`answer`), to be written as JSON at the end.
 */
export function completionWriter(mode: Settings["openaiProgress"], shape: ResultShape, send: (delta: Delta) => void) {
  const limit = new ResultLimit(shape);
  let thinking = false;
  let resulted = false;
  let answer = "";
  let after = "";
  const closeThink = () => {
    if (thinking) send({ content: "\n</think>\n\n" });
    thinking = false;
  };
  const write: Write = (text, part = "progress") => {
    // The result begins anew (its step ran again after its run was taken up): a JSON result is written
    // from the new text alone; a streamed one cannot be taken back, so a rule marks where the new one begins.
    if (part === "result-again" && resulted) {
      if (shape.json) answer = "";
      else {
        const rule = limit.push("\n\n---\n\n");
        if (rule) send({ content: rule });
      }
    }
    if (part === "result" || part === "result-again") {
      resulted = true;
      if (shape.json) return void (answer += text);
      closeThink();
      const out = limit.push(text);
      if (out) send({ content: out });
    } else if (resulted) after += text;
    else if (mode === "reasoning") send({ reasoning_content: text });
    else if (mode === "think") {
      if (!thinking) send({ content: "<think>\n" });
      thinking = true;
      send({ content: text });
    }
  };
  return {
    write,
    /** The run is over: closes an open `<think>` block and sends what the limits held back. */
    end(): void {
      closeThink();
      const out = limit.flush();
      if (out) send({ content: out });
    },
    /** Sends a result written whole at the end (a JSON result), within the limits. */
    sendResult(text: string): void {
      const out = limit.push(text) + limit.flush();
      if (out) send({ content: out });
    },
    /** Whether any of the result was told. */
    get resulted() {
      return resulted;
    },
    /** The narrated result, kept for a JSON result. */
    get answer() {
      return answer;
    },
    /** What the narration told after the result had begun (the title, the cost…). */
    get after() {
      return after.trim();
    },
    /** `finish_reason`: `length` when the token limit cut the result, else `stop`. */
    get finishReason(): "stop" | "length" {
      return limit.ended === "length" ? "length" : "stop";
    },
  };
}
