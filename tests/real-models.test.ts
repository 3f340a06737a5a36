import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { depsFromEnv } from "../service/deps.js";
import { createRunService } from "../service/run-service.js";
import { startApp } from "./support/http.js";
import type { EvalReport } from "../state/evaluation/report.js";
import { missingModelsReason, modelPaths, modelsDir, REAL_ROSTER, startLlamaServer, type LlamaServer } from "./support/llama-server.js";

/**
 * Every format end to end on two real language models (SmolLM2 135M Instruct and Gemma 3 270M,
 * on the CPU through llama.cpp), with short budgets. Whatever the models write, what must hold is
 * checked: the run ends with `done`; no answer is empty without a named reason; a reply that is
 * not a valid vote, ranking or verdict is counted as invalid and the run still reaches a result;
 * the tokens counted are the ones the server reported.
 */

const paths = modelPaths();

/** Short answers: the models are small, the machine has two cores, and CI has other work. */
const SHORT = { max_response_tokens: 48, context_chars: 200, response_timeout_ms: 120_000, vote_timeout_ms: 120_000 };

/** Each format's message; /deep and /council kept to their shortest path. */
const RUNS: [string, string, Record<string, unknown>][] = [
  ["/debatt", "/debatt Should cities ban cars from their centres?", {}],
  ["/compare", "/compare Is tea better than coffee?", {}],
  ["/vote", "/vote Which is the best first programming language?", {}],
  ["/revise", "/revise Which is the best first programming language?", {}],
  ["/deep", "/deep Should homework be abolished?", { mode_config: { maxRounds: 2 } }],
  ["/council", "/council Python is a good first language.", {}],
  ["/rank", "/rank What makes a good first programming project?", {}],
  ["/moa", "/moa How should a small team plan a week?", {}],
  ["chat", "What is the capital of Sweden?", {}],
];

/** How a deliberation ends without a result when no model gave what it needs (a valid ballot, verdict or argument). */
const NO_RESULT = ["too_few_answers", "all_models_failed", "all_votes_invalid", "chairman_failed", "all_debaters_failed", "all_judges_failed"];

/** Every object in an event's data (nested ones too). */
function objectsIn(value: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(value)) for (const v of value) objectsIn(v, out);
  else if (value && typeof value === "object") {
    out.push(value as Record<string, unknown>);
    for (const v of Object.values(value)) objectsIn(v, out);
  }
  return out;
}

/** Answers that say they are whole but hold no text, or that failed without a reason. */
function silentAnswers(events: { event: string; data: unknown }[]): string[] {
  const out: string[] = [];
  for (const e of events)
    for (const o of objectsIn(e.data)) {
      if (o.status === "error" && !(typeof o.error === "string" && o.error.trim())) out.push(`${e.event}: an error without a reason`);
      if (o.status === "ok" && o.word_count === 0) out.push(`${e.event}: no words, marked ok`);
      for (const field of ["response", "response_preview", "text", "answer", "argument"])
        if (o.status === "ok" && typeof o[field] === "string" && !o[field].trim()) out.push(`${e.event}: an empty ${field} marked ok`);
    }
  return out;
}

