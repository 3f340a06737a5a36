import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Builds what `npm start` serves (`npm run build`); throws when the build fails. */
export function build(): void {
  if (spawnSync("npm", ["run", "-s", "build"], { stdio: "inherit" }).status !== 0) throw new Error("npm run build failed");
}

/** The package's start script as a command line: the server exactly as `npm start` runs it (after its build). */
export function startCommand(): string[] {
  return (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { start: string } }).scripts.start.split(/\s+/);
}

/**
 * Starts a server with `command` on a free port, a fresh data directory and the per-client run
 * limits lifted (one benchmark client asks everything), and waits for its listening line.
 */
export async function startServer(command: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(command[0], command.slice(1), {
    env: { PATH: process.env.PATH, PORT: "0", DEBATT_DATA_DIR: mkdtempSync(join(tmpdir(), "debatt-bench-")), RUNS_PER_MINUTE: "100000", MAX_CONCURRENT_RUNS: "100000", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on("data", (d: Buffer) => {
      log += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`the server exited with ${code}: ${log}`)));
  });
  return { child, url };
}

/** CPU time a process has used, in ms (utime + stime of /proc/<pid>/stat, in 10 ms ticks). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
