import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A chat completion request as the endpoint recorded it. */
export interface RecordedRequest {
  model: string;
  messages: { role: string; content: unknown }[];
}

/** The text of a recorded request's messages, in order, as a provider's prompt cache sees it. */
export function promptText(r: RecordedRequest): string {
  return r.messages.map((m) => `${m.role}\n${typeof m.content === "string" ? m.content : JSON.stringify(m.content)}`).join("\n");
}

/** The length of the longest common prefix of two texts. */
export function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** A scripted reply: its text, how long before its first chunk, and the pause between chunks. */
export interface ScriptedReply {
  text: string;
  firstChunkMs?: number;
  chunkMs?: number;
}

/** Words for a scripted answer of `n` words. */
export function words(n: number, seed = 0): string {
  return Array.from({ length: n }, (_, i) => ["debatt", "model", "argument", "evidence", "policy", "risk", "cost", "benefit"][(i + seed) % 8]).join(" ");
}

/**
 * A scripted OpenAI-compatible `/v1/chat/completions` on loopback, for benchmarks: it records every
 * request, streams the scripted reply one word per chunk (as real providers stream), and reports
 * usage with the provider-side prompt cache a model's previous request would have left:
 * `prompt_tokens_details.cached_tokens` is the prefix it shares with that model's last request
 * (at about four characters per token).
 */
export async function startScriptedEndpoint(
  reply: (r: RecordedRequest) => ScriptedReply,
): Promise<{ url: string; requests: RecordedRequest[]; close(): Promise<void> }> {
  const requests: RecordedRequest[] = [];
  const lastPrompt = new Map<string, string>();
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    // The model list the server asks for at start-up: this endpoint serves none.
    if (req.method !== "POST") return void res.writeHead(404, { "content-type": "application/json" }).end('{"error": {"message": "no model list"}}');
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw || "{}") as RecordedRequest & { stream?: boolean };
    const recorded = { model: body.model, messages: body.messages };
    requests.push(recorded);
    const prompt = promptText(recorded);
    const cached = Math.floor(commonPrefix(lastPrompt.get(body.model) ?? "", prompt) / 4);
    lastPrompt.set(body.model, prompt);
    const r = reply(recorded);
    const usage = {
      prompt_tokens: Math.ceil(prompt.length / 4),
      completion_tokens: Math.ceil(r.text.length / 4),
      total_tokens: 0,
      prompt_tokens_details: { cached_tokens: cached },
    };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    const base = { id: "chatcmpl-bench", created: 0, model: body.model };
    if (r.firstChunkMs) await new Promise((resolve) => setTimeout(resolve, r.firstChunkMs));
    if (!body.stream) {
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          ...base,
          object: "chat.completion",
          choices: [{ index: 0, message: { role: "assistant", content: r.text }, finish_reason: "stop" }],
          usage,
        }),
      );
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    const send = (payload: object) => res.write(`data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", ...payload })}\n\n`);
    send({ choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] });
    for (const piece of r.text.match(/\S+\s*/g) ?? []) {
      if (r.chunkMs) await new Promise((resolve) => setTimeout(resolve, r.chunkMs));
      send({ choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
    }
    send({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
    send({ choices: [], usage });
    res.end("data: [DONE]\n\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
