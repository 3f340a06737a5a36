import { MemorySaver } from "@langchain/langgraph";
import type { BaseMessage } from "@langchain/core/messages";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import OpenAI from "openai";
import { describe, expect, it, onTestFinished } from "vitest";
import { ballotsOfRun } from "../history/ballots.js";
import { rankHistory } from "../history/formats/rank.js";
import { promptDefinition } from "../prompts/registry.js";
import { HISTORY_FORMATS, simulatedModels } from "../service/formats.js";
import { parseCommand } from "../state/commands.js";
import { strictEventSchema } from "../state/events.js";
import { defaultRoster } from "../state/participants.js";
import { aggregateRankings, parseRanking, RANKING_REPLY, renderRanking } from "../state/replies/ranking.js";
import { answerOf, withOverrides, type Script, type Step } from "./support/fake-model.js";
import { graphOf, named, runEvents, testDeps, stepNames } from "./support/harness.js";
import { postDeliberate, readSse } from "./support/http.js";
import { servedWithHistory } from "./support/served.js";
import { emptyArena, reduce } from "../web/arena-state.js";
import { storedEvents } from "../web/stored-events.js";

const THREE = ["call_grok", "call_claude", "call_gpt"];
const FOUR = [...THREE, "call_gemini"];
const MODEL = Object.fromEntries(defaultRoster().map((p) => [p.key, p.model]));
const ABC = ["Response A", "Response B", "Response C"];

const promptOf = (messages: BaseMessage[]) => messages.map((m) => String(m.content)).join("\n");

/** The label under which a participant's (default-scripted) answer appears in a ranking prompt. */
function labelOf(messages: BaseMessage[], display: string): string {
  const hit = [...promptOf(messages).matchAll(/--- (Response [A-Z]) ---\n([^\n]*)/g)].find((b) => b[2].startsWith(`${display} says`));
  if (!hit) throw new Error(`no answer of ${display} in the prompt`);
  return hit[1];
}

/** A script in which each ranker (by key) ranks the named participants' answers in that order, or answers with a step. */
function rankings(orders: Record<string, string[] | Step>, chairman?: Step | string): Script {
  return withOverrides((req, _i, messages) => {
    if (req.phase === "chairman") return chairman;
    if (req.phase !== "ranking") return undefined;
    const order = orders[req.participant!.key];
    if (order === undefined || !Array.isArray(order)) return order;
    return renderRanking(
      order.map((display) => labelOf(messages, display)),
      "Each has merits.",
    );
  });
}

/** Runs /rank with a checkpointer, and gives its events and the run's final state (the answer). */
async function run(script: Script | undefined, participants: string[], configurable: Record<string, unknown> = {}) {
  const { deps, models } = testDeps({ script });
  const checkpointer = new MemorySaver();
  const events = await runEvents(deps, "/rank Which language suits web APIs best?", { participants, checkpointer, threadId: "t", configurable });
  const state = (await graphOf(deps, { checkpointer }).getState({ configurable: { thread_id: "t" } })).values as { answer: string | null };
  return { events, models, answer: state.answer };
}

