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

/**
 * An OpenAI-compatible endpoint on a free loopback port that answers each model id with a
 * recorded stream (`streams[model]`, a file of tests/fixtures/streams), as the provider sent it:
 * its comments, its chunks and its `[DONE]`, written an event at a time; an `.html` file is
 * answered as the HTML page it is, with status 200. What the client sent is kept.
 */
export async function startReplayProvider(streams: Record<string, string>): Promise<{ baseURL: string; seen: any[]; close: () => Promise<void> }> {
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
    const text = recorded(file);
    if (file.endsWith(".html")) return void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(text);
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
