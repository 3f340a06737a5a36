import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { HumanMessage } from "@langchain/core/messages";
import { Annotation, StateGraph, START, END, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { afterEach, describe, expect, it } from "vitest";
import { answerOrFailure, streamMessage } from "../nodes/shared/model-call.js";
import { post, readStream } from "../providers/http-post.js";
import { SimulatedChatModel } from "../providers/simulated.js";
import { EndpointError, StreamChatModel } from "../providers/stream-chat-model.js";
import { StreamReader } from "../providers/stream-reader.js";
import { CORE_ANSWERS } from "../providers/simulated/dispatch.js";
import type { PhaseTable } from "../providers/simulated/context.js";

/** Counts what LangChain's callbacks hear of a call. */
class Counter extends BaseCallbackHandler {
  name = "counter";
  tokens: string[] = [];
  ends = 0;
  constructor(readonly lc_prefer_streaming = false) {
    super();
    this.awaitHandlers = true;
  }
  override handleLLMNewToken(token: string): void {
    this.tokens.push(token);
  }
  override handleLLMEnd(): void {
    this.ends++;
  }
}

/** The simulated provider's model, answering `words` words one per piece, `chunkDelayMs` apart. */
const simulated = (words: number, chunkDelayMs = 0) =>
  new SimulatedChatModel({ phase: "supervisor", topic: "Why?" }, { latencyMs: 0, chunkDelayMs, chunkTokens: 1 }, {
    ...CORE_ANSWERS,
    supervisor: () => Array.from({ length: words }, (_, i) => `word${i}`).join(" "),
  } as unknown as PhaseTable);

describe("a model that hands its text to the call's onText", () => {
  it("gives each piece to onText and none to LangChain's callbacks, which still hear the call end", async () => {
    const pieces: string[] = [];
    const counter = new Counter();
    const model = simulated(30);
    const answer = await model.invoke([new HumanMessage("Why?")], { onText: (t: string) => pieces.push(t), callbacks: [counter] });
    expect(pieces).toHaveLength(30);
    expect(pieces.join("")).toBe(answer.content);
    expect(counter.tokens).toEqual([]);
    expect(counter.ends).toBe(1);
    expect(answer.usage_metadata?.output_tokens).toBeGreaterThan(0);
  });

  it("streams through the callbacks when a handler prefers streaming, and to onText as well", async () => {
    const pieces: string[] = [];
    const counter = new Counter(true);
    const answer = await simulated(12).invoke([new HumanMessage("Why?")], { onText: (t: string) => pieces.push(t), callbacks: [counter] });
    expect(counter.tokens).toHaveLength(12);
    expect(pieces).toEqual(counter.tokens);
    expect(counter.tokens.join("")).toBe(answer.content);
  });

  it("streams in LangGraph's messages mode (Studio) while the node's events get the same text", async () => {
    const State = Annotation.Root({ text: Annotation<string>() });
    const graph = new StateGraph(State)
      .addNode("speak", async (_s: typeof State.State, config: LangGraphRunnableConfig) => {
        const answer = await streamMessage(simulated(8, 1), [new HumanMessage("Why?")], new AbortController().signal, (d) => config.writer?.(d));
        return { text: String(answer.content) };
      })
      .addEdge(START, "speak")
      .addEdge("speak", END)
      .compile();
    const messages: string[] = [];
    const custom: string[] = [];
    for await (const [mode, chunk] of await graph.stream({ text: "" }, { streamMode: ["messages", "custom"] })) {
      if (mode === "messages") messages.push(String((chunk as unknown as [{ content: unknown }])[0].content));
      else custom.push(chunk as string);
    }
    expect(custom).toHaveLength(8);
    expect(messages.filter((m) => m !== "")).toEqual(custom);
  });

  it("stops at once when the call is aborted, with the signal's reason", async () => {
    const controller = new AbortController();
    const pieces: string[] = [];
    const call = simulated(50, 20).invoke([new HumanMessage("Why?")], {
      signal: controller.signal,
      onText: (t: string) => (pieces.push(t), pieces.length === 3 && controller.abort(new Error("stop now"))),
    });
    await expect(call).rejects.toThrow(/stop now|abort/i);
    expect(pieces).toHaveLength(3);
  });
});

/** A loopback endpoint whose reply is `handle`'s; it counts the connections it accepted. */
async function endpoint(handle: (res: ServerResponse, body: string) => void): Promise<{ url: string; connections: number; close(): Promise<void> }> {
  const state = { connections: 0 };
  const sockets = new Set<Socket>();
  const server: Server = createServer(async (req, res) => {
    let body = "";
    for await (const piece of req) body += piece;
    handle(res, body);
  });
  server.on("connection", (s: Socket) => {
    state.connections++;
    sockets.add(s);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    get connections() {
      return state.connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const chunk = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

/** An endpoint's answer: the whole stream of `pieces`, then `[DONE]`. */
const whole =
  (...pieces: string[]) =>
  (res: ServerResponse) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(`${pieces.map(chunk).join("")}data: [DONE]\n\n`);
  };

describe("the provider's stream over Node's HTTP client", () => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((e) => e.close()));
  });

  it("reuses one connection for calls one after another", async () => {
    const e = await endpoint(whole("Hej ", "då."));
    open.push(e);
    const model = new StreamChatModel({ baseUrl: e.url, apiKey: "sk-test", model: "m" });
    for (let i = 0; i < 3; i++) expect((await model.invoke([new HumanMessage("Hi")])).content).toBe("Hej då.");
    expect(e.connections).toBe(1);
  });

  it("keeps what came before a broken connection, and says it was cut off", async () => {
    const e = await endpoint((res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(chunk("Halva "));
      res.write(chunk("svaret"), () => setTimeout(() => res.socket?.destroy(), 20));
    });
    open.push(e);
    const res = await post(`${e.url}/chat/completions`, { "content-type": "application/json" }, "{}");
    const pieces: string[] = [];
    const answer = await readStream(res, new StreamReader({ text: (t) => pieces.push(t) }));
    expect(answer).toMatchObject({ text: "Halva svaret", ending: "cut_off" });
    expect(pieces.join("")).toBe("Halva svaret");
  });

  it("rejects with the signal's reason when aborted mid-stream, and closes the connection", async () => {
    let closed = false;
    const e = await endpoint((res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(chunk("Början "));
      res.on("close", () => (closed = true));
    });
    open.push(e);
    const controller = new AbortController();
    const res = await post(`${e.url}/chat/completions`, { "content-type": "application/json" }, "{}", controller.signal);
    const reading = readStream(res, new StreamReader({ text: () => controller.abort(new Error("the run was cancelled")) }), controller.signal);
    await expect(reading).rejects.toThrow("the run was cancelled");
    await expect.poll(() => closed).toBe(true);
  });

  it("names where a redirect points (without its query) instead of following it", async () => {
    const e = await endpoint((res) => res.writeHead(308, { location: "https://api.example.com/v1/chat/completions?key=secret" }).end());
    open.push(e);
    const model = new StreamChatModel({ baseUrl: e.url, apiKey: "sk-test", model: "m" });
    const err = await model.invoke([new HumanMessage("Hi")]).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(EndpointError);
    expect((err as EndpointError).status).toBe(308);
    expect((err as Error).message).toContain("redirects to https://api.example.com/v1/chat/completions");
    expect((err as Error).message).not.toContain("secret");
  });

  it("reads an error's JSON body, its code and its headers", async () => {
    const e = await endpoint((res) =>
      res
        .writeHead(429, { "content-type": "application/json", "retry-after": "3" })
        .end(JSON.stringify({ error: { message: "slow down", code: "rate_limit" } })),
    );
    open.push(e);
    const model = new StreamChatModel({ baseUrl: e.url, apiKey: "sk-test", model: "m" });
    const err = (await model.invoke([new HumanMessage("Hi")]).catch((x: unknown) => x)) as EndpointError;
    expect(err).toMatchObject({ status: 429, code: "rate_limit", message: "429 slow down" });
    expect(err.headers?.["retry-after"]).toBe("3");
  });

  it("tells the caller when what it does with the text fails, instead of dropping the piece", async () => {
    const e = await endpoint(whole("Ett ", "två."));
    open.push(e);
    const model = new StreamChatModel({ baseUrl: e.url, apiKey: "sk-test", model: "m" });
    const onText = () => {
      throw new Error("the coalescer broke");
    };
    await expect(model.invoke([new HumanMessage("Hi")], { onText })).rejects.toThrow("the coalescer broke");
  });

  it("stops reading an error's body when the call is stopped", async () => {
    const e = await endpoint((res) => {
      // An error whose body never ends.
      res.writeHead(500, { "content-type": "application/json" });
      res.write('{"error": ');
    });
    open.push(e);
    const model = new StreamChatModel({ baseUrl: e.url, apiKey: "sk-test", model: "m" });
    // The body never ends: only the stop can end the call.
    const err = await model.invoke([new HumanMessage("Hi")], { signal: AbortSignal.timeout(200) }).catch((x: unknown) => x);
    expect((err as Error).name).toMatch(/TimeoutError|AbortError/);
  });

  it("sends a request once more when the server closed the kept-alive connection just as it was reused", async () => {
    let requests = 0;
    const e = await endpoint((res, body) => {
      requests++;
      // The second request, on the connection the first left open: closed before any answer.
      if (requests === 2) return void res.socket?.destroy();
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`${chunk(body.length > 0 ? "Svar." : "")}data: [DONE]\n\n`);
    });
    open.push(e);
    const model = new StreamChatModel({ baseUrl: e.url, apiKey: "sk-test", model: "m" });
    expect((await model.invoke([new HumanMessage("Hi")])).content).toBe("Svar.");
    expect((await model.invoke([new HumanMessage("Hi")])).content).toBe("Svar.");
    expect(requests).toBe(3);
    expect(e.connections).toBe(2);
  });
});

describe("a call that has ended", () => {
  it("takes no more text from a model that goes on streaming after its stop", async () => {
    const sent: string[] = [];
    let late: ((delta: string) => void) | undefined;
    const controller = new AbortController();
    const answer = answerOrFailure(5_000, controller.signal, { push: (d) => sent.push(d), flush: () => {} }, (_signal, onDelta) => {
      onDelta("Före ");
      late = onDelta;
      // A model that ignores its signal: it never ends by itself.
      return new Promise<string>(() => {});
    });
    controller.abort(new Error("stopped"));
    await expect(answer).rejects.toThrow();
    late?.("efter.");
    expect(sent).toEqual(["Före "]);
  });
});
