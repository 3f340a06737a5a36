import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ChatHistoryItem } from "node-llama-cpp";
import { pathToFileURL } from "node:url";
import { LlamaEngine } from "./llama-engine.js";
import { chatRequestSchema, historyOf, samplingOf, type ChatRequest } from "./llama-request.js";
import {
  completion,
  completionId,
  contentChunk,
  errorBody,
  errorTypes,
  exceedContextBody,
  finalChunks,
  modelList,
  roleChunk,
  timingsOf,
  usageOf,
  type ErrorType,
  type ResponseIds,
} from "./llama-wire.js";

export { modelPaths, missingModelsReason, modelsDir, REAL_ROSTER } from "./model-paths.js";

/** What `startLlamaServer` is given. */
export interface LlamaServerOptions {
  /** Model ids (as clients name them in `model`) to .gguf paths. */
  models: Record<string, string>;
  /** Tokens of context per model, prompt and answer together. Defaults to 4096. */
  contextSize?: number;
  /** CPU threads for llama.cpp. Defaults to 1 (see `EngineOptions.threads`). */
  threads?: number;
  /** The port to listen on, on 127.0.0.1. Defaults to 0: a free one. */
  port?: number;
}

/** What the server reported one finished chat completion used, in the order they finished. */
export interface ReportedUsage {
  model: string;
  prompt_tokens: number;
  completion_tokens: number;
}

/** A running test llama server. */
export interface LlamaServer {
  /** `http://127.0.0.1:<port>`; the OpenAI base URL is this plus `/v1`. */
  url: string;
  /** The usage of every completion it answered whole, as it reported it (the tests compare what a client counted). */
  reported: ReportedUsage[];
  /** Closes the connections and the server, stops generating, and frees the models. */
  close(): Promise<void>;
}

const maxBodyBytes = 16 * 1024 * 1024;

/**
 * Starts an OpenAI-compatible chat-completions server over real small language models on loopback,
 * answering in the shapes of llama.cpp's `llama-server`: `GET /v1/models`, `POST
 * /v1/chat/completions` streaming (SSE chunks, the usage chunk on `stream_options.include_usage`,
 * `data: [DONE]`) or not, `GET /health` and a reduced `GET /slots` (whether a generation runs, its
 * tokens so far). Generations run one at a time; a closed connection
 * stops its own. Loads the models first (seconds); nothing is downloaded or built.
 */
export async function startLlamaServer(options: LlamaServerOptions): Promise<LlamaServer> {
  const engine = await LlamaEngine.load(options);
  const reported: ReportedUsage[] = [];
  const server = createServer((req, res) => {
    route(engine, req, res, reported).catch((error: unknown) => fail(res, "server_error", error instanceof Error ? error.message : String(error)));
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
    });
  } catch (error) {
    await engine.dispose();
    throw error;
  }
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await engine.dispose();
    })());
  return { url, reported, close };
}

async function route(engine: LlamaEngine, req: IncomingMessage, res: ServerResponse, reported: ReportedUsage[]): Promise<void> {
  const path = new URL(req.url ?? "/", "http://localhost").pathname;
  if (req.method === "GET" && (path === "/v1/models" || path === "/models")) return send(res, 200, modelList(engine.list()));
  if (req.method === "GET" && path === "/health") return send(res, 200, { status: "ok" });
  if (req.method === "GET" && path === "/slots") return send(res, 200, [{ id: 0, n_ctx: engine.contextSize, ...engine.slot() }]);
  if (req.method === "POST" && (path === "/v1/chat/completions" || path === "/chat/completions")) return chatCompletions(engine, req, res, reported);
  fail(res, "not_found_error", "File Not Found");
}

