import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { afterAll, describe, expect, it } from "vitest";
import { testDeps } from "./support/harness.js";
import { startApp } from "./support/http.js";

/** The MCP Inspector's command line (its CLI mode), as installed. */
const INSPECTOR = join(createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector/package.json"), "..", "clients/launcher/build/index.js");
const scratch = mkdtempSync(join(tmpdir(), "debatt-inspector-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the Inspector's CLI with `args`; its exit code and what it printed (its JSON on stdout). */
function inspector(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const env = {
      PATH: process.env.PATH!,
      MCP_CATALOG_PATH: join(scratch, "catalog.json"),
      DEBATT_DATA_DIR: join(scratch, "data"),
      SIMULATED_LATENCY_MS: "0",
      SIMULATED_CHUNK_DELAY_MS: "0",
    };
    const child = spawn(process.execPath, [INSPECTOR, "--cli", ...args], { env });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => resolve({ code: code ?? -1, out, err }));
  });
}

/** debatt's MCP server, as the MCP Inspector (the protocol's own debugging client) sees it. */
describe("the MCP server through the MCP Inspector", () => {
  it("lists a tool per format over stdio (npm run -s mcp)", async () => {
    const { code, out, err } = await inspector(["--cwd", process.cwd(), "--method", "tools/list", "--", process.execPath, "--import", "tsx", "cli/mcp.ts"]);
    expect(code, err).toBe(0);
    const { tools } = JSON.parse(out) as { tools: { name: string; inputSchema: { properties: Record<string, { maxLength?: number }> } }[] };
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["debate", "vote", "revise", "deep", "council", "compare"]));
    expect(tools.find((t) => t.name === "compare")!.inputSchema.properties.question.maxLength).toBe(50_000);
  });

  it("runs a /compare over streamable HTTP, and refuses an empty question naming it", async () => {
    const app = await startApp(testDeps().deps, { checkpointer: new MemorySaver() });
    try {
      const call = (question: string) =>
        inspector([
          `${app.url}/mcp`,
          "--method",
          "tools/call",
          "--tool-name",
          "compare",
          "--tool-arg",
          `question=${question}`,
          "--tool-arg",
          'participants=["call_grok","call_claude"]',
        ]);
      const ran = await call("Which language suits web APIs best?");
      expect(ran.code, ran.err).toBe(0);
      const result = JSON.parse(ran.out) as { content: { text: string }[]; structuredContent: { status: string; answered: number } };
      expect(result.structuredContent).toMatchObject({ status: "complete", answered: 2 });
      expect(result.content[0].text).toMatch(/Grok[\s\S]*Claude|Claude[\s\S]*Grok/);
      const refused = await call("");
      expect(`${refused.out}${refused.err}`).toMatch(/question/i);
      expect(refused.out).not.toMatch(/"status":\s*"complete"/);
    } finally {
      await app.close();
    }
  });
});
