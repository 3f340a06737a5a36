import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { EventStreamFeed, isEventStream, notAStream, type StreamedAnswer, type StreamReader } from "./stream-reader.js";

/** Connections kept open between calls, per scheme, as `fetch` keeps them. */
const agents = { "http:": new http.Agent({ keepAlive: true }), "https:": new https.Agent({ keepAlive: true }) };

/**
 * POSTs `body` to `url` with Node's own HTTP client and resolves with the response once its head
 * has come. Rejects with the connection's error, or the signal's reason when it aborts.
 *
 * Not `fetch`: its web streams cost a streamed answer about twice the CPU of reading the same
 * bytes from the socket's `data` events (measured in `npm run bench:vote`), and a busy server reads
 * tens of thousands of chunks a second. Redirects are not followed; the caller names them.
 */
export function post(url: string, headers: Record<string, string>, body: string, signal?: AbortSignal, retried = false): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const target = new URL(url);
    const client = target.protocol === "https:" ? https : http;
    const req = client.request(target, {
      method: "POST",
      agent: agents[target.protocol as keyof typeof agents],
      headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
    });
    const onAbort = () => req.destroy(signal!.reason instanceof Error ? signal!.reason : new Error(String(signal!.reason)));
    signal?.addEventListener("abort", onAbort, { once: true });
    req.once("response", (res) => {
      signal?.removeEventListener("abort", onAbort);
      resolve(res);
    });
    req.once("error", (err: NodeJS.ErrnoException) => {
      signal?.removeEventListener("abort", onAbort);
      if (signal?.aborted) return reject(signal.reason);
      // A kept-alive connection the server closed just as it was reused: the request never reached
      // it, so it is sent once more on a new connection (Node's documented pattern).
      if (req.reusedSocket && err.code === "ECONNRESET" && !retried) return resolve(post(url, headers, body, signal, true));
      reject(err);
    });
    req.end(body);
  });
}

/**
 * A response's whole body as text (an error's, or one that is not a stream); what came before a
 * broken connection. Rejects with the signal's reason when it aborts, closing the response.
 */
export function bodyText(res: IncomingMessage, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const onAbort = () => {
      res.destroy();
      reject(signal!.reason);
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    const done = () => {
      signal?.removeEventListener("abort", onAbort);
      resolve(text);
    };
    res.setEncoding("utf8");
    res.on("data", (piece: string) => (text += piece));
    res.once("end", done);
    res.once("close", done);
  });
}

/**
 * Reads a chat completion's response into `reader` as its bytes arrive: an event stream through
 * `EventStreamFeed`, anything else through `notAStream`. A connection that breaks keeps what
 * arrived (its ending says it was cut off); an abort rejects with the signal's reason.
 */
export async function readStream(res: IncomingMessage, reader: StreamReader, signal?: AbortSignal): Promise<StreamedAnswer> {
  const type = String(res.headers["content-type"] ?? "");
  if (!isEventStream(type)) return notAStream(res.statusCode ?? 0, type, await bodyText(res, signal), reader);
  const feed = new EventStreamFeed(reader);
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (err?: unknown) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", onAbort);
      if (err !== undefined) {
        res.destroy();
        return reject(err);
      }
      try {
        resolve(feed.end());
      } catch (thrown) {
        reject(thrown);
      }
    };
    const onAbort = () => settle(signal!.reason);
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    res.setEncoding("utf8");
    res.on("data", (piece: string) => {
      try {
        feed.feed(piece);
      } catch (err) {
        settle(err);
      }
    });
    res.once("end", () => settle());
    // Closed without its end: the connection broke.
    res.once("close", () => settle(signal?.aborted ? signal.reason : undefined));
    res.on("error", () => settle(signal?.aborted ? signal.reason : undefined));
  });
}
