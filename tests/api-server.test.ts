import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { getConfigTypeSchema, getInputTypeSchema, getUpdateTypeSchema } from "@langchain/langgraph/zod/schema";
import { describe, expect, it } from "vitest";
import { adaptStreamEvents, forApiServer, runConfigOf } from "../graph/api-server.js";
import { resolveRunSettings } from "../state/run-config.js";
import type { RunOptions } from "../state/graph-state.js";
import { graphOf, testDeps } from "./support/harness.js";

/** The graph as `service/studio.ts` gives it to the LangGraph API server, on fake models. */
function serverGraph(adapt = forApiServer) {
  const { deps } = testDeps();
  return adapt(graphOf(deps, { checkpointer: new MemorySaver() }));
}

/** Runs `input` as the API server does (`streamEvents` v2, subgraphs streamed) with `configured` in its configuration; the stream chunks and the final state. */
async function serverRun(graph: ReturnType<typeof serverGraph>, input: unknown, configured: Record<string, unknown> = {}) {
  const configurable = { thread_id: crypto.randomUUID(), seed: 3, ...configured };
  const chunks: unknown[][] = [];
  const events = graph.streamEvents(input as never, { version: "v2", configurable, subgraphs: true, streamMode: ["values", "custom", "debug"] } as never);
  for await (const e of events as unknown as AsyncIterable<{ event: string; data: { chunk?: unknown } }>) {
    if (e.event === "on_chain_stream" && Array.isArray(e.data.chunk) && e.data.chunk.length === 3) chunks.push(e.data.chunk);
  }
  const state = (await graph.getState({ configurable })).values as { answer: string | null; messages: BaseMessage[]; options: Record<string, unknown> };
  return { chunks, state };
}

describe("the graph as the LangGraph API server runs it", () => {
  it("describes its input (message, participants, options, with descriptions), its state and its configuration", () => {
    // Arrange
    const graph = serverGraph();
    // Act: what the server reads (`GET /assistants/{id}/schemas`).
    const input = getInputTypeSchema(graph) as any;
    const state = getUpdateTypeSchema(graph) as any;
    const config = getConfigTypeSchema(graph) as any;
    // Assert
    for (const field of ["message", "participants", "options"]) expect(input.properties[field]?.description, field).toMatch(/\w/);
    expect(Object.keys(input.properties.options.properties)).toEqual(expect.arrayContaining(["models", "order", "timeoutMs", "debate"]));
    const channels = Object.keys(graph.channels).filter((k) => !/^(branch:|join:|__)/.test(k));
    expect(Object.keys(state.properties).sort()).toEqual(channels.sort());
    expect(state.properties.messages.langgraph_type).toBe("messages");
    expect(Object.keys(config.properties)).toContain("seed");
  });

  it.each([
    ["/debatt Bör AI regleras?", "debate_synthesis"],
    ["/compare Vad är 2+2?", undefined],
    ["/vote Vad är 2+2?", undefined],
    ["/revise Vad är 2+2?", undefined],
    ["/deep Vad är 2+2?", undefined],
    ["/council --debate Jorden är platt.", undefined],
    ["Hej!", undefined],
  ])("runs %s with subgraphs streamed, every update passing the state's schema, and ends with the answer as the last AI message", async (message, alsoIn) => {
    // Arrange
    const graph = serverGraph();
    // Act
    const { chunks, state } = await serverRun(graph, { message });
    // Assert
    expect(state.answer).toEqual(expect.any(String));
    expect(state.answer!.length).toBeGreaterThan(0);
    const last = state.messages.at(-1)!;
    expect(AIMessage.isInstance(last)).toBe(true);
    expect(last.content).toBe(state.answer);
    expect(state.messages.filter((m) => HumanMessage.isInstance(m)).map((m) => m.content)).toEqual([message]);
    // /debatt's synthesis is the answer after the arena page's data block.
    if (alsoIn) expect(String((state as unknown as Record<string, unknown>)[alsoIn]).endsWith(state.answer!)).toBe(true);
    // What an older API server fails on is left out; the full debug checkpoints stay.
    expect(chunks.filter(([, mode]) => mode === "checkpoints")).toEqual([]);
    expect(chunks.some(([, mode, payload]) => mode === "debug" && (payload as { type: string }).type === "checkpoint")).toBe(true);
  });

  it("leaves out the lightweight checkpoint envelopes that LangGraph adds to a subgraph stream", async () => {
    // Arrange: the graph with only its stream adapted, and one not adapted at all.
    const adapted = serverGraph(adaptStreamEvents);
    const bare = serverGraph((g) => g);
    // Act
    const withEnvelopes = await serverRun(bare, { message: "/compare Vad är 2+2?" });
    const without = await serverRun(adapted, { message: "/compare Vad är 2+2?" });
    // Assert: LangGraph sends them (from the top graph and the subgraph), the adapted stream does not.
    const envelopes = withEnvelopes.chunks.filter(([, mode]) => mode === "checkpoints");
    expect(envelopes.some(([ns]) => (ns as string[]).length === 0)).toBe(true);
    expect(envelopes.some(([ns]) => (ns as string[])[0]?.startsWith("compare:"))).toBe(true);
    expect(without.chunks.filter(([, mode]) => mode === "checkpoints")).toEqual([]);
    expect(without.chunks.length).toBe(withEnvelopes.chunks.length - envelopes.length);
  });

  it("gives the run the options of its input, over the configuration's, under those written in the message", async () => {
    // Arrange
    const graph = serverGraph();
    const configurable = { mode_config: { chairman: "grok", timeoutMs: 9_000 }, order: "simultaneous" };
    // Act
    const vote = await serverRun(graph, { message: "/vote Vad är 2+2?", options: { timeoutMs: 7_000 } }, configurable);
    const council = await serverRun(graph, { message: "/council --debate Jorden är platt.", options: { debate: false, maxRounds: 4 } });
    const debate = await serverRun(graph, { message: "/debatt --order sequential Bör AI regleras?", options: { order: "simultaneous" } });
    // Assert
    expect(vote.state.options).toMatchObject({ timeoutMs: 7_000, chairman: "grok", order: "simultaneous" });
    expect(council.state.options).toMatchObject({ debate: true, maxRounds: 4 });
    expect(debate.state.options).toMatchObject({ order: "sequential" });
  });

  it("refuses input options that are not the graph's, naming them", async () => {
    // Arrange
    const graph = serverGraph();
    // Act
    const run = serverRun(graph, { message: "/debatt Bör AI regleras?", options: { ordr: "simultaneous" } });
    // Assert
    await expect(run).rejects.toThrow(/input options: .*ordr/s);
  });

  it("maps every input option onto the run configuration that resolves to it", () => {
    // Arrange
    const options: Required<RunOptions> = {
      models: ["grok"],
      chairman: "claude",
      timeoutMs: 5_000,
      antiAnchoring: true,
      maxRounds: 5,
      debate: true,
      round2TimeoutMs: 4_000,
      order: "simultaneous",
      voicePacing: "paced",
      withMe: true,
      personName: "Eve",
    };
    // Act
    const resolved = resolveRunSettings(runConfigOf(options), { responseTimeoutMs: 1_000, voteTimeoutMs: 1_000 }).options;
    // Assert
    expect(resolved).toMatchObject(options);
  });
});