describe("/rank: the command and its replies", () => {
  it("is its own command, single-turn, taking a question", () => {
    expect(parseCommand("/rank Which is best?")).toEqual({ kind: "deliberation", mode: "rank", question: "Which is best?", options: {} });
    expect(parseCommand("/rank")).toEqual({ kind: "missing_topic", command: "/rank" });
    expect(parseCommand("/ranking x")).toEqual({ kind: "chat", text: "/ranking x" });
  });

  it("asks for its ranking with the shared text, and reads back what it renders", () => {
    expect(promptDefinition("rank.ranking")?.default).toContain(RANKING_REPLY);
    const text = renderRanking(["Response C", "Response A", "Response B"], "A is thin; C is concrete.");
    expect(parseRanking(text, ABC)).toEqual({
      order: ["Response C", "Response A", "Response B"],
      valid: true,
      source: "list",
      missing: [],
      repeated: [],
      unknown: [],
    });
  });

  it("reads a messy ranking: bold labels, markdown header, extra text, several entries on a line", () => {
    const bold =
      "Response A is thin. Response B is long.\n\n**FINAL RANKING:**\n1. **Response B**\n2. **Response C** (close)\n3. Response A\n\nThat is my view.";
    expect(parseRanking(bold, ABC)).toMatchObject({ order: ["Response B", "Response C", "Response A"], valid: true, source: "list" });
    expect(parseRanking("## Final ranking\n1) Response C 2) Response B 3) Response A", ABC)).toMatchObject({
      order: ["Response C", "Response B", "Response A"],
      valid: true,
    });
    // The last header counts (a model may write one before its evaluation too); a header must open its line.
    expect(
      parseRanking("FINAL RANKING:\n(after the evaluation)\n\n1. Response B is thin.\n\nFINAL RANKING:\n1. Response A\n2. Response C\n3. Response B", ABC)
        .order,
    ).toEqual(["Response A", "Response C", "Response B"]);
    expect(parseRanking("My final ranking is below.\n1. Response C\n2. Response B\n3. Response A", ABC)).toMatchObject({
      source: "text",
      order: ["Response C", "Response B", "Response A"],
    });
  });

  it("reads the last numbered list of a reply without the header, not the order its evaluation names the answers in", () => {
    const evaluation = "Response A is thin. Response B is concrete. Response C is close.\n\n";
    expect(parseRanking(`${evaluation}1. Response B\n2. Response C\n3. Response A`, ABC)).toMatchObject({
      order: ["Response B", "Response C", "Response A"],
      valid: true,
      source: "text",
    });
    // An evaluation with a numbered list of its own before the ranking: the last list is the ranking.
    expect(parseRanking(`1. Response A is thin.\n2. Response B is concrete.\n\nMy order:\n1. Response C\n2. Response B\n3. Response A`, ABC).order).toEqual([
      "Response C",
      "Response B",
      "Response A",
    ]);
  });

  it("shows the labels mentioned after the header, or in the whole text without one, in order of first mention, but never counts them", () => {
    expect(parseRanking("FINAL RANKING: Response C beats Response A, which beats Response B; Response C again.", ABC)).toMatchObject({
      order: ["Response C", "Response A", "Response B"],
      valid: false,
      problem: "unlisted",
      source: "section",
    });
    expect(parseRanking("Best is Response B, then Response A, then Response C.", ABC)).toMatchObject({
      order: ["Response B", "Response A", "Response C"],
      valid: false,
      problem: "unlisted",
      source: "text",
    });
    // A lower-case letter is a word, not a label.
    expect(parseRanking("A response a reader likes: Response C, then Response A, then Response B.", ABC).order).toEqual([
      "Response C",
      "Response A",
      "Response B",
    ]);
  });

  it("drops unknown labels and repeats, and says why a ranking does not count", () => {
    expect(parseRanking("FINAL RANKING:\n1. Response F\n2. Response B\n3. Response A\n4. Response C", ABC)).toMatchObject({
      order: ["Response B", "Response A", "Response C"],
      valid: true,
      unknown: ["Response F"],
    });
    expect(parseRanking("FINAL RANKING:\n1. Response A\n2. Response B\n3. Response A\n4. Response C", ABC)).toMatchObject({
      order: ABC,
      valid: false,
      problem: "repeated",
      repeated: ["Response A"],
    });
    expect(parseRanking("FINAL RANKING:\n1. Response B\n2. Response A", ABC)).toMatchObject({
      order: ["Response B", "Response A"],
      valid: false,
      problem: "incomplete",
      missing: ["Response C"],
    });
    expect(parseRanking("FINAL RANKING:\nI cannot decide.", ABC)).toMatchObject({ order: [], valid: false, problem: "no_ranking", source: "section" });
    expect(parseRanking("", ABC)).toMatchObject({ valid: false, problem: "no_ranking" });
  });

  it("averages the valid rankings' places, best first, a tie to the earlier name, invalid rankings not counted", () => {
    const places = aggregateRankings(
      [
        { order: ABC, valid: true },
        { order: ["Response B", "Response A", "Response C"], valid: true },
        { order: ["Response A", "Response C", "Response B"], valid: true },
        { order: ["Response C"], valid: false },
      ],
      ABC,
    );
    expect(places).toEqual([
      { label: "Response A", averagePosition: 1.333, rankings: 3 },
      { label: "Response B", averagePosition: 2, rankings: 3 },
      { label: "Response C", averagePosition: 2.667, rankings: 3 },
    ]);
    const tie = aggregateRankings(
      [
        { order: ["Response A", "Response B"], valid: true },
        { order: ["Response B", "Response A"], valid: true },
      ],
      ["Response A", "Response B"],
      (l) => (l === "Response A" ? "Zed" : "Amy"),
    );
    expect(tie.map((p) => p.label)).toEqual(["Response B", "Response A"]);
    expect(aggregateRankings([{ order: [], valid: false }], ABC)).toEqual([]);
  });
});

