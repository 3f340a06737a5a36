import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { testDeps } from "./support/harness.js";
import { HISTORY_DATABASES, historyDatabaseHooks } from "./support/history-db.js";
import { postChat, postDeliberate, startApp } from "./support/http.js";

/** Texts that no surface may accept, with what the refusal must name. */
const BAD = [
  { what: "a lone surrogate", text: "Är x \ud800 y bra?", names: /not valid Unicode/ },
  { what: "a NUL", text: "Är x \u0000 y bra?", names: /control characters/ },
  { what: "a C1 control (U+0085)", text: "Är x \u0085 y bra?", names: /control characters/ },
  { what: "an escape", text: "Är x \u001b[31m y bra?", names: /control characters/ },
];

describe.each(HISTORY_DATABASES)("every surface refuses the same text on $db", (database) => {
  const hooks = historyDatabaseHooks(database);

  it.skipIf(database.skip)(
    "the chat and deliberate streams, /v1 and MCP each answer 400 (or a tool error) naming the problem, and nothing is stored or asked",
    async () => {
      const db = await hooks.open();
      const { deps, models } = testDeps();
      const server = await startApp(deps, { history: db.history, checkpointer: new MemorySaver() });
      hooks.later(server.close);
      const client = new Client({ name: "debatt-tests", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
      hooks.later(() => client.close());

      for (const { what, text, names } of BAD) {
        const answers = {
          chat: await postChat(server.url, { message: `/vote ${text}` }),
          deliberate: await postDeliberate(server.url, { question: text, mode: "vote" }),
          v1: await fetch(`${server.url}/v1/chat/completions`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ model: "debatt-vote", messages: [{ role: "user", content: text }] }),
          }),
        };
        for (const [surface, res] of Object.entries(answers)) {
          expect(res.status, `${surface}: ${what}`).toBe(400);
          expect((await res.json()).error.message, `${surface}: ${what}`).toMatch(names);
        }
        const tool = (await client.callTool({ name: "vote", arguments: { question: text } })) as { isError?: boolean; content: { text: string }[] };
        expect(tool.isError, `mcp: ${what}`).toBe(true);
        expect(tool.content[0].text, `mcp: ${what}`).toMatch(names);
        expect(tool.content[0].text).not.toMatch(/insert into|select |params:/i);
      }
      expect(models.calls).toHaveLength(0);
      expect(await db.rows("conversations")).toEqual([]);

      // The longest question a surface takes is taken by the run service too (it adds no limit of its own).
      const longest = `Är ${"x".repeat(3_990)} bra?`;
      const v1 = await fetch(`${server.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "debatt-compare", messages: [{ role: "user", content: longest }] }),
      });
      expect(v1.status).toBe(200);
      expect(((await v1.json()) as { choices: unknown[] }).choices).toHaveLength(1);
    },
  );
});

describe("a body that is not UTF-8", () => {
  it("is refused with 400 invalid_body by /api/v1, /v1 and /mcp alike", async () => {
    const { deps } = testDeps();
    const server = await startApp(deps);
    try {
      const body = Buffer.concat([
        Buffer.from('{"model": "debatt", "message": "/vote x", "question": "x'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('", "messages": [{"role": "user", "content": "x"}]}'),
      ]);
      for (const path of ["/api/v1/chat/stream", "/v1/chat/completions", "/mcp"]) {
        const res = await fetch(`${server.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          body,
        });
        expect(res.status, path).toBe(400);
        expect(JSON.stringify(await res.json()), path).toMatch(/invalid_body/);
      }
    } finally {
      await server.close();
    }
  });
});

describe("the terminal refuses the same text", () => {
  it("exits 2 naming the problem, before any run", () => {
    const env = { PATH: process.env.PATH!, LANG: "C.UTF-8", SIMULATED_LATENCY_MS: "0", DEBATT_DATA_DIR: mkdtempSync(join(tmpdir(), "debatt-cli-text-")) };
    const run = spawnSync(process.execPath, ["--import", "tsx", "cli/debate.ts", "/vote Är x \u0085 y bra?"], { env, encoding: "utf8" });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/control characters/);
  });
});
