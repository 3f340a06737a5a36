import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { descendantsOf, reap } from "./support/reap.js";

describe("a test file's processes die with it", () => {
  it.skipIf(process.platform !== "linux")("finds and kills every process started below the worker, grandchildren too", async () => {
    // A shell that starts a sleeper of its own and waits for it: a server's child processes look the same.
    const shell = spawn("sh", ["-c", "sleep 300 & echo started; wait"], { stdio: ["ignore", "pipe", "ignore"] });
    await once(shell.stdout, "data");
    const below = descendantsOf(process.pid);
    expect(below).toContain(shell.pid);
    expect(below.length).toBeGreaterThanOrEqual(2);
    const exited = once(shell, "exit");
    expect(reap()).toBeGreaterThanOrEqual(2);
    await exited;
    expect(descendantsOf(process.pid).filter((pid) => below.includes(pid))).toEqual([]);
  });
});
