import { spawn, type ChildProcess } from "node:child_process";
import { Client, type Message } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./support/redis.js";

let server: ChildProcess;
let apiUrl: string;
let output = "";

beforeAll(async () => {
  const port = await freePort();
  apiUrl = `http://127.0.0.1:${port}`;
  server = spawn("npx", ["--no-install", "langgraphjs", "dev", "--port", String(port), "--host", "127.0.0.1", "--no-browser"], {
    env: { ...process.env, LANGGRAPH_CLI_NO_ANALYTICS: "1", OPENAI_API_KEY: "", SIMULATED_LATENCY_MS: "0", SIMULATED_CHUNK_DELAY_MS: "0" },
    detached: true,
  });
  server.stdout!.on("data", (d) => (output += d));
  server.stderr!.on("data", (d) => (output += d));
  const deadline = Date.now() + 110_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the dev server exited: ${output}`);
    const ok = await fetch(`${apiUrl}/ok`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the dev server did not start in time: ${output}`);
}, 120_000);

afterAll(() => {
  // The CLI starts a process tree: stop the whole group.
  if (server?.pid) {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      /* already gone */
    }
  }
});

describe("LangGraph dev server (Studio's API)", () => {
  it("serves the graph and streams the debate's custom events through the SDK", async () => {
    const client = new Client({ apiUrl });
    const thread = await client.threads.create();
    const events: { event: string; data: any }[] = [];
    for await (const chunk of client.runs.stream(thread.thread_id, "debatt", {
      input: { message: "/debatt Bör AI regleras?" },
      streamMode: "custom",
      config: { configurable: { seed: 9 } },
    })) {
      if (chunk.event === "custom") events.push(chunk.data as { event: string; data: any });
    }
    const names = events.map((e) => e.event);
    expect(names[0]).toBe("debate_init");
    // Eight participants take 29 steps: more than LangGraph's default limit of 25.
    expect(names.filter((n) => n === "debate_participant_end")).toHaveLength(24);
    expect(names.filter((n) => n === "debate_vote_result").length).toBeGreaterThan(0);
    expect(names.at(-1)).toBe("debate_synthesis_complete");
    const state = (await client.threads.getState(thread.thread_id)).values as any;
    expect(state.debate_status).toBe("complete");
    // The synthesis is the run's answer, and the conversation's last message, without the arena page's data block.
    expect(state.debate_synthesis).toMatch(/^```debate-arena-data\n/);
    expect(state.answer).toBe(state.debate_synthesis!.replace(/^```debate-arena-data\n[\s\S]*?\n```\n*/, "").trim());
    expect(lastMessage(state)).toEqual({ type: "ai", content: state.answer });
  }, 120_000);

  it("describes the input (message, participants, options), the state and the configuration for Studio's forms", async () => {
    // Arrange
    const client = new Client({ apiUrl });
    const [assistant] = await client.assistants.search({ graphId: "debatt" });
    // Act
    const schemas = (await client.assistants.getSchemas(assistant.assistant_id)) as any;
    // Assert
    const input = schemas.input_schema?.properties ?? {};
    for (const field of ["message", "participants", "options"]) expect(input[field]?.description, field).toMatch(/\w{3}/);
    expect(input.message.type).toBe("string");
    expect(Object.keys(input.options.properties)).toEqual(expect.arrayContaining(["models", "chairman", "timeoutMs", "order", "debate", "maxRounds"]));
    expect(Object.keys(schemas.state_schema?.properties ?? {})).toEqual(
      expect.arrayContaining(["message", "question", "participants", "options", "messages", "answer", "debate_status"]),
    );
    expect(schemas.state_schema.properties.messages.langgraph_type).toBe("messages");
    expect(Object.keys(schemas.config_schema?.properties ?? schemas.context_schema?.properties ?? {})).toContain("seed");
  });

  it.each([
    ["/compare Vad är 2+2?", "compare"],
    ["/vote Vad är 2+2?", "vote"],
  ])("streams %s with its subgraph's events (streamSubgraphs), and ends with the answer as the last AI message", async (message, subgraph) => {
    // Arrange
    const client = new Client({ apiUrl });
    const thread = await client.threads.create();
    const seen: string[] = [];
    // Act
    for await (const chunk of client.runs.stream(thread.thread_id, "debatt", {
      input: { message },
      streamMode: ["values", "updates", "custom"],
      streamSubgraphs: true,
      config: { configurable: { seed: 9 } },
    })) {
      seen.push(chunk.event === "error" ? `error: ${JSON.stringify(chunk.data)}` : chunk.event);
    }
    // Assert
    expect(seen.filter((e) => e.startsWith("error"))).toEqual([]);
    // The top graph's events, and the subgraph's under its namespace (`custom|compare:<task id>`).
    expect(seen).toEqual(expect.arrayContaining(["values", "updates"]));
    for (const mode of ["values", "updates", "custom"])
      expect(
        seen.some((e) => e.startsWith(`${mode}|${subgraph}:`)),
        mode,
      ).toBe(true);
    const state = (await client.threads.getState(thread.thread_id)).values as any;
    expect(state.answer).toEqual(expect.stringMatching(/\w/));
    expect(lastMessage(state)).toEqual({ type: "ai", content: state.answer });
    expect(state.messages.map((m: Message) => m.type)).toEqual(["human", "ai"]);
  });

  it("runs with the options of its input, over the configuration's", async () => {
    // Arrange
    const client = new Client({ apiUrl });
    const thread = await client.threads.create();
    // Act
    await client.runs.wait(thread.thread_id, "debatt", {
      input: { message: "/vote Vad är 2+2?", options: { timeoutMs: 7_000 } },
      config: { configurable: { seed: 9, mode_config: { chairman: "grok", timeoutMs: 9_000 } } },
    });
    // Assert
    const state = (await client.threads.getState(thread.thread_id)).values as any;
    expect(state.options).toMatchObject({ timeoutMs: 7_000, chairman: "grok" });
  });
});

/** The last message of a state, as its type and text. */
function lastMessage(state: { messages: Message[] }): { type: string; content: unknown } {
  const last = state.messages.at(-1)!;
  return { type: last.type, content: last.content };
}
