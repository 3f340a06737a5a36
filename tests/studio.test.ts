import { spawn, type ChildProcess } from "node:child_process";
import { Client } from "@langchain/langgraph-sdk";
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
    const ok = await fetch(`${apiUrl}/ok`).then((r) => r.ok, () => false);
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
    const state = await client.threads.getState(thread.thread_id);
    expect((state.values as any).debate_status).toBe("complete");
    const schemas = await client.assistants.getSchemas((await client.assistants.search({ graphId: "debatt" }))[0].assistant_id);
    expect(Object.keys((schemas.config_schema as any)?.properties ?? (schemas as any).context_schema?.properties ?? {})).toContain("seed");
  }, 120_000);
});
