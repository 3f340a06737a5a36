import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

/** The folder of recorded provider streams: one `.sse` file per provider shape, each opening with a comment saying where the shape comes from. */
export const STREAMS = fileURLToPath(new URL("../fixtures/streams/", import.meta.url));

/** A recorded stream's text. */
export function recorded(name: string): string {
  return readFileSync(`${STREAMS}${name}`, "utf8");
}

/** The answer every recorded stream gives, split over its chunks in the provider's shape. */
export const RECORDED_ANSWER = "Kärnkraft behövs i övergången, men förnybart ska bära systemet.";

/** The answer's first piece, which the new answer takes the place of (a trailing space with it). */
const HEAD = /Kärnkraft behövs ?/;
/** The rest of the answer, in the pieces the fixtures split it into: removed wherever they stand. */
const TAIL = ["i övergången, men ", "förnybart ska bära systemet."];

/** Every string of a JSON value passed through `f` (keys are left as they are). */
function mapStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === "string") return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]));
  return value;
}

/**
 * A recorded stream with its answer replaced by `answer`, its shape kept: the same events in the
 * same order (comments, role chunk, reasoning in whichever field or part it came, `<think>` tags,
 * annotations, usage, `[DONE]`). Each `data:` chunk is parsed and every string in it mapped: the
 * answer's first piece ("Kärnkraft behövs") becomes `answer`, its other pieces ("i övergången, men ",
 * "förnybart ska bära systemet.") are removed, so the chunk that carried the answer's start carries
 * the whole new answer and those that carried the rest carry an empty string. Chunks without a
 * piece of the answer are written as recorded; changed ones are written anew as JSON, so any
 * answer (newlines, quotes, backslashes, a fenced JSON block) goes through intact. Holds for the
 * shapes whose answer is the recorded sentence alone (not Perplexity's, whose `[n]` markers stay).
 */
export function withAnswer(stream: string, answer: string): string {
  const substitute = (s: string) => TAIL.reduce((rest, piece) => rest.replaceAll(piece, ""), s).replace(HEAD, () => answer);
  return stream
    .split("\n")
    .map((line) => {
      const data = /^data: ?(.*)$/.exec(line)?.[1];
      if (data === undefined || data === "[DONE]" || !(HEAD.test(data) || TAIL.some((p) => data.includes(p)))) return line;
      return `data: ${JSON.stringify(mapStrings(JSON.parse(data), substitute))}`;
    })
    .join("\n");
}

/**
 * What a replayed model answers a request with: a text (the model's recorded stream is replayed
 * with this text as its answer, see `withAnswer`), or undefined for the recorded answer itself.
 * It is given the request's body as the client sent it (`model`, `messages`, …).
 */
export type AnswerFor = (body: any) => string | undefined;

/**
 * An OpenAI-compatible endpoint on a free loopback port that answers each model id with a
 * recorded stream (`streams[model]`, a file of tests/fixtures/streams), as the provider sent it:
 * its comments, its chunks and its `[DONE]`, written an event at a time; an `.html` file is
 * answered as the HTML page it is, with status 200. What the client sent is kept (`seen`, in the
 * order the requests came).
 *
 * With `answerFor`, a request for which it returns a text is answered with the model's recorded
 * stream carrying that text as its answer in the provider's shape (`withAnswer`): a vote, a
 * verdict or a JSON argument after the shape's reasoning, `<think>` block or thinking parts, with
 * the shape's usage. Without it, or when it returns undefined, the recorded answer is replayed.
 */
export async function startReplayProvider(
  streams: Record<string, string>,
  answerFor?: AnswerFor,
): Promise<{ baseURL: string; seen: any[]; close: () => Promise<void> }> {
  const seen: any[] = [];
  const server: Server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const body = raw ? JSON.parse(raw) : {};
    seen.push(body);
    const file = streams[body.model];
    if (!file) {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `no endpoints found for ${body.model}`, code: 404 } }));
      return;
    }
    if (file.endsWith(".html")) return void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(recorded(file));
    const answer = answerFor?.(body);
    const text = answer === undefined ? recorded(file) : withAnswer(recorded(file), answer);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (const event of text.split("\n\n")) {
      if (!event.trim()) continue;
      res.write(`${event}\n\n`);
      await new Promise((r) => setImmediate(r));
    }
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const close = () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections()));
  return { baseURL, seen, close };
}
