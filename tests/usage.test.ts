import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadSettings, type Settings } from "../state/config.js";
import { runConfigSchema } from "../state/run-config.js";
import { ConfigError } from "../state/errors.js";
import { addUsage, NO_USAGE, usageOfCall, type PriceTable, type Usage, type UsageReport } from "../state/usage.js";
import { depsFromEnv } from "../service/deps.js";
import { budgetOf } from "../service/run-request.js";
import { defaultScript, type Script } from "./support/fake-model.js";
import { testDeps } from "./support/harness.js";
import { sqliteHistory } from "./support/history-db.js";
import { postChat, readSse, startApp } from "./support/http.js";

const PRICES: PriceTable = { "openai/gpt-4o": { input: 2.5, output: 10, cached_input: 1.25 }, "anthropic/claude-sonnet-4.5": { input: 3, output: 15 } };

describe("what model calls cost", () => {
  it("takes the provider's own cost when it gives one, over the price table", () => {
    const u = usageOfCall("openai/gpt-4o", { input_tokens: 1000, output_tokens: 500, cached_tokens: 0, cost_usd: 0.0123 }, PRICES);
    expect(u).toEqual({ calls: 1, input_tokens: 1000, output_tokens: 500, cached_tokens: 0, reasoning_tokens: 0, cost_usd: 0.0123, unpriced_calls: 0 });
  });

  it("prices tokens from the table, cached input at its own price (else the input price)", () => {
    // 800 fresh input × 2.5 + 200 cached × 1.25 + 500 output × 10, per million.
    expect(usageOfCall("openai/gpt-4o", { input_tokens: 1000, output_tokens: 500, cached_tokens: 200 }, PRICES).cost_usd).toBeCloseTo(
      (800 * 2.5 + 200 * 1.25 + 500 * 10) / 1e6,
      12,
    );
    expect(usageOfCall("anthropic/claude-sonnet-4.5", { input_tokens: 1000, output_tokens: 0, cached_tokens: 400 }, PRICES).cost_usd).toBeCloseTo(
      (1000 * 3) / 1e6,
      12,
    );
  });

  it("counts a model missing from the table as unpriced: tokens only, never a cost of zero passed off as known", () => {
    const u = usageOfCall("meta/llama-4", { input_tokens: 10, output_tokens: 20, cached_tokens: 0 }, PRICES);
    expect(u).toMatchObject({ calls: 1, input_tokens: 10, output_tokens: 20, cost_usd: 0, unpriced_calls: 1 });
    // A table's prototype keys are not models.
    expect(usageOfCall("constructor", { input_tokens: 1, output_tokens: 1, cached_tokens: 0 }, PRICES).unpriced_calls).toBe(1);
  });

  it("adds usages field by field, without float dust in the cost", () => {
    let total = NO_USAGE;
    for (let i = 0; i < 10; i++) total = addUsage(total, usageOfCall("x", { input_tokens: 1, output_tokens: 2, cached_tokens: 0, cost_usd: 0.1 }, {}));
    expect(total).toEqual({ calls: 10, input_tokens: 10, output_tokens: 20, cached_tokens: 0, reasoning_tokens: 0, cost_usd: 1, unpriced_calls: 0 });
  });
});

