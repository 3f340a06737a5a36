import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request as a fake server saw it. */
export interface SeenRequest {
  path: string;
  body: any;
  /** The Authorization header it came with. */
  authorization?: string;
  /** True when the client closed the connection before the answer was complete. */
  aborted: boolean;
  /** Whether the connection has closed (answered in full, or aborted): false while the answer is in flight. */
  closed?: boolean;
}

/** What the fake OpenAI endpoint answers to one chat completion. */
export interface Reply {
  text?: string;
  delayMs?: number;
  /** A stream's pause between its pieces (a word each), so that a fault can land in the middle of an answer. */
  pieceDelayMs?: number;
  toolCall?: { name: string; args: object };
  status?: number;
  /** With `status`: the error's OpenAI `code` (e.g. context_length_exceeded) and extra response headers (Retry-After). */
  errorCode?: string;
  headers?: Record<string, string>;
  /** What the provider reports it used (OpenAI's `usage`, with OpenRouter's `cost` if given); sent last when a stream asks for it. */
  usage?: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details?: { cached_tokens: number }; cost?: number };
}

/** A reply's usage as OpenAI writes it (with `total_tokens`). */
const usageOf = (r: Reply) => ({ ...r.usage, total_tokens: r.usage!.prompt_tokens + r.usage!.completion_tokens });

async function readBody(req: IncomingMessage): Promise<any> {
  let raw = "";
  for await (const chunk of req) raw += chunk;
  return raw ? JSON.parse(raw) : {};
}

/** Closes a server at once, dropping keep-alive and hanging connections. */
function closer(server: Server) {
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * A minimal OpenAI-compatible `/v1/chat/completions` on loopback, streaming (SSE) or not, that
 * records every request and whether the client aborted it; `models` makes it serve `GET /v1/models`
 * (`modelsStatus` answers that with an error status instead).
 */
export async function startFakeOpenAI(reply: (body: any) => Reply, options: { models?: string[]; modelsStatus?: number } = {}) {
  const seen: SeenRequest[] = [];
  /** The `GET /v1/models` requests (apart from `seen`, which holds the chat completions). */
  const seenModelLists: SeenRequest[] = [];
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    // `GET /v1/models`: the endpoint's model list, when it serves one.
    if (req.method === "GET" && req.url === "/v1/models") {
      seenModelLists.push({ path: req.url, body: null, authorization: req.headers.authorization, aborted: false });
      if (options.modelsStatus)
        return void res.writeHead(options.modelsStatus, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "refused" } }));
      if (!options.models) return void res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "no model list" } }));
      return void res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ object: "list", data: options.models.map((id) => ({ id, object: "model" })) }));
    }
    const body = await readBody(req);
    const entry: SeenRequest = { path: req.url ?? "", body, authorization: req.headers.authorization, aborted: false };
    seen.push(entry);
    let finished = false;
    res.on("close", () => {
      entry.aborted = !finished;
      entry.closed = true;
    });
    const r = reply(body);
    if (r.delayMs) await new Promise((resolve) => setTimeout(resolve, r.delayMs));
    if (res.destroyed) return;
    if (r.status && r.status >= 400) {
      finished = true;
      res
        .writeHead(r.status, { "content-type": "application/json", ...r.headers })
        .end(JSON.stringify({ error: { message: "fake failure", ...(r.errorCode ? { code: r.errorCode } : {}) } }));
      return;
    }
    const base = { id: "chatcmpl-1", created: 0, model: body.model };
    const toolCalls = r.toolCall
      ? [{ index: 0, id: "call_1", type: "function", function: { name: r.toolCall.name, arguments: JSON.stringify(r.toolCall.args) } }]
      : undefined;
    if (body.stream) {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const send = (delta: object, finish: string | null) =>
        res.write(`data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
      send({ role: "assistant", content: "" }, null);
      for (const piece of (r.text ?? "").match(/\S+\s*/g) ?? []) {
        if (r.pieceDelayMs) await new Promise((resolve) => setTimeout(resolve, r.pieceDelayMs));
        if (res.destroyed) return;
        send({ content: piece }, null);
      }
      if (toolCalls) send({ tool_calls: toolCalls }, null);
      send({}, toolCalls ? "tool_calls" : "stop");
      if (r.usage && body.stream_options?.include_usage)
        res.write(`data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [], usage: usageOf(r) })}\n\n`);
      finished = true;
      res.end("data: [DONE]\n\n");
    } else {
      finished = true;
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          ...base,
          object: "chat.completion",
          choices: [{ index: 0, message: { role: "assistant", content: r.text ?? "", tool_calls: toolCalls }, finish_reason: "stop" }],
          usage: r.usage ? usageOf(r) : { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    }
  });
  const url = await listen(server);
  return { baseURL: `${url}/v1`, seen, seenModelLists, close: closer(server) };
}

/** A fake Tavily `/search` on loopback returning `count` long results per query. */
export async function startFakeTavily(count = 5) {
  const seen: SeenRequest[] = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    seen.push({ path: req.url ?? "", body, aborted: false });
    const results = Array.from({ length: Math.min(count, body.max_results ?? count) + 2 }, (_, i) => ({
      title: `Result ${i} for ${body.query}`,
      url: `https://example.org/${encodeURIComponent(body.query)}/${i}`,
      content: `fact ${i} `.repeat(100),
      score: 0.9,
    }));
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ query: body.query, results, response_time: 0.01, images: [] }));
  });
  const url = await listen(server);
  return { url, seen, close: closer(server) };
}

