import { createParser } from "eventsource-parser";
import type { Source } from "../state/answer.js";
import type { CallTokens } from "../state/usage.js";

/**
 * How a streamed answer ended: whole (`stop`), cut by the token limit (`length`), held back by a
 * content filter, refused (the provider's `refusal`), asking for tools, cut off (the stream
 * stopped without an ending), or failed (an error in the stream, or no stream at all).
 */
export type Ending = "stop" | "length" | "content_filter" | "refused" | "tool_calls" | "cut_off" | "failed";

/** What one call's usage came to: its tokens (reasoning apart, and within `output_tokens`) and the provider's cost if it gave one. */
export type StreamUsage = CallTokens & { reasoning_tokens: number };

/** What one streamed answer came to. */
export interface StreamedAnswer {
  /** The answer, without any reasoning. */
  text: string;
  /** The reasoning, in whichever shape it came (reasoning fields, thinking parts, a `<think>` block). */
  reasoning: string;
  sources: Source[];
  ending: Ending;
  /** The provider's words for a refusal or an error. */
  message?: string;
  /** Counted once, whatever shape the provider sent it in; undefined when it sent none. */
  usage?: StreamUsage;
  /** The chat template opened the think block itself: only its end tag was in the content. */
  templateThinking?: boolean;
}

/** Where the pieces of a streamed answer go as they arrive. */
export interface StreamSink {
  text?(delta: string): void;
  reasoning?(delta: string): void;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

const OPEN = "<think>";
const CLOSE = "</think>";

/**
 * Splits a `<think>…</think>` block that opens an answer's content (a reasoning model served
 * without a reasoning parser: Qwen3 or a DeepSeek-R1 distill on Ollama, vLLM, llama.cpp, LM
 * Studio) from the answer, across chunk boundaries: a tag split over two chunks is held until it
 * is whole. Only a block at the start counts; later text is the answer as written.
 */
class ThinkSplitter {
  /**
   * Before anything was read; in the block; just after it (its blank lines are dropped); in the
   * answer; or in a block the chat template is known to open itself (its text held until its end
   * tag says it was thinking, or the stream's end says it was the answer).
   */
  private state: "start" | "thinking" | "after" | "answer" | "assumed";
  private held = "";
  /** The block a chat template opened itself was closed (its end tag came without its start). */
  closedOpened = false;

  constructor(
    private readonly out: { text(d: string): void; reasoning(d: string): void },
    assumeThinking = false,
  ) {
    this.state = assumeThinking ? "assumed" : "start";
  }

  push(delta: string): void {
    // Where a tag could begin that was not in what was held before (a long held block is not searched again).
    const from = Math.max(0, this.held.length - CLOSE.length);
    let rest = this.held + delta;
    this.held = "";
    while (rest) {
      if (this.state === "assumed") {
        const close = rest.indexOf(CLOSE, from);
        if (close < 0) return void (this.held = rest);
        this.out.reasoning(rest.slice(0, close).replace(/^\s*<think>/, ""));
        this.closedOpened = true;
        this.state = "after";
        rest = rest.slice(close + CLOSE.length);
        continue;
      }
      if (this.state === "answer") {
        this.out.text(rest);
        return;
      }
      if (this.state === "after") {
        rest = rest.replace(/^\s+/, "");
        if (rest) this.state = "answer";
        continue;
      }
      if (this.state === "start") {
        const trimmed = rest.trimStart();
        if (trimmed.startsWith(OPEN)) {
          this.state = "thinking";
          rest = trimmed.slice(OPEN.length);
          continue;
        }
        // Whitespace, or the tag's first characters: wait for more.
        if (trimmed === "" || OPEN.startsWith(trimmed)) return void (this.held = rest);
        this.state = "answer";
        continue;
      }
      const close = rest.indexOf(CLOSE);
      if (close >= 0) {
        if (close > 0) this.out.reasoning(rest.slice(0, close));
        this.state = "after";
        rest = rest.slice(close + CLOSE.length);
        continue;
      }
      // Keep back what could be the start of the closing tag.
      const keep = partialSuffix(rest, CLOSE);
      if (rest.length > keep) this.out.reasoning(rest.slice(0, rest.length - keep));
      this.held = rest.slice(rest.length - keep);
      return;
    }
  }

  /** The stream ended: what was held back goes where it was headed (an assumed block never closed was the answer). */
  end(): void {
    if (!this.held) return;
    if (this.state === "thinking") this.out.reasoning(this.held);
    else this.out.text(this.held);
    this.held = "";
  }
}

/** How many characters at the end of `text` begin `tag` (a tag split across chunks). */
function partialSuffix(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) if (tag.startsWith(text.slice(-n))) return n;
  return 0;
}