async function chatCompletions(engine: LlamaEngine, req: IncomingMessage, res: ServerResponse, reported: ReportedUsage[]): Promise<void> {
  let body: unknown;
  try {
    body = JSON.parse(await readBody(req));
  } catch (error) {
    return fail(res, "invalid_request_error", `invalid JSON body: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = chatRequestSchema.safeParse(body);
  if (!parsed.success) return fail(res, "invalid_request_error", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  const request = parsed.data;
  const model = request.model ?? engine.list()[0]?.id ?? "";
  if (!engine.has(model)) return fail(res, "not_found_error", `model '${model}' not found`);
  const history = historyOf(request);
  const promptTokens = engine.promptTokens(model, history);
  if (promptTokens >= engine.contextSize) return send(res, 400, exceedContextBody(promptTokens, engine.contextSize));

  const aborted = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) aborted.abort();
  });
  const ids: ResponseIds = { id: completionId(), model, created: Math.floor(Date.now() / 1000), system_fingerprint: engine.fingerprint() };
  const report = (promptTokens: number, completionTokens: number) => reported.push({ model, prompt_tokens: promptTokens, completion_tokens: completionTokens });
  if (request.stream) return stream(engine, request, history, ids, res, aborted.signal, report);

  const result = await engine.generate(model, history, samplingOf(request), () => {}, aborted.signal);
  if (aborted.signal.aborted) return;
  const timings = timingsOf(result.promptTokens, result.cachedTokens, result.promptMs, result.completionTokens, result.generationMs);
  report(result.promptTokens, result.completionTokens);
  send(res, 200, completion(ids, result.text, result.finishReason, usageOf(result.promptTokens, result.completionTokens), timings));
}

/** Answers as SSE: the role chunk once generation starts, a chunk per piece of text, then the end. */
async function stream(
  engine: LlamaEngine,
  request: ChatRequest,
  history: ChatHistoryItem[],
  ids: ResponseIds,
  res: ServerResponse,
  signal: AbortSignal,
  report: (promptTokens: number, completionTokens: number) => void,
): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  res.flushHeaders();
  const write = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
  let started = false;
  const onText = (text: string) => {
    if (!started) write(roleChunk(ids));
    started = true;
    write(contentChunk(ids, text));
  };
  try {
    const result = await engine.generate(ids.model, history, samplingOf(request), onText, signal);
    if (signal.aborted) return;
    if (!started) write(roleChunk(ids));
    const usage = usageOf(result.promptTokens, result.completionTokens);
    report(result.promptTokens, result.completionTokens);
    const timings = timingsOf(result.promptTokens, result.cachedTokens, result.promptMs, result.completionTokens, result.generationMs);
    for (const chunk of finalChunks(ids, result.finishReason, usage, timings, request.stream_options?.include_usage === true)) write(chunk);
  } catch (error) {
    // After the headers, llama-server reports a failure as an `error` data line.
    write(errorBody("server_error", error instanceof Error ? error.message : String(error)));
  }
  res.end("data: [DONE]\n\n");
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) req.destroy(new Error("body too large"));
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

function fail(res: ServerResponse, type: ErrorType, message: string): void {
  send(res, errorTypes[type], errorBody(type, message));
}

/** `tsx tests/support/llama-server.ts --model smollm2=/path/x.gguf [--model …] [--port 8081] [--ctx-size 4096] [--threads 1]` */
async function main(argv: string[]): Promise<void> {
  const models: Record<string, string> = {};
  let port = 8081;
  let contextSize: number | undefined;
  let threads: number | undefined;
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value = ""] = [argv[i], argv[i + 1]];
    if (flag === "--model" && value.includes("=")) models[value.slice(0, value.indexOf("="))] = value.slice(value.indexOf("=") + 1);
    else if (flag === "--port") port = Number(value);
    else if (flag === "--ctx-size") contextSize = Number(value);
    else if (flag === "--threads") threads = Number(value);
    else throw new Error(`unknown argument ${flag}; usage: --model id=path.gguf [--port N] [--ctx-size N] [--threads N]`);
  }
  if (!Object.keys(models).length) throw new Error("give at least one --model id=path.gguf");
  const server = await startLlamaServer({ models, port, contextSize, threads });
  console.log(`llama test server on ${server.url}/v1 serving ${Object.keys(models).join(", ")}`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