describe.skipIf(!paths)(`every format on real language models${paths ? "" : ` (skipped: ${missingModelsReason()})`}`, () => {
  let llama: LlamaServer;
  const env = () => ({
    OPENAI_API_KEY: "sk-local",
    OPENAI_BASE_URL: `${llama.url}/v1`,
    DEBATE_PARTICIPANTS: JSON.stringify(REAL_ROSTER),
    ONESEEK_MODEL: "smollm2",
    DEBATE_MAX_RETRIES: "0",
  });

  beforeAll(async () => {
    llama = await startLlamaServer({ models: { smollm2: paths!.smollm2, gemma3: paths!.gemma3 }, contextSize: 4096 });
  }, 300_000);
  afterAll(async () => {
    await llama?.close();
  });

  it.each(RUNS)(
    "%s ends with done, no answer empty without a reason, and the tokens the server reported",
    async (_name, message, configurable) => {
      // As a client's run goes: through the run service, which counts the usage and ends with `done`.
      const service = createRunService(depsFromEnv(env(), { log: () => {} }), { checkpointer: new MemorySaver() });
      const before = llama.reported.length;
      const { runId } = await service.start({ message, configurable: { ...SHORT, ...configurable } });
      const events: { event: string; data: unknown }[] = [];
      for await (const e of service.events(runId, 0, new AbortController().signal)) events.push(e);
      expect(events.at(-1)?.event).toBe("done");
      expect(silentAnswers(events)).toEqual([]);
      // A run ends with a result, or with an honest "no result" that says why (tiny models often
      // write no valid ballot, verdict or argument): never with a failure of its own.
      const errors = events.filter((e) => e.event === "error").map((e) => e.data as { code: string; message: string });
      expect(errors.filter((e) => !NO_RESULT.includes(e.code) || !e.message.trim())).toEqual([]);
      // What the run counted is what the server said it used, call by call.
      const reported = llama.reported.slice(before);
      const usage = events.find((e) => e.event === "usage")!.data as { total: { calls: number; input_tokens: number; output_tokens: number } };
      // A call cut by its timeout (a busy machine) counts as a call with no tokens; the server reports only those it finished.
      expect(usage.total.calls).toBeGreaterThanOrEqual(reported.length);
      expect(usage.total.input_tokens).toBe(reported.reduce((n, r) => n + r.prompt_tokens, 0));
      expect(usage.total.output_tokens).toBe(reported.reduce((n, r) => n + r.completion_tokens, 0));
    },
    600_000,
  );

  it("answers one /v1 chat completion and one MCP tool call", async () => {
    const deps = depsFromEnv(env(), { log: () => {} });
    const server = await startApp(deps, { checkpointer: new MemorySaver() });
    try {
      const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "unused" });
      const completion = await openai.chat.completions.create({ model: "debatt-compare", messages: [{ role: "user", content: "Is tea better than coffee?" }] });
      expect(completion.choices[0].message.content?.trim()).toBeTruthy();
      expect(completion.usage?.total_tokens).toBeGreaterThan(0);

      const client = new Client({ name: "debatt-real-models", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
      try {
        const result = (await client.callTool({ name: "vote", arguments: { question: "Which is the best first programming language?" } }, undefined, {
          timeout: 600_000,
        })) as { isError?: boolean; content: { text: string }[]; structuredContent?: { error?: { code: string } } };
        // An answer, or a run without a result that says why, in words and as a code.
        expect(
          result.content
            .map((c) => c.text)
            .join("")
            .trim(),
        ).not.toBe("");
        if (result.isError) expect(NO_RESULT).toContain(result.structuredContent?.error?.code);
      } finally {
        await client.close();
      }
    } finally {
      await server.close();
    }
  }, 900_000);
});

describe.skipIf(!paths)(`npm run eval:real${paths ? "" : ` (skipped: ${missingModelsReason()})`}`, () => {
  it("evaluates on the real models: their answers read, their tokens counted, the report marked real", async () => {
    const dir = mkdtempSync(join(tmpdir(), "debatt-eval-real-"));
    const out = join(dir, "report.json");
    // One question, the arms that are no format: the wiring, not the figures (those are docs/evidence.md's).
    const child = spawn(
      "node_modules/.bin/tsx",
      ["scripts/eval-real.ts", "--n", "1", "--tasks", "letters", "--arms", "single,majority", "--lang", "en", "--out", out],
      {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, DEBATT_MODELS_DIR: modelsDir(), DEBATT_DATA_DIR: join(dir, "data"), DEBATT_LLAMA_THREADS: "1" },
      },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code, stderr).toBe(0);
    const report = JSON.parse(readFileSync(out, "utf8")) as EvalReport;
    expect(report).toMatchObject({ simulated: false, max_tokens: 96, answered: 1, participant_names: REAL_ROSTER.map((p) => p.display) });
    expect(report.arms.map((a) => a.arm).sort()).toEqual([...REAL_ROSTER.map((p) => `single:${p.key}`), "majority"].sort());
    for (const arm of report.arms) expect([arm.arm, arm.failed, arm.tokens_per_question > 0]).toEqual([arm.arm, 0, true]);
  }, 600_000);
});