describe("/rank: the pipeline", () => {
  it("gives the first answers llm-council's room (4,000 tokens) unless the run sets a budget; /vote's stay at 800", async () => {
    const asked: (number | undefined)[] = [];
    const script = withOverrides((req) => {
      if (req.phase === "answer") asked.push(req.maxTokens);
      return undefined;
    });
    await run(script, ["call_grok", "call_claude", "call_gpt"]);
    expect(asked).toEqual([4000, 4000, 4000]);
    asked.length = 0;
    await run(script, ["call_grok", "call_claude", "call_gpt"], { max_response_tokens: 500 });
    expect(asked).toEqual([500, 500, 500]);
    asked.length = 0;
    const { deps } = testDeps({ script });
    await runEvents(deps, "/vote Tabs or spaces?", { participants: ["call_grok", "call_claude", "call_gpt"] });
    expect(asked).toEqual([800, 800, 800]);
  });

  it("answers, ranks in parallel, aggregates, and the chairman's streamed text is the answer", async () => {
    const script: Script = (req, i, messages) => {
      const step = rankings({})(req, i, messages);
      return req.phase === "answer" || req.phase === "ranking" ? { text: step as string, latencyMs: 150 } : step;
    };
    const { events, models, answer } = await run(script, FOUR);
    expect(stepNames(events)).toEqual([
      "rank-start",
      "stage1-start",
      "stage1-complete",
      "rank-rankings-start",
      "rank-ranking",
      "rank-ranking",
      "rank-ranking",
      "rank-ranking",
      "rank-aggregate",
      "rank-final",
      "title-complete",
      "complete",
      "done",
    ]);
    for (const e of events) expect(strictEventSchema(e.event)!.safeParse(e.data).success, e.event).toBe(true);
    // Each stage in parallel: every call of it was asked for before any had answered.
    for (const phase of ["answer", "ranking"] as const) expect(models.callsOf(phase).map((c) => c.answeredBefore)).toEqual([0, 0, 0, 0]);
    // The title is written beside the first answers (as llm-council does), once, and told at the end.
    const asked = models.calls.map((c) => c.phase);
    expect(asked.filter((p) => p === "title")).toHaveLength(1);
    expect(asked.indexOf("title")).toBeLessThan(asked.indexOf("ranking"));
    expect(asked.slice(0, 5).sort()).toEqual(["answer", "answer", "answer", "answer", "title"]);
    expect(named(events, "rank-start")[0]).toMatchObject({ mode: "rank", chairman: { modelKey: "chairman", display: "gpt-4.1-mini" } });
    expect(named(events, "rank-rankings-start")[0].labels).toEqual(["Response A", "Response B", "Response C", "Response D"]);
    // The default fake ranks in the order shown: every ranking counts, Response A is first.
    const aggregate = named(events, "rank-aggregate")[0].data;
    expect(aggregate).toMatchObject({ validRankings: 4, invalidRankings: 0, invalid: [] });
    expect(aggregate.ranking.map((p: { label: string; averagePosition: number }) => [p.label, p.averagePosition])).toEqual([
      ["Response A", 1],
      ["Response B", 2],
      ["Response C", 3],
      ["Response D", 4],
    ]);
    expect(aggregate.ranking[0].model).toBe(aggregate.labelToModel["Response A"]);
    const chairman = "## The chairman's answer\n\nThe council's best answer.";
    expect(
      named(events, "answer-delta")
        .filter((d) => d.stage === "chairman")
        .map((d) => d.delta)
        .join(""),
    ).toBe(chairman);
    expect(named(events, "rank-final")[0].data).toMatchObject({ answer: chairman, fallback: false, modelKey: "chairman" });
    expect(answer).toBe(chairman);
    expect(models.callsOf("chairman")).toHaveLength(1);
  });

  it("counts invalid rankings with why, and ranks by the valid ones' mean place, by author", async () => {
    const { events } = await run(
      rankings({
        call_grok: ["Claude", "Grok", "ChatGPT", "Gemini"],
        call_claude: ["Claude", "ChatGPT", "Grok", "Gemini"],
        call_gpt: { text: "FINAL RANKING:\n1. Response A" },
        call_gemini: { error: new Error("down") },
      }),
      FOUR,
    );
    const rankingOf = (key: string) => named(events, "rank-ranking").find((e) => e.data.modelKey === key)!.data;
    expect(rankingOf("call_gpt")).toMatchObject({ valid: false, problem: "incomplete", missing: expect.arrayContaining(["Response B"]) });
    expect(rankingOf("call_gemini")).toMatchObject({ valid: false, problem: "failed", error: "down", parsedRanking: [] });
    const aggregate = named(events, "rank-aggregate")[0].data;
    expect(aggregate).toMatchObject({ validRankings: 2, invalidRankings: 2 });
    expect(aggregate.invalid.map((i: { modelKey: string; problem: string }) => [i.modelKey, i.problem])).toEqual([
      ["call_gpt", "incomplete"],
      ["call_gemini", "failed"],
    ]);
    // Claude 1 and 1; Grok 2 and 3 (2.5); ChatGPT 3 and 2 (2.5): the tie goes to the earlier name. Gemini last in both: 4.
    expect(aggregate.ranking.map((p: { display: string; averagePosition: number; rankings: number }) => [p.display, p.averagePosition, p.rankings])).toEqual([
      ["Claude", 1, 2],
      ["ChatGPT", 2.5, 2],
      ["Grok", 2.5, 2],
      ["Gemini", 4, 2],
    ]);
  });

  it("gives the chairman every answer and every ranking, anonymised, with the council's ranking", async () => {
    const { models } = await run(rankings({ call_grok: ["Claude", "Grok", "ChatGPT"] }), THREE);
    const prompt = promptOf(models.callsOf("chairman")[0].messages);
    for (const display of ["Grok", "Claude", "ChatGPT"]) expect(prompt).toContain(`---\n${answerOf(display, 1)}\n`);
    expect(prompt.match(/^--- Ranking \d ---$/gm)).toHaveLength(3);
    expect(prompt.match(/weighed each answer\./g)).toHaveLength(2);
    expect(prompt).toContain("Each has merits.");
    expect(prompt).toMatch(/^1\. Response [A-C]: mean place /m);
    expect(prompt).not.toMatch(/anthropic|x-ai|openai\//);
  });

  it("lets the top-ranked answer stand in when the chairman fails, and says so", async () => {
    const { events, answer } = await run(
      rankings(
        { call_grok: ["Claude", "Grok", "ChatGPT"], call_claude: ["Claude", "ChatGPT", "Grok"], call_gpt: ["Claude", "Grok", "ChatGPT"] },
        { error: new Error("chairman 503") },
      ),
      THREE,
    );
    expect(stepNames(events).slice(-4)).toEqual(["rank-final", "title-complete", "complete", "done"]);
    expect(named(events, "rank-final")[0].data).toMatchObject({
      fallback: true,
      error: "chairman 503",
      display: "Claude",
      modelKey: "call_claude",
      answer: answerOf("Claude", 1),
    });
    expect(answer).toBe(answerOf("Claude", 1));
  });

  it("stops with chairman_failed when the chairman fails and no ranking counted", async () => {
    const unreadable = { text: "No idea." };
    const { events, answer } = await run(
      rankings({ call_grok: unreadable, call_claude: unreadable, call_gpt: unreadable }, { error: new Error("chairman 503") }),
      THREE,
    );
    expect(named(events, "rank-aggregate")[0].data).toMatchObject({ ranking: [], validRankings: 0, invalidRankings: 3 });
    expect(stepNames(events).slice(-3)).toEqual(["rank-aggregate", "error", "done"]);
    expect(named(events, "error")[0]).toMatchObject({ code: "chairman_failed" });
    expect(answer).toBeNull();
  });

  it("takes 3–8 models (4 by default), the chairman from its options, and no follow-up", async () => {
    const { deps, models } = testDeps();
    expect(named(await runEvents(deps, "/rank Q?", { participants: ["call_grok", "call_claude"] }), "error")[0].message).toBe(
      "/rank needs 3–8 models, 2 requested",
    );
    expect(named(await runEvents(deps, "/rank Q?"), "rank-start")[0].participants).toHaveLength(4);
    const chaired = await runEvents(deps, "/rank Q?", { modeConfig: { models: THREE, chairman: "Gemini" } });
    expect(named(chaired, "rank-start")[0].chairman).toMatchObject({ modelKey: "call_gemini" });
    expect(models.callsOf("chairman", "call_gemini")).toHaveLength(1);
    const checkpointer = new MemorySaver();
    await runEvents(deps, "/rank Q?", { participants: THREE, checkpointer, threadId: "once" });
    expect(named(await runEvents(deps, "/rank Then?", { participants: THREE, checkpointer, threadId: "once" }), "error")[0].code).toBe("follow_up_unsupported");
  });

  it("shuffles the labels with the run's seed, on a state of at most 20 keys", async () => {
    const maps: string[] = [];
    for (const seed of [1, 2, 3, 4, 1]) maps.push(JSON.stringify(named((await run(undefined, FOUR, { seed })).events, "rank-aggregate")[0].data.labelToModel));
    expect(new Set(maps.slice(0, 4)).size).toBeGreaterThan(1);
    expect(maps[4]).toBe(maps[0]);
    const graph = graphOf(testDeps().deps);
    const channels = (graph.nodes["rank" as keyof typeof graph.nodes] as unknown as { bound: { channels: Record<string, unknown> } }).bound.channels;
    expect(Object.keys(channels).filter((k) => !/^(branch:|join:|__)/.test(k)).length).toBeLessThanOrEqual(20);
  });
});

describe("/rank in the history and on the leaderboard", () => {
  it("keeps its rows and reads them back into what it streamed; each full ranking is n−1 Plackett–Luce choices", async () => {
    const script = rankings({
      call_grok: ["Claude", "Grok", "ChatGPT"],
      call_claude: ["ChatGPT", "Claude", "Grok"],
      call_gpt: { text: "FINAL RANKING:\n1. Response A" },
    });
    const { server, db } = await servedWithHistory({ script });
    const { events } = await readSse(await postDeliberate(server.url, { question: "Which?", mode: "rank", modeConfig: { models: THREE } }));
    const runId = named(events, "rank-start")[0].messageId as string;
    const rows = await db.history.stagesOf(runId);
    expect(rows.map((r) => r.stageType)).toEqual([
      "rank_panel",
      "rank_label_map",
      "rank_answer",
      "rank_answer",
      "rank_answer",
      "rank_ranking",
      "rank_ranking",
      "rank_ranking",
      "rank_aggregate",
      "rank_final",
    ]);
    const { timestamp: _t, ...aggregate } = named(events, "rank-aggregate")[0];
    const result = rankHistory.result(rows);
    expect(result.rankings).toEqual(
      named(events, "rank-ranking")
        .map((e) => e.data)
        .sort((a, b) => THREE.indexOf(a.modelKey) - THREE.indexOf(b.modelKey)),
    );
    expect(result.aggregate).toEqual(aggregate.data);
    expect(result.final).toEqual(named(events, "rank-final")[0].data);
    expect(result.stage1.map((a) => a.modelKey)).toEqual(THREE);
    expect(result.chairman).toMatchObject({ modelKey: "chairman" });
    expect(result.labelToModel).toEqual(aggregate.data.labelToModel);

    const labels = aggregate.data.labelToModel as Record<string, string>;
    const ballots = ballotsOfRun(
      HISTORY_FORMATS,
      rows.map((r) => ({ ...r, runAt: new Date(0) })),
    );
    // Two full rankings of three answers: two choices each; the incomplete one gives none.
    expect(ballots.map((b) => [b.voter, b.chosen, b.candidates.map((c) => c.position)])).toEqual([
      [MODEL.call_grok, MODEL.call_claude, [0, 1, 2]],
      [MODEL.call_grok, MODEL.call_grok, [0, 1, 2].filter((p) => labels[ABC[p]] !== MODEL.call_claude)],
      [MODEL.call_claude, MODEL.call_gpt, [0, 1, 2]],
      [MODEL.call_claude, MODEL.call_claude, [0, 1, 2].filter((p) => labels[ABC[p]] !== MODEL.call_gpt)],
    ]);
    for (const b of ballots) {
      expect(b).toMatchObject({ format: "rank", runId, namesKnown: false, simulated: false });
      expect(b.candidates.find((c) => c.position === b.chosenPosition)?.model).toBe(b.chosen);
      expect(labels[ABC[b.chosenPosition]]).toBe(b.chosen);
      expect(b.candidates.every((c) => c.words === answerOf(defaultRoster().find((p) => p.model === c.model)!.display, 1).split(" ").length)).toBe(true);
    }
  });
});

describe("/rank on the other surfaces", () => {
  it("is the /v1 model debatt-rank and the MCP tool rank, and runs as both", async () => {
    const { server } = await servedWithHistory();
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "not-needed-on-loopback", maxRetries: 0 });
    const ids: string[] = [];
    for await (const model of openai.models.list()) ids.push(model.id);
    expect(ids).toContain("debatt-rank");
    const completion = await openai.chat.completions.create({
      model: "debatt-rank",
      messages: [{ role: "user", content: "Which language suits web APIs best?" }],
      participants: THREE,
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(completion.choices[0].message.content!.trim()).toBe("## The chairman's answer\n\nThe council's best answer.");
    expect((completion.choices[0].message as unknown as { reasoning_content: string }).reasoning_content).toMatch(/The council's ranking/);

    const client = new Client({ name: "debatt-tests", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    onTestFinished(() => client.close());
    const tool = (await client.listTools()).tools.find((t) => t.name === "rank")!;
    expect(tool.outputSchema?.properties).toHaveProperty("ranking");
    const result = await client.callTool({ name: "rank", arguments: { question: "Which?", participants: THREE } });
    expect(result.isError).toBeFalsy();
    const outcome = result.structuredContent as {
      status: string;
      ranking: { name: string; averagePosition: number }[];
      validRankings: number;
      invalidRankings: number;
    };
    expect(outcome).toMatchObject({ status: "complete", validRankings: 3, invalidRankings: 0 });
    expect(outcome.ranking.map((p) => p.averagePosition)).toEqual([1, 2, 3]);
  });

  it("simulates rankings that parse for every model, and a chairman's answer, in the question's language", async () => {
    for (const question of ["/rank Which language suits web APIs best?", "/rank Vilket språk passar bäst för webb-API:er?"]) {
      const { deps } = testDeps();
      deps.models = simulatedModels({ latencyMs: 0, chunkDelayMs: 0, chunkTokens: 50 });
      const events = await runEvents(deps, question, { modeConfig: { models: defaultRoster().map((p) => p.key) } });
      const rankingsOf = named(events, "rank-ranking").map((e) => e.data);
      expect(rankingsOf).toHaveLength(8);
      for (const r of rankingsOf) expect(r, r.display).toMatchObject({ valid: true, source: "list" });
      expect(named(events, "rank-aggregate")[0].data.validRankings).toBe(8);
      const final = named(events, "rank-final")[0].data;
      expect(final.fallback).toBe(false);
      expect(final.answer).not.toMatch(/Response [A-Z]/);
      expect(final.answer).toMatch(question.includes("Vilket") ? /## Svar/ : /## Answer/);
    }
  });
});

describe("a /rank run reopened from the history", () => {
  it("names its chairman as the run did, or by the final answer's author when it was stored without one, never 'Chairman'", () => {
    const who = (display: string, key: string) => ({ model: `m/${key}`, display, modelKey: key });
    const stored = {
      stage1: [{ ...who("Grok", "grok"), response: "Go.", responseTimeMs: 1 }],
      rankings: [],
      final: { answer: "Go.", ...who("gpt-4.1-mini", "chairman"), fallback: false, responseTimeMs: 1 },
    };
    const chairOf = (result: unknown) => {
      const arena = storedEvents("r", "rank", result, "/rank Which?")!.reduce(reduce, emptyArena());
      return arena.panel?.kind === "rank" ? arena.panel.chairman.display : undefined;
    };
    expect(chairOf({ ...stored, chairman: who("Claude", "claude") })).toBe("Claude");
    expect(chairOf(stored)).toBe("gpt-4.1-mini");
    expect(chairOf({ ...stored, final: { ...stored.final, ...who("Grok", "grok"), fallback: true } })).toBe("");
  });
});