/** A loopback server that accepts requests and never answers them. */
export async function startSilentServer() {
  const server = createServer(() => {});
  const url = await listen(server);
  return { url, close: closer(server) };
}

/** How the fake speech endpoint answers one request. */
export interface SpeechReply {
  /** PCM bytes to send (default: 2 bytes per input character, a recognisable ramp). */
  bytes?: number;
  /** Bytes per streamed write, with `gapMs` between writes. */
  writeBytes?: number;
  gapMs?: number;
  /** Fail with this HTTP status. */
  status?: number;
  /** Close the connection after this many bytes (a truncated stream). */
  truncateAfter?: number;
}

/** The PCM a fake speech server sends for a text: a deterministic pattern, so tests can compare. */
export function fakePcm(text: string, bytes = 2 * text.length): Buffer {
  const out = Buffer.alloc(bytes - (bytes % 2));
  for (let i = 0; i < out.length / 2; i++) out.writeInt16LE(((i * 37 + text.length) % 2000) - 1000, i * 2);
  return out;
}

/**
 * A fake OpenAI-compatible `POST /v1/audio/speech` on loopback that streams raw PCM in several
 * writes; it can be slow, fail, or cut the stream short. Records every request.
 */
export async function startFakeSpeech(reply: (body: any) => SpeechReply = () => ({})) {
  const seen: (SeenRequest & { headers: Record<string, string | string[] | undefined> })[] = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const entry: SeenRequest & { headers: Record<string, string | string[] | undefined> } = { path: req.url ?? "", body, aborted: false, headers: req.headers };
    seen.push(entry);
    let finished = false;
    res.on("close", () => {
      entry.aborted = !finished;
      entry.closed = true;
    });
    const r = reply(body);
    if (r.status) {
      finished = true;
      res.writeHead(r.status, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "fake speech failure" } }));
      return;
    }
    const pcm = fakePcm(body.input, r.bytes);
    const size = r.writeBytes ?? 1_000;
    res.writeHead(200, { "content-type": "application/octet-stream" });
    for (let at = 0; at < pcm.length; at += size) {
      if (r.truncateAfter !== undefined && at >= r.truncateAfter) {
        res.destroy();
        return;
      }
      if (at > 0 && r.gapMs) await new Promise((resolve) => setTimeout(resolve, r.gapMs));
      if (res.destroyed) return;
      res.write(pcm.subarray(at, at + size));
    }
    finished = true;
    res.end();
  });
  const url = await listen(server);
  return { baseURL: `${url}/v1`, seen, close: closer(server) };
}

/** What the fake transcription endpoint received: the headers and the multipart form's fields. */
export interface SeenTranscription {
  authorization: string | undefined;
  model: string;
  file: { name: string; type: string; bytes: Buffer };
}

/**
 * A fake OpenAI-compatible `POST /v1/audio/transcriptions` on loopback: it reads the multipart
 * form as the real one does and answers `{text}` (or fails with `status`). Records every request.
 */
export async function startFakeTranscription(
  reply: (seen: SeenTranscription) => { text?: string; status?: number } = () => ({ text: "Should cities ban cars?" }),
) {
  const seen: SeenTranscription[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = await new Request("http://fake", {
      method: "POST",
      headers: { "content-type": req.headers["content-type"] ?? "" },
      body: Buffer.concat(chunks),
    }).formData();
    const file = form.get("file") as File;
    const entry = {
      authorization: req.headers.authorization,
      model: String(form.get("model")),
      file: { name: file.name, type: file.type, bytes: Buffer.from(await file.arrayBuffer()) },
    };
    seen.push(entry);
    const r = reply(entry);
    if (r.status) res.writeHead(r.status, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "fake transcription failure" } }));
    else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ text: r.text }));
  });
  const url = await listen(server);
  return { baseURL: `${url}/v1`, seen, close: closer(server) };
}
