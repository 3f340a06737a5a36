import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Opens the SQLite history in `dir` in a process of its own, at `at` (ms since the epoch, so that
 * the processes open it at the same moment whatever their start-up took); resolves with its exit
 * code and what it wrote to stderr.
 */
function openInProcess(dir: string, at: number): Promise<{ code: number | null; stderr: string }> {
  const script = [
    `import { openAppHistory } from "./service/formats.ts";`,
    `while (Date.now() < ${at});`,
    `const h = await openAppHistory({ dataDir: ${JSON.stringify(dir)} }, () => {});`,
    `await h.close();`,
  ].join(" ");
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stderr })));
}

describe("the SQLite history opened by instances that start together", () => {
  it("opens in every one of them: one waits for another's lock instead of failing with SQLITE_BUSY", async () => {
    for (let round = 0; round < 3; round++) {
      const dir = mkdtempSync(join(tmpdir(), "debatt-open-"));
      try {
        const at = Date.now() + 6_000;
        const results = await Promise.all(Array.from({ length: 6 }, () => openInProcess(dir, at)));
        for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0 });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }, 120_000);
});