/**
 * Reads an OpenAI-compatible chat completion stream, chunk by chunk, in every shape providers
 * send it, into one answer: text and reasoning apart (`delta.reasoning_content`, `delta.reasoning`,
 * Mistral's thinking parts, a leading `<think>` block), the sources (Perplexity's `citations` and
 * `search_results`, OpenRouter's `url_citation` annotations), how it ended (finish reason, a
 * refusal, an error frame, no ending at all) and the usage counted once: the last figure sent
 * wins, whether it came in a last chunk without choices, in the chunk with the finish reason, as a
 * running total on every chunk, or under Groq's `x_groq`.
 */
export class StreamReader {
  private text = "";
  private reasoning = "";
  private readonly sources = new Map<string, Source>();
  /** Perplexity's `citations`, as last sent: `[n]` in its text is the n-th, repeats and all. */
  private citations: string[] | undefined;
  private finish: string | undefined;
  private refusal = "";
  private error: string | undefined;
  private usage: Json | undefined;
  private readonly think: ThinkSplitter;

  /**
   * `assumeThinking`: the model's chat template is known to open a think block itself, so its
   * content is held as thinking until the block's end tag (and is the answer if none comes).
   */
  constructor(
    private readonly sink: StreamSink = {},
    assumeThinking = false,
  ) {
    this.think = new ThinkSplitter(
      {
        text: (d) => {
          this.text += d;
          sink.text?.(d);
        },
        reasoning: (d) => {
          this.reasoning += d;
          sink.reasoning?.(d);
        },
      },
      assumeThinking,
    );
  }

  /** Reads one chunk: the JSON of one SSE `data:` line. */
  read(chunk: unknown): void {
    if (!isObject(chunk)) return;
    if (chunk.error !== undefined) {
      const e = chunk.error;
      this.error = isObject(e) && typeof e.message === "string" ? e.message : typeof e === "string" ? e : JSON.stringify(e);
      return;
    }
    const usage = isObject(chunk.usage) ? chunk.usage : isObject(chunk.x_groq) && isObject(chunk.x_groq.usage) ? chunk.x_groq.usage : undefined;
    if (usage) this.usage = usage;
    this.readSources(chunk);
    const choice = Array.isArray(chunk.choices) && isObject(chunk.choices[0]) ? chunk.choices[0] : undefined;
    if (!choice) return;
    const delta = isObject(choice.delta) ? choice.delta : isObject(choice.message) ? choice.message : {};
    for (const field of ["reasoning_content", "reasoning"] as const) {
      const r = delta[field];
      if (typeof r === "string" && r) this.addReasoning(r);
    }
    this.readContent(delta.content);
    if (typeof delta.refusal === "string") this.refusal += delta.refusal;
    if (Array.isArray(delta.annotations)) this.readAnnotations(delta.annotations);
    if (typeof choice.finish_reason === "string") this.finish = choice.finish_reason;
  }

  /** Text, or typed parts: `text`, and Mistral's `thinking` (itself a list of text parts). */
  private readContent(content: unknown): void {
    if (typeof content === "string") {
      if (content) this.think.push(content);
      return;
    }
    if (!Array.isArray(content)) return;
    for (const part of content) {
      if (!isObject(part)) continue;
      if (part.type === "text" && typeof part.text === "string") this.think.push(part.text);
      else if (part.type === "thinking") {
        const inner = Array.isArray(part.thinking) ? part.thinking : [part.thinking];
        for (const t of inner) this.addReasoning(typeof t === "string" ? t : isObject(t) && typeof t.text === "string" ? t.text : "");
      }
    }
  }

  /** Reasoning from a field of its own, or a thinking part (the splitter sees only content). */
  private addReasoning(delta: string): void {
    if (!delta) return;
    this.reasoning += delta;
    this.sink.reasoning?.(delta);
  }

  private readSources(chunk: Json): void {
    if (Array.isArray(chunk.search_results)) {
      for (const r of chunk.search_results)
        if (isObject(r) && typeof r.url === "string") this.addSource(r.url, typeof r.title === "string" ? r.title : undefined);
    }
    if (Array.isArray(chunk.citations)) this.citations = chunk.citations.filter((url): url is string => typeof url === "string");
  }

  /** The sources, numbered as the text cites them: the citations in their order (titled from the search results), else as they came. */
  private sourceList(): Source[] {
    if (!this.citations?.length) return [...this.sources.values()];
    const cited = this.citations.map((url) => this.sources.get(url) ?? { url });
    return [...cited, ...[...this.sources.values()].filter((s) => !this.citations!.includes(s.url))];
  }

  private readAnnotations(annotations: unknown[]): void {
    for (const a of annotations) {
      const c = isObject(a) && a.type === "url_citation" ? (isObject(a.url_citation) ? a.url_citation : a) : undefined;
      if (c && typeof c.url === "string") this.addSource(c.url, typeof c.title === "string" ? c.title : undefined);
    }
  }

  private addSource(url: string, title?: string): void {
    const known = this.sources.get(url);
    if (!known) this.sources.set(url, title ? { url, title } : { url });
    else if (title && !known.title) known.title = title;
  }