describe("MODEL_PRICES", () => {
  it("is read inline or from a file, and absent means an empty table", () => {
    expect(loadSettings({}).prices).toEqual({});
    expect(loadSettings({ MODEL_PRICES: JSON.stringify(PRICES) }).prices).toEqual(PRICES);
    const file = join(mkdtempSync(join(tmpdir(), "debatt-prices-")), "prices.json");
    writeFileSync(file, JSON.stringify(PRICES));
    expect(loadSettings({ MODEL_PRICES: file }).prices).toEqual(PRICES);
  });

  it("names the problem: a missing file, bad JSON, a negative or missing price, an unknown field", () => {
    const refusal = (raw: string) => {
      try {
        loadSettings({ MODEL_PRICES: raw });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      throw new Error("accepted");
    };
    expect(refusal("/nonexistent/prices.json")).toMatch(/MODEL_PRICES: cannot read file "\/nonexistent\/prices.json"/);
    expect(refusal("{nope")).toMatch(/MODEL_PRICES is not valid JSON/);
    expect(refusal('{"m": {"input": -1, "output": 2}}')).toMatch(/MODEL_PRICES:[^]*input/);
    expect(refusal('{"m": {"input": 1}}')).toMatch(/MODEL_PRICES:[^]*output/);
    expect(refusal('{"m": {"input": 1, "output": 2, "currency": "EUR"}}')).toMatch(/MODEL_PRICES:[^]*currency/);
  });
});

describe("what a run's model calls used and cost", () => {
  const THREE = ["call_grok", "call_claude", "call_gpt"];
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  /**
   * Models that report usage as providers do: Grok tokens only (priced by the table), Claude
   * tokens and OpenRouter's cost, ChatGPT and the internal model tokens only with no price.
   */
  const reporting: Script = (req, i, messages) => {
    const step = defaultScript(req, i, messages);
    const s = typeof step === "string" ? { text: step } : step;
    const who = req.participant?.key;
    const usage =
      who === "call_claude"
        ? { input: 2000, output: 200, cost: 0.01 }
        : who === "call_grok"
          ? { input: 1000, output: 100, cached: 400 }
          : { input: 500, output: 50 };
    return { ...s, usage };
  };
  const GROK_PRICE = { "x-ai/grok-4": { input: 3, output: 15, cached_input: 0.75 } };

  async function serve(settings: Partial<Settings> = {}, script: Script = reporting) {
    const db = await sqliteHistory();
    closers.push(() => db.close());
    const made = testDeps({ script, settings: { prices: GROK_PRICE, ...settings } });
    const server = await startApp(made.deps, { history: db.history, checkpointer: new MemorySaver() });
    closers.push(server.close);
    return { server, models: made.models };
  }

  it("sends a usage event before done: every call counted, priced by the provider's cost or the table, by participant and stage; the history keeps it", async () => {
    const { server, models } = await serve();
    const { events } = await readSse(await postChat(server.url, { message: "/vote Which language suits web APIs best?", participants: THREE }));
    expect(events.slice(-2).map((e) => e.event)).toEqual(["usage", "done"]);
    const usage = events.at(-2)!.data as UsageReport & { simulated: boolean };
    const grokCalls = models.calls.filter((c) => c.participant === "call_grok").length;
    const claudeCalls = models.calls.filter((c) => c.participant === "call_claude").length;
    expect(grokCalls).toBeGreaterThan(1);
    expect(usage.total.calls).toBe(models.calls.length);
    expect(usage.by_participant.Grok).toMatchObject({ calls: grokCalls, input_tokens: 1000 * grokCalls, cached_tokens: 400 * grokCalls, unpriced_calls: 0 });
    expect(usage.by_participant.Grok.cost_usd).toBeCloseTo((grokCalls * (600 * 3 + 400 * 0.75 + 100 * 15)) / 1e6, 10);
    expect(usage.by_participant.Claude.cost_usd).toBeCloseTo(0.01 * claudeCalls, 10);
    // ChatGPT's and the internal model's calls have no price: counted as unpriced, not as free.
    expect(usage.total.unpriced_calls).toBe(models.calls.length - grokCalls - claudeCalls);
    expect(usage.total.cost_usd).toBeCloseTo(usage.by_participant.Grok.cost_usd + usage.by_participant.Claude.cost_usd, 10);
    expect(Object.keys(usage.by_stage)).toEqual(expect.arrayContaining(["answer", "ballot"]));
    expect(Object.values(usage.by_stage).reduce((n, u) => n + u.calls, 0)).toBe(usage.total.calls);
    expect(usage.simulated).toBe(false);
    // The history answers with the same figures.
    const runId = events.find((e) => e.event === "metadata")!.data.run_id;
    const stored = (await (await fetch(`${server.url}/api/v1/debates/${runId}`)).json()) as { usage: UsageReport; mode: string };
    expect(stored.mode).toBe("vote");
    expect(stored.usage).toEqual({ total: usage.total, by_participant: usage.by_participant, by_stage: usage.by_stage });
  });

  it("puts each answer's own usage on its end event (/debatt turns, /compare answers)", async () => {
    const { server } = await serve();
    const compare = (await readSse(await postChat(server.url, { message: "/compare Tabs or spaces?", participants: THREE }))).events;
    const ends = Object.fromEntries(compare.filter((e) => e.event === "compare-answer-end").map((e) => [e.data.model, e.data.usage]));
    expect(ends.Claude).toEqual({ calls: 1, input_tokens: 2000, output_tokens: 200, cached_tokens: 0, reasoning_tokens: 0, cost_usd: 0.01, unpriced_calls: 0 });
    expect(ends.Grok.cost_usd).toBeCloseTo((600 * 3 + 400 * 0.75 + 100 * 15) / 1e6, 10);
    expect(ends.ChatGPT).toMatchObject({ calls: 1, unpriced_calls: 1 });
    const debate = (await readSse(await postChat(server.url, { message: "/debatt Tabs or spaces?", participants: THREE }))).events;
    const turns = debate.filter((e) => e.event === "debate-participant-end");
    expect(turns).toHaveLength(9);
    expect(turns.every((e) => e.data.usage?.calls === 1)).toBe(true);
  });

  it("puts each answer's usage on the deliberation formats' events too: answers, ballots, revisions, arguments, verdicts, the final texts", async () => {
    const { server } = await serve();
    const run = async (message: string) => (await readSse(await postChat(server.url, { message, participants: THREE }))).events;
    const claude = { calls: 1, input_tokens: 2000, output_tokens: 200, cached_tokens: 0, reasoning_tokens: 0, cost_usd: 0.01, unpriced_calls: 0 };
    const vote = await run("/vote Which language suits web APIs best?");
    const answers = vote.find((e) => e.event === "stage1-complete")!.data.data as { modelKey: string; usage: Usage }[];
    expect(answers.find((a) => a.modelKey === "call_claude")!.usage).toEqual(claude);
    const ballots = vote.find((e) => e.event === "vote-round-complete")!.data.data.votes as { modelKey: string; usage: Usage }[];
    expect(ballots.every((b) => b.usage?.calls === 1)).toBe(true);
    const revise = await run("/revise Should we work four days a week?");
    const revisions = revise.find((e) => e.event === "revision-complete")!.data.data.revisions as { modelKey: string; usage: Usage }[];
    expect(revisions.find((r) => r.modelKey === "call_claude")!.usage).toEqual(claude);
    const deep = await run("/deep Should cities ban cars?");
    const args = deep.find((e) => e.event === "deep-round-complete")!.data.arguments as { modelKey: string; usage: Usage }[];
    expect(args.find((a) => a.modelKey === "call_claude")!.usage).toEqual(claude);
    expect(deep.find((e) => e.event === "deep-synthesis-complete")!.data.data.usage).toMatchObject({ calls: 1, unpriced_calls: 1 });
    const council = await run("/council --debate Rust is a good first language.");
    const verdicts = council.filter((e) => e.event === "council-verdict" && e.data.modelKey === "call_claude");
    expect(verdicts.map((e) => e.data.usage)).toEqual([claude, claude]);
    expect(council.find((e) => e.event === "council-report-complete")!.data.data.usage).toMatchObject({ calls: 1 });
  });

  it("stops a run once its budget is spent: no new call starts, error budget_exceeded, usage and done, and what was said is kept", async () => {
    // Every call costs a cent; the budget allows two and a half.
    const cent: Script = (req, i, messages) => {
      const step = defaultScript(req, i, messages);
      return { ...(typeof step === "string" ? { text: step } : step), usage: { input: 100, output: 10, cost: 0.01 } };
    };
    const { server, models } = await serve({ maxCostUsd: 0.025 }, cent);
    const { events } = await readSse(await postChat(server.url, { message: "/debatt Should AI be regulated?", participants: THREE }));
    expect(models.calls).toHaveLength(3);
    const tail = events.slice(-3);
    expect(tail.map((e) => e.event)).toEqual(["error", "usage", "done"]);
    expect(tail[0].data.code).toBe("budget_exceeded");
    expect(tail[1].data.total).toMatchObject({ calls: 3, cost_usd: 0.03 });
    expect(tail[1].data.budget_usd).toBe(0.025);
    const runId = events.find((e) => e.event === "metadata")!.data.run_id;
    const stored = (await (await fetch(`${server.url}/api/v1/debates/${runId}`)).json()) as {
      status: string;
      error: string;
      result: { rounds: { answers: { status: string }[] }[] };
    };
    expect(stored.status).toBe("error");
    expect(stored.error).toContain("budget");
    // The three answers that were paid for are kept whole.
    expect(stored.result.rounds[0].answers.map((a) => a.status)).toEqual(["ok", "ok", "ok"]);
  });

  it("lets a run's own max_cost_usd lower DEBATT_MAX_COST_USD, never raise it", () => {
    expect(loadSettings({ DEBATT_MAX_COST_USD: "0.5" }).maxCostUsd).toBe(0.5);
    expect(() => loadSettings({ DEBATT_MAX_COST_USD: "-1" })).toThrow(/DEBATT_MAX_COST_USD/);
    expect(runConfigSchema({ responseTimeoutMs: 1, voteTimeoutMs: 1 }).safeParse({ max_cost_usd: 0 }).success).toBe(false);
    expect(budgetOf(0.1, 0.5)).toBe(0.1);
    expect(budgetOf(2, 0.5)).toBe(0.5);
    expect(budgetOf(2, undefined)).toBe(2);
    expect(budgetOf(undefined, 0.5)).toBe(0.5);
    expect(budgetOf(undefined, undefined)).toBeUndefined();
  });

  it("takes a budget from the OpenAI-compatible request (max_cost_usd), and answers 402 budget_exceeded when it stops the run", async () => {
    const cent: Script = (req, i, messages) => {
      const step = defaultScript(req, i, messages);
      return { ...(typeof step === "string" ? { text: step } : step), usage: { input: 100, output: 10, cost: 0.01 } };
    };
    const { server, models } = await serve({}, cent);
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "debatt", messages: [{ role: "user", content: "Should AI be regulated?" }], participants: THREE, max_cost_usd: 0.015 }),
    });
    expect(res.status).toBe(402);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("budget_exceeded");
    expect(models.calls).toHaveLength(2);
  });

  it("writes each call's usage to the history as it is counted, and a call on record before it is sent, so a run cut short keeps what it spent", async () => {
    // ChatGPT's answer does not come; Grok's and Claude's do.
    const hanging: Script = (req, i, messages) => {
      const step = reporting(req, i, messages) as Exclude<ReturnType<Script>, string>;
      return req.participant?.key === "call_gpt" ? { ...step, latencyMs: 600_000 } : step;
    };
    const { server } = await serve({}, hanging);
    const client = new AbortController();
    const res = await postChat(server.url, { message: "/compare Which language suits web APIs best?", participants: THREE }, { signal: client.signal });
    let runId = "";
    const reading = readSse(res, (e) => void (e.event === "metadata" && (runId = String(e.data.run_id)))).catch(() => undefined);
    const stored = async () => (await (await fetch(`${server.url}/api/v1/debates/${runId}`)).json()) as { status: string; usage: UsageReport | null };
    // While the run still waits for ChatGPT, the history already holds the two calls that answered
    // and ChatGPT's, on record before it was sent: a call in flight, of unknown cost.
    await vi.waitFor(async () => expect((await stored()).usage?.by_participant.Claude?.cost_usd).toBe(0.01), { timeout: 60_000, interval: 50 });
    expect(await stored()).toMatchObject({
      status: "streaming",
      usage: {
        total: { calls: 3 },
        by_participant: {
          Grok: { calls: 1, input_tokens: 1000 },
          Claude: { calls: 1, input_tokens: 2000 },
          ChatGPT: { calls: 1, input_tokens: 0, unpriced_calls: 1 },
        },
      },
    });
    // Stopped, the call that never answered counts too, as a call of unknown cost.
    expect((await fetch(`${server.url}/api/v1/debates/${runId}/cancel`, { method: "POST" })).status).toBeLessThan(300);
    await reading;
    client.abort();
    await vi.waitFor(async () => expect((await stored()).status).not.toBe("streaming"), { timeout: 60_000, interval: 50 });
    expect((await stored()).usage?.total).toMatchObject({ calls: 3, unpriced_calls: 1 });
  });

  it("keeps a resumed run to the budget its earlier attempt spent: it stops before its first call", async () => {
    const cent: Script = (req, i, messages) => {
      const step = defaultScript(req, i, messages);
      return { ...(typeof step === "string" ? { text: step } : step), usage: { input: 100, output: 10, cost: 0.01 } };
    };
    const { server, models } = await serve({ maxCostUsd: 0.025 }, cent);
    const first = (await readSse(await postChat(server.url, { message: "/debatt Should AI be regulated?", participants: THREE }))).events;
    expect(first.find((e) => e.event === "error")!.data.code).toBe("budget_exceeded");
    const threadId = first.find((e) => e.event === "metadata")!.data.thread_id;
    const resumed = (await readSse(await fetch(`${server.url}/api/v1/debates/${threadId}/resume`, { method: "POST" }))).events;
    expect(models.calls).toHaveLength(3);
    expect(resumed.find((e) => e.event === "error")!.data.code).toBe("budget_exceeded");
    // The usage is the run's: both attempts.
    expect(resumed.find((e) => e.event === "usage")!.data.total).toMatchObject({ calls: 3, cost_usd: 0.03 });
  });
});

