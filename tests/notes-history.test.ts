import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { depsFromEnv } from "../service/deps.js";
import { sqliteHistory, type TestHistory } from "./support/history-db.js";
import { postChat, readSse, startApp } from "./support/http.js";
import { startReplayProvider } from "./support/replay-provider.js";

/**
 * What an answer carries beside its text (its reasoning, its sources, how it ended) is kept in the
 * history and the exports, over recorded provider streams: OpenRouter's (reasoning and a
 * url_citation), Perplexity's (citations), DeepSeek's (reasoning_content), a stream cut by the
 * token limit and a refusal.
 */
describe("reasoning, sources and endings in the history and the exports", () => {
  const SHAPES = {
    "x-ai/grok-4": "openrouter.sse",
    "sonar-pro": "perplexity.sse",
    "deepseek-reasoner": "deepseek.sse",
    "failing/length": "length.sse",
    "failing/refusal": "refusal.sse",
  };
  const NAMES = ["OpenRouter", "Perplexity", "DeepSeek", "Cut", "Refuser"];
  let provider: Awaited<ReturnType<typeof startReplayProvider>>;
  let db: TestHistory;
  let app: Awaited<ReturnType<typeof startApp>>;
  beforeAll(async () => {
    provider = await startReplayProvider(SHAPES);
    db = await sqliteHistory();
    const participants = Object.keys(SHAPES).map((model, i) => ({ key: `call_n${i}`, display: NAMES[i], model }));
    const deps = depsFromEnv(
      {
        OPENAI_API_KEY: "sk-test",
        OPENAI_BASE_URL: provider.baseURL,
        DEBATE_MAX_RETRIES: "0",
        ONESEEK_MODEL: "sonar-pro",
        DEBATE_PARTICIPANTS: JSON.stringify(participants),
      },
      { log: () => {} },
    );
    app = await startApp(deps, { checkpointer: new MemorySaver(), history: db.history });
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
    await provider?.close();
  });

  it("keeps each /compare answer's reasoning, sources and ending in its stored row, and shows them in the Markdown export", async () => {
    const { events } = await readSse(await postChat(app.url, { message: "/compare Behövs kärnkraft?" }));
    expect(events.at(-1)!.event).toBe("done");
    const id = String(events[0].data.thread_id);
    const rows = (await db.rows("deliberation_stages")).filter((r) => r.stage_type === "compare_answer");
    const stored = (model: string) => JSON.parse(String(rows.find((r) => r.model === model)!.parsed_data));
    expect(stored("x-ai/grok-4")).toMatchObject({
      status: "ok",
      reasoning: "Väger kostnad mot utsläpp.",
      sources: [{ url: "https://example.org/iea", title: "IEA 2025" }],
    });
    expect(stored("sonar-pro").sources).toHaveLength(2);
    expect(stored("failing/length")).toMatchObject({ status: "ok", ending: "length" });
    expect(stored("failing/refusal")).toMatchObject({ status: "error", ending: "refused", error: "refused: I can't help with that." });
    // The answer as stored is the answer alone.
    expect(rows.map((r) => String(r.content)).join("\n")).not.toMatch(/Väger kostnad|Jämför riskerna/);

    const md = await (await fetch(`${app.url}/api/v1/conversations/${id}/export?format=md`)).text();
    // Perplexity's [1] links to its first source, and its sources are listed under its answer.
    expect(md).toContain("> Kärnkraft behövs [\\[1\\]](<https://example.org/iaea>) i övergången");
    expect(md).toContain("> - \\[2\\] [IRENA outlook](<https://example.org/irena>)");
    // DeepSeek's thinking is folded away apart from its answer; the cut answer says it was cut.
    expect(md).toMatch(/<details><summary>Thinking<\/summary>\n\n> Jämför riskerna\.\n\n<\/details>/);
    expect(md).toContain("_⚠ cut at the token limit_");
    expect(md).toMatch(/refused: I can't help with that\./);
  });

  it("gives the OpenAI-compatible client each answer's sources after it, and the reasoning tokens apart in its usage", async () => {
    const client = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: "not-needed-on-loopback", maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: "debatt-compare", messages: [{ role: "user", content: "Behövs kärnkraft?" }] });
    const content = completion.choices[0].message.content ?? "";
    expect(content).toContain("- [2] IRENA outlook <https://example.org/irena>");
    expect(content).not.toMatch(/Väger kostnad|Jämför riskerna/);
    // OpenRouter's 8 reasoning tokens and DeepSeek's 20, each counted once.
    expect(completion.usage?.completion_tokens_details?.reasoning_tokens).toBe(28);
  });

  /** The CLI over the same recorded streams, in a data folder of its own. */
  const cli = (args: string[]) =>
    new Promise<{ code: number; out: string }>((resolve) => {
      const dir = mkdtempSync(join(tmpdir(), "debatt-notes-"));
      const participants = JSON.stringify([
        { key: "call_d", display: "DeepSeek", model: "deepseek-reasoner" },
        { key: "call_p", display: "Perplexity", model: "sonar-pro" },
      ]);
      const env = {
        PATH: process.env.PATH!,
        OPENAI_API_KEY: "sk-test",
        OPENAI_BASE_URL: provider.baseURL,
        DEBATE_MAX_RETRIES: "0",
        ONESEEK_MODEL: "sonar-pro",
        DEBATE_PARTICIPANTS: participants,
        DEBATT_DATA_DIR: dir,
        NO_COLOR: "1",
      };
      const child = spawn(process.execPath, ["--import", "tsx", "cli/debate.ts", ...args], { env });
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.on("close", (code) => {
        rmSync(dir, { recursive: true, force: true });
        resolve({ code: code ?? -1, out });
      });
    });

  it("prints an answer's sources in the CLI, and its thinking only with --show-thinking", async () => {
    const plain = await cli(["/compare Behövs kärnkraft?"]);
    expect(plain.code).toBe(0);
    expect(plain.out).toContain("Sources:\n   • [1] IAEA report <https://example.org/iaea>");
    expect(plain.out).not.toContain("Jämför riskerna");
    const thinking = await cli(["--show-thinking", "/compare Behövs kärnkraft?"]);
    expect(thinking.out).toContain("Thinking:\n   │ Jämför riskerna.");
    // The thinking is told apart, after the answer: never inside it.
    expect(thinking.out.indexOf("Jämför riskerna")).toBeGreaterThan(thinking.out.indexOf("Kärnkraft behövs i övergången"));
  });
});