  /** The stream is over: `done` when it said so (`[DONE]`). What it came to. */
  end(done: boolean): StreamedAnswer {
    this.think.end();
    // A template that opened the think block itself leaves only its end in the answer.
    const closing = this.text.indexOf(CLOSE);
    let templateThinking = this.think.closedOpened;
    if (closing >= 0 && !this.text.slice(0, closing).includes(OPEN)) {
      this.reasoning += this.text.slice(0, closing);
      this.text = this.text.slice(closing + CLOSE.length).replace(/^\s+/, "");
      templateThinking = true;
    }
    const answer = {
      text: this.text,
      reasoning: this.reasoning,
      sources: this.sourceList(),
      usage: this.usage && usageOf(this.usage),
      ...(templateThinking ? { templateThinking } : {}),
    };
    if (this.error !== undefined) return { ...answer, ending: "failed", message: this.error };
    if (this.refusal) return { ...answer, ending: "refused", message: this.refusal };
    const ending: Ending | undefined =
      this.finish === undefined
        ? undefined
        : ((
            { stop: "stop", length: "length", content_filter: "content_filter", tool_calls: "tool_calls", function_call: "tool_calls" } as Record<
              string,
              Ending
            >
          )[this.finish] ?? "stop");
    return { ...answer, ending: ending ?? (done ? "stop" : "cut_off") };
  }
}

/**
 * A usage object in any provider's shape, as tokens and cost. Reasoning tokens are part of the
 * output: inside `completion_tokens` (OpenAI), or beside it (xAI, whose `total_tokens` then
 * exceeds prompt and completion together). Cost: OpenRouter's `cost` (USD), Perplexity's
 * `cost.total_cost`, xAI's `cost_in_usd_ticks` (10⁻¹⁰ USD).
 */
function usageOf(u: Json): StreamUsage {
  const input = num(u.prompt_tokens) ?? num(u.input_tokens) ?? 0;
  const completion = num(u.completion_tokens) ?? num(u.output_tokens) ?? 0;
  const total = num(u.total_tokens);
  const output = total !== undefined && total > input + completion ? total - input : completion;
  const promptDetails = isObject(u.prompt_tokens_details) ? u.prompt_tokens_details : {};
  const completionDetails = isObject(u.completion_tokens_details) ? u.completion_tokens_details : {};
  const cached = num(promptDetails.cached_tokens) ?? num(u.prompt_cache_hit_tokens) ?? 0;
  const reasoning = num(completionDetails.reasoning_tokens) ?? Math.max(0, output - completion);
  const cost =
    num(u.cost) ??
    (isObject(u.cost) ? num(u.cost.total_cost) : undefined) ??
    (num(u.cost_in_usd_ticks) === undefined ? undefined : num(u.cost_in_usd_ticks)! / 1e10);
  return { input_tokens: input, output_tokens: output, cached_tokens: cached, reasoning_tokens: reasoning, ...(cost === undefined ? {} : { cost_usd: cost }) };
}

/**
 * A chat completion's event stream fed to `reader` as its text arrives (`feed`, in pieces of any
 * size), then `end`: each `data:` line's JSON is read, `[DONE]` notes a whole stream, and a line
 * that is not JSON carries nothing to read.
 */
export class EventStreamFeed {
  private done = false;
  private readonly parser = createParser({
    onEvent: (event) => {
      if (event.data === "[DONE]") return void (this.done = true);
      let chunk: unknown;
      try {
        chunk = JSON.parse(event.data);
      } catch {
        // A line that is not JSON carries nothing to read.
        return;
      }
      // What the sink throws is the caller's to hear.
      this.reader.read(chunk);
    },
  });

  constructor(private readonly reader: StreamReader) {}

  feed(text: string): void {
    this.parser.feed(text);
  }

  /** The stream is over (or broke off, which its ending then says): what it came to. */
  end(): StreamedAnswer {
    return this.reader.end(this.done);
  }
}

/** Whether a response's content type is an event stream. */
export const isEventStream = (contentType: string): boolean => /text\/event-stream/i.test(contentType);

/**
 * The answer of a response that is not an event stream: a JSON body is read as one whole answer;
 * anything else (an HTML page with status 200, from a proxy or a login wall) is a failure that
 * says what came instead.
 */
export function notAStream(status: number, contentType: string, body: string, reader: StreamReader): StreamedAnswer {
  const text = body.trim();
  if (/json/i.test(contentType)) {
    try {
      reader.read(JSON.parse(text));
      return reader.end(true);
    } catch {
      // Not JSON after all: said below.
    }
  }
  return {
    text: "",
    reasoning: "",
    sources: [],
    ending: "failed",
    message: `the endpoint answered ${status} with ${contentType || "no content type"}, not an event stream${text ? ` (it begins: ${text.slice(0, 80).replace(/\s+/g, " ")})` : ""}`,
  };
}
