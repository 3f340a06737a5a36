import { HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import OpenAI from "openai";
import { describe, expect, it, onTestFinished } from "vitest";
import { moaHistory } from "../history/formats/moa.js";
import { promptDefinition } from "../prompts/registry.js";
import { simulatedModels } from "../service/formats.js";
import { parseCommand } from "../state/commands.js";
import { emptyArena, reduce } from "../web/arena-state.js";
import { storedEvents } from "../web/stored-events.js";
import { strictEventSchema } from "../state/events.js";
import { defaultRoster } from "../state/participants.js";
import { answerOf, withOverrides, type Script } from "./support/fake-model.js";
import { named, runEvents, testDeps, stepNames } from "./support/harness.js";
import { postChat, postDeliberate, readSse } from "./support/http.js";
import { servedWithHistory } from "./support/served.js";

const THREE = ["call_grok", "call_claude", "call_gpt"];
const MODEL = Object.fromEntries(defaultRoster().map((p) => [p.key, p.model]));
const QUESTION = "/moa Which language suits web APIs best?";

const promptOf = (messages: BaseMessage[]) => messages.map((m) => String(m.content)).join("\n");
/** A layer-2 proposer's text (the fake's default for a phase it has no shape for). */
const proposed = (display: string) => `${display} answers the proposal step about Which language suits web APIs best?.`;
// The aggregator, which no roster entry names, goes by its model's name.
const aggregated = "gpt-4.1-mini answers the aggregate step about Which language suits web APIs best?.";

describe("/moa: the command and its prompt", () => {
  it("is its own command, single-turn, taking a question", () => {
    expect(parseCommand("/moa Which is best?")).toEqual({ kind: "deliberation", mode: "moa", question: "Which is best?", options: {} });
    expect(parseCommand("/moa")).toEqual({ kind: "missing_topic", command: "/moa" });
  });

  it("asks later layers and the aggregator under one aggregate-and-synthesize instruction, the references numbered after it", () => {
    const text = promptDefinition("moa.synthesize")!.default;
    expect(text).toMatch(/Synthesize them into a single answer/);
    expect(text).toMatch(/some of what they say may be biased or wrong/);
    expect(text.trimEnd().endsWith("Answers from models:\n{responses}")).toBe(true);
  });
});

describe("/moa: the pipeline", () => {
  it("answers in layers, each in parallel and reading the layer before's answers unnamed; the aggregator's streamed text is the answer", async () => {
    const script = withOverrides(() => undefined);
    const slow: Script = (req, i, messages) => {
      const text = script(req, i, messages) as string;
      return req.phase === "answer" || req.phase === "proposal" ? { text, latencyMs: 150 } : text;
    };
    const { deps, models } = testDeps({ script: slow });
    const events = await runEvents(deps, QUESTION, { participants: THREE });
    expect(stepNames(events)).toEqual([
      "moa-start",
      "stage1-start",
      "stage1-complete",
      "moa-layer-start",
      "moa-layer-complete",
      "moa-aggregate-start",
      "moa-final",
      "title-complete",
      "complete",
      "done",
    ]);
    for (const e of events) expect(strictEventSchema(e.event)!.safeParse(e.data).success, e.event).toBe(true);
    // Each layer in parallel: every call of it was asked for before any had answered.
    for (const phase of ["answer", "proposal"] as const) expect(models.callsOf(phase).map((c) => c.answeredBefore)).toEqual([0, 0, 0]);
    expect(named(events, "moa-start")[0]).toMatchObject({ mode: "moa", layers: 3, aggregator: { modelKey: "aggregator", display: "gpt-4.1-mini" } });
    expect(named(events, "moa-layer-start")[0]).toMatchObject({ layer: 2, from: 1, references: 3 });
    expect(named(events, "moa-layer-complete")[0].data.map((a: { response: string }) => a.response)).toEqual(["Grok", "Claude", "ChatGPT"].map(proposed));
    expect(named(events, "moa-aggregate-start")[0]).toMatchObject({ modelKey: "aggregator", from: 2, references: 3 });

    // A layer-2 proposer reads every first answer, numbered, under the instruction, and no author's name.
    const layer2 = models.callsOf("proposal");
    expect(layer2.map((c) => [c.participant, c.round])).toEqual(expect.arrayContaining(THREE.map((k) => [k, 2])));
    const prompt = promptOf(layer2[0].messages);
    expect(prompt).toMatch(/Answers from models:\n1\. /);
    for (const display of ["Grok", "Claude", "ChatGPT"]) expect(prompt).toContain(answerOf(display, 1).replace(`${display} says`, ""));
    expect(prompt).not.toMatch(/\bcall_(grok|claude|gpt)\b/);
    expect(layer2[0].messages.at(-1)!.content).toBe("Which language suits web APIs best?");
    // The aggregator reads the last layer of proposers, not the first.
    const [aggregator] = models.callsOf("aggregate");
    expect(aggregator.participant).toBe("aggregator");
    expect(promptOf(aggregator.messages)).toContain(proposed("Claude"));
    expect(promptOf(aggregator.messages)).not.toContain(answerOf("Claude", 1));

    const streamed = named(events, "answer-delta")
      .filter((d) => d.stage === "aggregate")
      .map((d) => d.delta)
      .join("");
    expect(streamed).toBe(aggregated);
    expect(named(events, "moa-final")[0].data).toMatchObject({ answer: aggregated, fallback: false, layer: 2, references: 3, modelKey: "aggregator" });
  });

  it("runs the layers asked for (2–5), the aggregator from its options, the whole roster by default, and no follow-up", async () => {
    const { deps, models } = testDeps();
    const two = await runEvents(deps, QUESTION, { participants: THREE, modeConfig: { layers: 2 } });
    expect(stepNames(two)).not.toContain("moa-layer-start");
    expect(named(two, "moa-aggregate-start")[0]).toMatchObject({ from: 1, references: 3 });
    expect(models.callsOf("proposal")).toHaveLength(0);

    const four = await runEvents(deps, QUESTION, { participants: THREE, modeConfig: { layers: 4, aggregator: "Gemini" } });
    expect(named(four, "moa-layer-complete").map((e) => e.layer)).toEqual([2, 3]);
    expect(named(four, "moa-start")[0].aggregator).toMatchObject({ modelKey: "call_gemini" });
    expect(models.callsOf("aggregate", "call_gemini")).toHaveLength(1);
    expect(models.callsOf("proposal").map((c) => c.round)).toEqual([2, 2, 2, 3, 3, 3]);

    expect(named(await runEvents(deps, QUESTION), "moa-start")[0].participants).toHaveLength(defaultRoster().length);
    const refused = await runEvents(deps, QUESTION, { participants: THREE, modeConfig: { layers: 6 } });
    expect(named(refused, "error")[0]).toMatchObject({ code: "invalid_mode_config" });
    expect(named(refused, "error")[0].message).toMatch(/layers/);
    expect(named(await runEvents(deps, QUESTION, { participants: ["call_grok"] }), "error")[0].message).toBe("/moa needs 2–8 models, 1 requested");
  });

  it("leaves a failed proposer out of the next layer's references, and keeps the layer before's when a whole layer fails", async () => {
    const { deps } = testDeps({
      script: withOverrides((req) => (req.phase === "proposal" && req.participant!.key === "call_grok" ? { error: new Error("grok 503") } : undefined)),
    });
    const events = await runEvents(deps, QUESTION, { participants: THREE });
    expect(named(events, "moa-layer-complete")[0].failed).toEqual([
      expect.objectContaining({ modelKey: "call_grok", error: expect.stringMatching(/grok 503/) }),
    ]);
    expect(named(events, "moa-aggregate-start")[0]).toMatchObject({ from: 2, references: 2 });

    const { deps: down } = testDeps({ script: withOverrides((req) => (req.phase === "proposal" ? { error: new Error("all 503") } : undefined)) });
    const fallen = await runEvents(down, QUESTION, { participants: THREE });
    expect(named(fallen, "moa-layer-complete")[0].data).toEqual([]);
    expect(named(fallen, "moa-aggregate-start")[0]).toMatchObject({ from: 1, references: 3 });
    expect(named(fallen, "moa-final")[0].data).toMatchObject({ fallback: false, layer: 1 });
  });

  it("lets the last layer's first answer stand in when the aggregator fails, and says so; stops below two first answers", async () => {
    const { deps } = testDeps({ script: withOverrides((req) => (req.phase === "aggregate" ? { error: new Error("aggregator 503") } : undefined)) });
    const events = await runEvents(deps, QUESTION, { participants: THREE });
    expect(named(events, "moa-final")[0].data).toMatchObject({
      answer: proposed("Grok"),
      modelKey: "call_grok",
      fallback: true,
      error: expect.stringMatching(/aggregator 503/),
    });
    expect(stepNames(events).slice(-3)).toEqual(["title-complete", "complete", "done"]);

    const { deps: few } = testDeps({
      script: withOverrides((req) => (req.phase === "answer" && req.participant!.key !== "call_grok" ? { error: new Error("503") } : undefined)),
    });
    const stopped = await runEvents(few, QUESTION, { participants: THREE });
    expect(stepNames(stopped).slice(-2)).toEqual(["error", "done"]);
    expect(named(stopped, "error")[0]).toMatchObject({ code: "too_few_answers" });
  });
});

describe("/moa in the history and on the other surfaces", () => {
  it("keeps its rows and reads them back into what it streamed; refuses bad options with a 400 naming them", async () => {
    const { server, db } = await servedWithHistory();
    const { events } = await readSse(await postDeliberate(server.url, { question: "Which?", mode: "moa", modeConfig: { models: THREE, layers: 3 } }));
    const runId = named(events, "moa-start")[0].messageId as string;
    const rows = await db.history.stagesOf(runId);
    expect(rows.map((r) => r.stageType)).toEqual(["moa_panel", ...Array(3).fill("moa_answer"), ...Array(3).fill("moa_proposal"), "moa_final"]);
    const result = moaHistory.result(rows);
    expect(result).toMatchObject({ layerCount: 3, aggregator: { modelKey: "aggregator" } });
    expect(result.stage1.map((a) => a.modelKey)).toEqual(THREE);
    const { timestamp: _t, ...layer2 } = named(events, "moa-layer-complete")[0];
    expect(result.layers).toEqual([{ layer: 2, answers: layer2.data.map(({ display: _d, ...a }: Record<string, unknown>) => a), failed: [] }]);
    expect(result.final).toEqual(named(events, "moa-final")[0].data);

    const refused = await postDeliberate(server.url, { question: "Which?", mode: "moa", modeConfig: { models: THREE, layers: 9 } });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { code: "invalid_body", message: expect.stringMatching(/modeConfig.layers/) } });
  });

  it("is the /v1 model debatt-moa and the MCP tool moa, and runs as both", async () => {
    const { server } = await servedWithHistory();
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "not-needed-on-loopback", maxRetries: 0 });
    const ids: string[] = [];
    for await (const model of openai.models.list()) ids.push(model.id);
    expect(ids).toContain("debatt-moa");
    const completion = await openai.chat.completions.create({
      model: "debatt-moa",
      messages: [{ role: "user", content: "Which language suits web APIs best?" }],
      participants: THREE,
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(completion.choices[0].message.content!.trim()).toBe(aggregated);
    expect((completion.choices[0].message as unknown as { reasoning_content: string }).reasoning_content).toMatch(/Layer 2/);

    const client = new Client({ name: "debatt-tests", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    onTestFinished(() => client.close());
    const tool = (await client.listTools()).tools.find((t) => t.name === "moa")!;
    expect(tool.outputSchema?.properties).toHaveProperty("layers");
    const result = await client.callTool({ name: "moa", arguments: { question: "Which?", participants: THREE, options: { layers: 2 } } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: "complete", layers: 2, aggregatedBy: "gpt-4.1-mini", aggregatorFailed: false });
    const bad = await client.callTool({ name: "moa", arguments: { question: "Which?", participants: THREE, options: { layers: 1 } } });
    expect(bad.isError).toBe(true);
  });

  it("simulates proposals and an aggregate that build on what they read, in the question's language", async () => {
    for (const question of ["/moa Which language suits web APIs best?", "/moa Vilket språk passar bäst för webb-API:er?"]) {
      const { deps } = testDeps();
      deps.models = simulatedModels({ latencyMs: 0, chunkDelayMs: 0, chunkTokens: 50 });
      const events = await runEvents(deps, question);
      expect(named(events, "moa-layer-complete")[0].data).toHaveLength(defaultRoster().length);
      const final = named(events, "moa-final")[0].data;
      expect(final.fallback).toBe(false);
      expect(final.answer).toMatch(question.includes("Vilket") ? /svaren/ : /answers/);
    }
    // The aggregate takes its points from the answers it is given (points no bank of the provider has).
    const model = simulatedModels({ latencyMs: 0, chunkDelayMs: 0, chunkTokens: 50 }).create({
      phase: "aggregate",
      participant: { key: "aggregator", display: "Aggregator", model: "m" },
      topic: "Which language suits web APIs best?",
    });
    const read = "Answers from models:\n1. Intro.\n\n- Zebra point about Go.\n- Quokka point about Rust.\n\n2. Other.\n\n- Narwhal point about Python.";
    const reply = String((await model.invoke([new SystemMessage(read), new HumanMessage("Which language suits web APIs best?")])).content);
    for (const point of ["Zebra point about Go.", "Quokka point about Rust.", "Narwhal point about Python."]) expect(reply).toContain(`- ${point}`);
  });

  it("keeps only the step that was cut: a stop in layer 3 keeps layer 3's text alone, a stop while the aggregator writes keeps no proposal", async () => {
    const stopAt = async (when: (e: { event: string; data: Record<string, unknown> }) => boolean, layers: number) => {
      const { server, db } = await servedWithHistory({
        script: withOverrides((req) =>
          req.phase === "proposal"
            ? { text: `${req.participant!.display} L${req.round}.`, latencyMs: req.participant!.key === "call_grok" || req.round === 2 ? 0 : 5_000 }
            : req.phase === "aggregate"
              ? { text: "The aggregate.", latencyMs: 5_000 }
              : undefined,
        ),
      });
      let runId = "";
      let stopping: Promise<Response> | undefined;
      await readSse(await postDeliberate(server.url, { question: "Which?", mode: "moa", modeConfig: { models: THREE, layers } }), (e) => {
        if (e.event === "metadata") runId = String(e.data.run_id);
        if (!stopping && when(e)) stopping = fetch(`${server.url}/api/v1/debates/${runId}/cancel`, { method: "POST" });
      });
      expect((await stopping!).status).toBe(202);
      return (await db.history.stagesOf(runId))
        .filter((r) => r.stageType === "moa_proposal")
        .map((r) => [(r.parsedData as { layer: number }).layer, r.content]);
    };
    // Four layers, stopped once Grok's layer-3 proposal has streamed: layer 2 whole, layer 3 Grok's alone.
    const third = await stopAt((e) => e.event === "answer-delta" && e.data.stage === "proposal" && String(e.data.delta).includes("L3"), 4);
    expect(third).toEqual([
      [2, "Grok L2."],
      [2, "Claude L2."],
      [2, "ChatGPT L2."],
      [3, "Grok L3."],
    ]);
    // Three layers, stopped while the aggregator writes: layer 2 as it was, nothing made up.
    const aggregating = await stopAt((e) => e.event === "moa-aggregate-start", 3);
    expect(aggregating).toEqual([
      [2, "Grok L2."],
      [2, "Claude L2."],
      [2, "ChatGPT L2."],
    ]);
  });

  it("keeps a later layer's proposals cut by a stop as far as they had streamed, and a reopened run shows them", async () => {
    const { server, db } = await servedWithHistory({
      // Grok's proposal streams at once; the others' are still to come when the run is stopped.
      script: withOverrides((req) =>
        req.phase === "proposal"
          ? { text: `${req.participant!.display} refines it at length.`, latencyMs: req.participant!.key === "call_grok" ? 0 : 5_000 }
          : undefined,
      ),
    });
    let runId = "";
    let stopping: Promise<Response> | undefined;
    await readSse(await postChat(server.url, { message: QUESTION, participants: THREE }), (e) => {
      if (e.event === "metadata") runId = String(e.data.run_id);
      if (e.event === "answer-delta" && e.data.stage === "proposal" && !stopping)
        stopping = fetch(`${server.url}/api/v1/debates/${runId}/cancel`, { method: "POST" });
    });
    expect((await stopping!).status).toBe(202);
    const rows = (await db.history.stagesOf(runId)).filter((r) => r.stageType === "moa_proposal");
    // Grok's, as far as it streamed; the others had said nothing.
    expect(rows.map((r) => [r.model, r.content, r.parsedData])).toEqual([
      [MODEL.call_grok, "Grok refines it at length.", expect.objectContaining({ layer: 2, error: "cancelled" })],
    ]);
    const reopened = moaHistory.result(await db.history.stagesOf(runId));
    expect(reopened.layers).toEqual([
      { layer: 2, answers: [], failed: [expect.objectContaining({ modelKey: "call_grok", error: "cancelled", response: "Grok refines it at length." })] },
    ]);
    // The page shows it as it streamed: Grok's text in layer 2, not a failure.
    const { format, result } = (await (await fetch(`${server.url}/api/v1/conversations/${runId}`)).json()).messages[1];
    const page = storedEvents(runId, format, result, QUESTION)!.reduce(reduce, emptyArena());
    expect(page.panel).toMatchObject({ kind: "moa", answers: { 2: { call_grok: { text: "Grok refines it at length.", status: "speaking" } } } });
  });
});
