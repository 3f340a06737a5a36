import { describe, expect, it } from "vitest";
import { parseCommand } from "../state/commands.js";
import { strictEventSchema } from "../state/events.js";
import type { ClientEvent } from "../state/events.js";
import { emptyArena, reduce } from "../web/arena-state.js";
import { withOverrides } from "./support/fake-model.js";
import { named, runEvents, testDeps, graphOf } from "./support/harness.js";
import { postChat, readSse, startApp } from "./support/http.js";
import { sqliteHistory } from "./support/history-db.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const THREE = ["call_grok", "call_claude", "call_gpt"];

describe("/compare", () => {
  it("is its own command, never a debate", () => {
    expect(parseCommand("  /COMPARE Är kaffe nyttigt?")).toEqual({ kind: "compare", question: "Är kaffe nyttigt?" });
    expect(parseCommand("/compare")).toEqual({ kind: "missing_topic", command: "/compare" });
    expect(parseCommand("/comparex y")).toEqual({ kind: "chat", text: "/comparex y" });
    expect(parseCommand("/debatt /compare x")).toMatchObject({ kind: "debate", topic: "/compare x" });
  });

  it("asks every participant in parallel and streams the answers side by side, with the contract's fields", async () => {
    const script = withOverrides((req) => (req.phase === "compare" ? { text: `${req.participant!.display} svarar.`, latencyMs: 150 } : undefined));
    const { deps, models } = testDeps({ script });
    const events = await runEvents(deps, "/compare Är kaffe nyttigt?", { participants: THREE });

    const names = events.map((e) => e.event);
    expect(names[0]).toBe("compare-start");
    expect(names.filter((n) => n === "compare-answer-start")).toHaveLength(3);
    expect(names.slice(-2)).toEqual(["compare-complete", "done"]);
    expect(names.some((n) => n.startsWith("debate-"))).toBe(false);
    // In parallel: every answer was asked for before any had answered.
    expect(models.callsOf("compare").map((c) => c.answeredBefore)).toEqual([0, 0, 0]);
    for (const e of events.slice(0, -1)) {
      expect(strictEventSchema(e.event)!.safeParse(e.data).success, e.event).toBe(true);
    }
    expect(named(events, "compare-complete")[0]).toMatchObject({ answered: 3, failed: 0 });
    const grok = models.callsOf("compare", "call_grok")[0];
    expect(String(grok.messages[0].content)).toMatch(/^Du är Grok /);
    expect(String(grok.messages[1].content)).toBe("Är kaffe nyttigt?");
    expect(
      named(events, "compare-answer-delta")
        .filter((d) => d.model === "Claude")
        .map((d) => d.delta)
        .join(""),
    ).toBe("Claude svarar.");
  });

  it("marks a failing participant and still completes", async () => {
    const { deps } = testDeps({
      script: withOverrides((req) => (req.phase === "compare" && req.participant!.key === "call_claude" ? { error: new Error("provider 500") } : undefined)),
    });
    const events = await runEvents(deps, "/compare Fungerar det?", { participants: THREE });
    expect(named(events, "compare-answer-end").find((e) => e.model === "Claude")).toMatchObject({ status: "error", error: "provider 500", word_count: 0 });
    expect(named(events, "compare-complete")[0]).toMatchObject({ answered: 2, failed: 1 });
  });

  it("takes its system prompt from the registry, overridable per run", async () => {
    const { deps, models } = testDeps();
    await runEvents(deps, "/compare X?", {
      participants: THREE,
      configurable: { prompt_overrides: { "compare.answer.system": "Svara kort, {participant}." } },
    });
    expect(String(models.callsOf("compare", "call_gpt")[0].messages[0].content)).toBe("Svara kort, ChatGPT.");
  });

  it("streams over SSE and builds the page's side-by-side state", async () => {
    const { deps } = testDeps();
    const server = await startApp(deps);
    try {
      const { events } = await readSse(await postChat(server.url, { message: "/compare Är kaffe nyttigt?", participants: THREE }));
      const s = (events.slice(1) as ClientEvent[]).reduce(reduce, emptyArena());
      expect(s.compare?.participants.map((p) => p.display)).toEqual(["Grok", "Claude", "ChatGPT"]);
      expect(Object.values(s.compare!.answers).every((a) => a.status === "ok" && a.text.length > 0)).toBe(true);
      expect(s.compare?.complete).toBe(true);
      expect(s.debateId).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it("is a subgraph of the graph, so Studio shows it", async () => {
    const { deps } = testDeps();
    const drawn = await graphOf(deps).getGraphAsync({ xray: true });
    const ids = Object.values(drawn.nodes).map((n) => n.id);
    expect(ids).toEqual(expect.arrayContaining(["compare:compare_planner", "compare:compare_answer", "compare:compare_complete"]));
  });
});

describe("/compare in which no model answers", () => {
  it("says that it failed: an error (all_models_failed) in the stream, error in the history, 502 on /v1, a tool error on MCP", async () => {
    const db = await sqliteHistory();
    const { deps } = testDeps({ script: withOverrides((req) => (req.phase === "compare" ? { error: new Error("HTTP 503 from provider") } : undefined)) });
    const server = await startApp(deps, { history: db.history });
    const client = new Client({ name: "debatt-tests", version: "1.0.0" });
    try {
      const { events } = await readSse(await postChat(server.url, { message: "/compare Är kaffe nyttigt?", participants: THREE }));
      expect(events.find((e) => e.event === "compare-complete")!.data).toMatchObject({ answered: 0, failed: 3 });
      expect(events.find((e) => e.event === "error")!.data).toMatchObject({ code: "all_models_failed" });
      expect(events.at(-1)!.event).toBe("done");
      expect(await db.history.message(String(events[0].data.run_id))).toMatchObject({ status: "error" });

      const v1 = await fetch(`${server.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "debatt-compare", messages: [{ role: "user", content: "Är kaffe nyttigt?" }] }),
      });
      expect(v1.status).toBe(502);
      expect((await v1.json()).error.code).toBe("all_models_failed");

      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
      const tool = (await client.callTool({ name: "compare", arguments: { question: "Är kaffe nyttigt?" } })) as {
        isError?: boolean;
        structuredContent?: { status: string; answered: number };
      };
      expect(tool.isError).toBe(true);
      expect(tool.structuredContent).toMatchObject({ status: "error", answered: 0 });
    } finally {
      await client.close();
      await server.close();
      await db.close();
    }
  });
});
