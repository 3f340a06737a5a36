import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readSse } from "./support/http.js";
import { startServerProcess } from "./support/server-process.js";

describe("npm start: the compiled server", () => {
  it("builds, and serves the page, a run and the history from compiled JavaScript, without tsx", async () => {
    const built = spawnSync("npm", ["run", "-s", "build"], { encoding: "utf8" });
    expect(built.status, built.stderr).toBe(0);
    // It says what it does; built again with nothing changed, the page is not bundled again.
    expect(built.stderr).toContain("build: compiling the server");
    const again = spawnSync("npm", ["run", "-s", "build"], { encoding: "utf8" });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain("build: the page is up to date");
    expect(again.stderr).not.toContain("bundling the page");
    // The start script's own command line, as npm runs it after the build.
    const start = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts.start.split(/\s+/);
    expect(start[0]).toBe("node");
    expect(start.join(" ")).not.toContain("tsx");
    const { child, url } = await startServerProcess({}, start);
    try {
      // The page, from the build's copy of it.
      expect(await (await fetch(url)).text()).toContain("<title>debatt</title>");
      // A run, and its conversation in the history (the migrations ran from the build's copy).
      const { events } = await readSse(
        await fetch(`${url}/api/v1/chat/stream`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ message: "/vote Which language?" }),
        }),
      );
      expect(events.at(-1)!.event).toBe("done");
      const listed = (await (await fetch(`${url}/api/v1/conversations`)).json()) as { conversations: { mode: string }[] };
      expect(listed.conversations.map((c) => c.mode)).toEqual(["vote"]);
      expect(((await (await fetch(`${url}/api/v1/evaluations/latest`)).json()) as { evaluation: unknown }).evaluation).toBeNull();
    } finally {
      child.kill("SIGKILL");
    }
  }, 120_000);
});