describe("the estimate before a run", () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  /** A server on the simulated provider (which reports tokens), with a price for its internal model. */
  async function simulated() {
    const dir = mkdtempSync(join(tmpdir(), "debatt-estimate-"));
    const prices = JSON.stringify({ "openai/gpt-4.1-mini": { input: 0.4, output: 1.6 } });
    const deps = depsFromEnv(
      { DEBATT_DATA_DIR: dir, SIMULATED_LATENCY_MS: "0", SIMULATED_CHUNK_DELAY_MS: "0", MODEL_PRICES: prices, DEBATT_MAX_COST_USD: "2" },
      { log: () => {} },
    );
    const server = await startApp(deps);
    closers.push(server.close);
    const estimate = async (body: object) =>
      fetch(`${server.url}/api/v1/estimate`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return { server, estimate, deps };
  }

  it.each([
    "/debatt Should AI be regulated?",
    "/vote Which language suits web APIs best?",
    "/revise Should we work four days a week?",
    "/deep Should cities ban cars?",
    "/council --debate Rust is a good first language.",
    "/compare How do I learn TypeScript?",
  ])("expects the calls %s makes, and tokens of the size it uses", async (message) => {
    const { server, estimate } = await simulated();
    const expected = (await (await estimate({ message })).json()) as Usage & { simulated: boolean; max_cost_usd: number };
    const { events } = await readSse(await postChat(server.url, { message }));
    const used = events.find((e) => e.event === "usage")!.data.total as Usage;
    expect(expected.simulated).toBe(true);
    expect(expected.max_cost_usd).toBe(2);
    // The usual path's calls (a chairman's tiebreak may add one).
    expect(Math.abs(expected.calls - used.calls), `${expected.calls} expected, ${used.calls} made`).toBeLessThanOrEqual(1);
    // Outputs at the word limits and token budgets: for the simulated models' short answers never less than was used, and not wildly more.
    expect(expected.input_tokens).toBeGreaterThanOrEqual(used.input_tokens);
    expect(expected.output_tokens).toBeGreaterThanOrEqual(used.output_tokens);
    expect(expected.input_tokens / used.input_tokens).toBeLessThan(8);
    // The internal model is priced, the simulated participants' models are not.
    expect(expected.cost_usd).toBeGreaterThan(0);
    expect(expected.unpriced_calls).toBeLessThan(expected.calls);
    if (message.startsWith("/debatt"))
      expect(events.find((e) => e.event === "debate-init")!.data.estimate).toEqual(expect.objectContaining({ calls: expected.calls }));
  });

  it("expects a spoken debate at the voice settings' word limits, as its run does", async () => {
    const { server, estimate, deps } = await simulated();
    const written = (await (await estimate({ message: "/debatt AI?" })).json()) as Usage;
    // Not paced: the local voice would hold the text to its audio, minutes of it, for nothing this test reads.
    const spoken = async () => (await (await estimate({ message: "/dvoice --paced off AI?" })).json()) as Usage;
    expect((await spoken()).output_tokens).toBe(written.output_tokens);
    await deps.voiceSettings!.save({ word_limits: { introduction: 60, argument: 90, deepening: 90 } });
    const shorter = await spoken();
    expect(shorter.output_tokens).toBeLessThan(written.output_tokens);
    const { events } = await readSse(await postChat(server.url, { message: "/dvoice --paced off AI?" }));
    expect(events.find((e) => e.event === "debate-init")!.data.estimate).toMatchObject({ output_tokens: shorter.output_tokens, calls: shorter.calls });
  });

  it("refuses what the chat stream would refuse, naming the problem", async () => {
    const { estimate } = await simulated();
    const refusal = async (body: object) => {
      const res = await estimate(body);
      return [res.status, ((await res.json()) as { error: { code: string } }).error.code];
    };
    expect(await refusal({ message: "/vote" })).toEqual([400, "missing_topic"]);
    expect(await refusal({ message: "/debatt --fast Cats?" })).toEqual([400, "unknown_option"]);
    expect(await refusal({ message: "/vote Which?", participants: ["call_grok"] })).toEqual([400, "invalid_participants"]);
    expect(await refusal({ message: 42 })).toEqual([400, "invalid_body"]);
    // A chat message is one call of the internal model.
    expect(await (await estimate({ message: "Hello there" })).json()).toMatchObject({ format: "chat", calls: 1, unpriced_calls: 0 });
  });
});
