import { FORMAT_DEFINITIONS } from "../service/formats.js";
import { FORMAT_IDS } from "../state/formats.js";
import { servedWithHistory } from "./support/served.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import type { Settings } from "../state/config.js";
import { withOverrides, type Script } from "./support/fake-model.js";

const THREE = ["call_grok", "call_claude", "call_gpt"];
const ADMIN = "admin-token-for-mcp-tests";

/** A tool result's text. */
const textOf = (result: object) => (result as { content: { type: string; text: string }[] }).content.map((c) => c.text).join("");

describe("the MCP server over streamable HTTP, through the SDK's own client", () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  /** A server with a history. */
  async function serve(options: { script?: Script; settings?: Partial<Settings> } = {}) {
    const { server, models } = await servedWithHistory(options);
    /** A connected client, with a bearer token when given one. */
    const connect = async (token?: string) => {
      const client = new Client({ name: "debatt-tests", version: "1.0.0" });
      const transport = new StreamableHTTPClientTransport(
        new URL(`${server.url}/mcp`),
        token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {},
      );
      await client.connect(transport);
      closers.push(() => client.close());
      return { client, transport };
    };
    const stored = async (runId: string, token?: string) =>
      (await (await fetch(`${server.url}/api/v1/debates/${runId}`, { headers: token ? { authorization: `Bearer ${token}` } : {} })).json()) as {
        content: string;
        status: string;
        conversationId: string;
      };
    return { server, connect, stored, models };
  }

  it("lists a tool per format and the history tools, each with its input schema", async () => {
    const { connect } = await serve();
    const { client } = await connect();
    const { tools } = await client.listTools();
    // A tool per format whose definition names one (a format's own test pins its name), then the history's.
    const formatTools = FORMAT_IDS.flatMap((id) => FORMAT_DEFINITIONS[id].mcp?.tool ?? []);
    expect(tools.map((t) => t.name)).toEqual([...formatTools, "list_conversations", "get_conversation"]);
    expect(formatTools).toEqual(expect.arrayContaining(["debate", "compare", "vote", "revise", "deep", "council"]));
    const council = tools.find((t) => t.name === "council")!;
    expect(council.inputSchema.required).toEqual(["question"]);
    expect(Object.keys((council.inputSchema.properties as Record<string, { properties?: object }>).options.properties!)).toEqual(
      expect.arrayContaining(["debate", "round2TimeoutMs"]),
    );
    expect(council.outputSchema?.properties).toHaveProperty("consensus");
  });

  it("runs /vote: progress while it deliberates, the winner's answer as text, the outcome as structured content, filed in the history", async () => {
    const { connect, stored, models } = await serve();
    const { client } = await connect();
    const progress: string[] = [];
    const result = await client.callTool({ name: "vote", arguments: { question: "Which language suits web APIs best?", participants: THREE } }, undefined, {
      onprogress: (p) => progress.push(p.message ?? ""),
    });
    expect(result.isError).toBeFalsy();
    const outcome = result.structuredContent as {
      run_id: string;
      conversation_id: string;
      status: string;
      winner: string;
      votes: Record<string, number>;
      simulated: boolean;
    };
    expect(outcome.status).toBe("complete");
    // The scripted test models are not the simulated provider.
    expect(outcome.simulated).toBe(false);
    expect(["Grok", "Claude", "ChatGPT"]).toContain(outcome.winner);
    // Every valid vote is counted under a participant's name.
    expect(Object.keys(outcome.votes).every((name) => ["Grok", "Claude", "ChatGPT"].includes(name))).toBe(true);
    expect(Object.values(outcome.votes).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    const answer = await stored(outcome.run_id);
    expect(answer.status).toBe("complete");
    expect(answer.conversationId).toBe(outcome.conversation_id);
    expect(textOf(result).trim()).toBe(answer.content.trim());
    // What it used: every model call counted (the scripted models report no tokens: unpriced).
    const usage = (result.structuredContent as { usage: { total: { calls: number; unpriced_calls: number } } }).usage;
    expect(usage.total.calls).toBe(models.calls.length);
    expect(usage.total.unpriced_calls).toBe(models.calls.length);
    // The deliberation came as progress, in the question's language: who answered and who won.
    const told = progress.join("\n");
    for (const name of ["Grok", "Claude", "ChatGPT"]) expect(told).toContain(name);
    expect(told).toMatch(/Winner/);
  });

  it("runs /council --debate from its options, with the consensus and the verdict counts", async () => {
    const { connect, stored } = await serve();
    const { client } = await connect();
    const progress: string[] = [];
    const result = await client.callTool({ name: "council", arguments: { question: "Rust is a good first language.", options: { debate: true } } }, undefined, {
      onprogress: (p) => progress.push(p.message ?? ""),
    });
    const outcome = result.structuredContent as { run_id: string; consensus: string; verdicts: Record<string, number> };
    expect(["PASS", "WARN", "FAIL"]).toContain(outcome.consensus);
    expect(outcome.verdicts.PASS + outcome.verdicts.WARN + outcome.verdicts.FAIL).toBe(3);
    // The judges reviewed each other's verdicts: there was a round 2.
    expect(progress.some((line) => /Round 2/.test(line))).toBe(true);
    // The text is the report, as the history keeps it.
    expect(textOf(result).trim()).toBe((await stored(outcome.run_id)).content.trim());
  });

  it("refuses bad input as a tool error that names the problem, and runs nothing", async () => {
    const { connect, models } = await serve();
    const { client } = await connect();
    const few = await client.callTool({ name: "vote", arguments: { question: "Which?", participants: ["call_grok"] } });
    expect(few.isError).toBe(true);
    expect(textOf(few)).toMatch(/\/vote.*3/);
    const unknown = await client.callTool({ name: "debate", arguments: { question: "Tabs?", participants: ["call_nobody"] } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain("call_nobody");
    // An option the format does not have is refused by the schema.
    const option = await client.callTool({ name: "vote", arguments: { question: "Which?", options: { debate: true } } });
    expect(option.isError).toBe(true);
    expect(textOf(option)).toMatch(/debate/);
    expect(models.calls).toHaveLength(0);
  });

  it("stops the run when the client cancels the call: the calls in flight are aborted and the answer is kept as cancelled", async () => {
    const slow = withOverrides((req) => (req.phase === "turn" ? { text: `${req.participant!.display} argues at length.`, latencyMs: 400 } : undefined));
    const { connect, models, server } = await serve({ script: slow });
    const { client } = await connect();
    const controller = new AbortController();
    const call = client.callTool({ name: "debate", arguments: { question: "Should AI be regulated?", participants: THREE } }, undefined, {
      signal: controller.signal,
      // Cancelled once the first turn has been told.
      onprogress: (p) => {
        if (/words/.test(p.message ?? "")) controller.abort();
      },
    });
    await expect(call).rejects.toThrow(/abort|cancel/i);
    const conversations = async () => (await (await fetch(`${server.url}/api/v1/conversations`)).json()) as { conversations: { id: string }[] };
    await expect.poll(async () => (await conversations()).conversations.length, { timeout: 5_000 }).toBe(1);
    const id = (await conversations()).conversations[0].id;
    const status = async () =>
      ((await (await fetch(`${server.url}/api/v1/conversations/${id}`)).json()) as { messages: { role: string; status: string }[] }).messages.at(-1)!.status;
    await expect.poll(status, { timeout: 5_000 }).toBe("cancelled");
    expect(models.calls.at(-1)!.aborted).toBe(true);
  });

  it("stops the run when the client goes away in the middle of a call without cancelling it", async () => {
    const slow = withOverrides((req) => (req.phase === "turn" ? { text: `${req.participant!.display} argues at length.`, latencyMs: 400 } : undefined));
    const { connect, models, server } = await serve({ script: slow });
    const { client, transport } = await connect();
    let dropped = false;
    const call = client.callTool({ name: "debate", arguments: { question: "Should AI be regulated?", participants: THREE } }, undefined, {
      onprogress: (p) => {
        // The connection drops (the host crashed, a network cut): no notifications/cancelled is sent.
        if (!dropped && /words/.test(p.message ?? "")) {
          dropped = true;
          void transport.close();
        }
      },
    });
    await call.catch(() => {});
    expect(dropped).toBe(true);
    const conversations = async () => (await (await fetch(`${server.url}/api/v1/conversations`)).json()) as { conversations: { id: string }[] };
    await expect.poll(async () => (await conversations()).conversations.length, { timeout: 5_000 }).toBe(1);
    const id = (await conversations()).conversations[0].id;
    const status = async () =>
      ((await (await fetch(`${server.url}/api/v1/conversations/${id}`)).json()) as { messages: { status: string }[] }).messages.at(-1)!.status;
    await expect.poll(status, { timeout: 5_000 }).toBe("cancelled");
    expect(models.calls.length).toBeLessThan(9);
  });

  it("keeps one user to their share of sessions: the 21st closes their least recently used idle one", async () => {
    const { connect, server } = await serve();
    const sessions = [];
    for (let i = 0; i < 20; i++) sessions.push(await connect());
    // The first is used again: the second is now the least recently used.
    await sessions[0].client.listTools();
    const last = await connect();
    expect((await last.client.listTools()).tools.length).toBeGreaterThan(0);
    expect((await sessions[0].client.listTools()).tools.length).toBeGreaterThan(0);
    const stale = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": sessions[1].transport.sessionId! },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
    });
    expect(stale.status).toBe(404);
  });

  it("reads the caller's own history: list_conversations and get_conversation, not another user's", async () => {
    const { server, connect } = await serve({ settings: { auth: "tokens", adminToken: ADMIN } });
    const token = async (name: string) =>
      (
        (await (
          await fetch(`${server.url}/api/v1/admin/users`, {
            method: "POST",
            headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
            body: JSON.stringify({ name }),
          })
        ).json()) as { token: string }
      ).token;
    const ada = await connect(await token("ada"));
    const bob = await connect(await token("bob"));
    const run = await ada.client.callTool({ name: "compare", arguments: { question: "Tabs or spaces?", participants: THREE } });
    const { conversation_id } = run.structuredContent as { conversation_id: string };
    const listed = await ada.client.callTool({ name: "list_conversations", arguments: {} });
    expect((listed.structuredContent as { conversations: { id: string; mode: string }[] }).conversations).toEqual([
      expect.objectContaining({ id: conversation_id, mode: "compare" }),
    ]);
    const got = await ada.client.callTool({ name: "get_conversation", arguments: { id: conversation_id } });
    const messages = (got.structuredContent as { messages: { role: string; content: string }[] }).messages;
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(messages[0].content).toBe("Tabs or spaces?");
    // Bob sees none of it.
    expect((await bob.client.callTool({ name: "list_conversations", arguments: {} })).structuredContent).toEqual({ conversations: [], nextCursor: null });
    const stolen = await bob.client.callTool({ name: "get_conversation", arguments: { id: conversation_id } });
    expect(stolen.isError).toBe(true);
    expect(textOf(stolen)).toContain("not found");
    // Nor can Bob use Ada's session.
    const hijack = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${await token("carl")}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": ada.transport.sessionId!,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
    });
    expect(hijack.status).toBe(404);
  });

  it("needs a user's token with AUTH=tokens, refuses other web origins, and answers a request without a session with a JSON-RPC error", async () => {
    const { server, connect } = await serve({ settings: { auth: "tokens", adminToken: ADMIN } });
    await expect(connect("not-a-token")).rejects.toThrow(/401|invalid|token/i);
    const post = (headers: Record<string, string>, body: unknown) =>
      fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${ADMIN}`, ...headers },
        body: JSON.stringify(body),
      });
    const foreign = await post({ origin: "http://evil.example" }, { jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: { data: { code: string } } }).error.data.code).toBe("forbidden_origin");
    const sessionless = await post({}, { jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect(sessionless.status).toBe(400);
    expect(((await sessionless.json()) as { jsonrpc: string; error: { message: string } }).error.message).toContain("initialize");
  });
});

describe("the MCP server over stdio (npm run mcp)", () => {
  it("serves the tools to a host that starts it as a process, and files its runs in the history", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "debatt-mcp-"));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", "cli/mcp.ts"],
      env: { PATH: process.env.PATH ?? "", DEBATT_DATA_DIR: dataDir, SIMULATED_LATENCY_MS: "0", SIMULATED_CHUNK_DELAY_MS: "0" },
      stderr: "pipe",
    });
    const client = new Client({ name: "debatt-tests", version: "1.0.0" });
    try {
      await client.connect(transport);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("compare");
      const run = await client.callTool({ name: "compare", arguments: { question: "Tabs or spaces?", participants: THREE } });
      expect(run.isError).toBeFalsy();
      for (const name of ["Grok", "Claude", "ChatGPT"]) expect(textOf(run)).toContain(name);
      const { conversation_id } = run.structuredContent as { conversation_id: string };
      const listed = await client.callTool({ name: "list_conversations", arguments: {} });
      expect((listed.structuredContent as { conversations: { id: string }[] }).conversations.map((c) => c.id)).toEqual([conversation_id]);
    } finally {
      await client.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
