import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A server process started by `spawnServer`. */
export interface SpawnedServer {
  child: ChildProcess;
  /** The address it says it listens on. */
  url: string;
  /** Everything it has written to stderr so far. */
  log: () => string;
  /** Resolves with its exit code when it exits. */
  exited: Promise<number | null>;
}

/**
 * Starts a debatt server with `command` on a free port and a fresh data directory (both unless
 * `env` says otherwise) and resolves once it prints its listening line; rejects with its log if
 * it exits first. With `group`, it leads a process group of its own (stop it with `stopGroup`).
 * For the tests and the benchmarks.
 */
export async function spawnServer(command: string[], env: Record<string, string> = {}, options: { group?: boolean } = {}): Promise<SpawnedServer> {
  const child = spawn(command[0], command.slice(1), {
    env: { PATH: process.env.PATH, PORT: "0", DEBATT_DATA_DIR: mkdtempSync(join(tmpdir(), "debatt-data-")), ...env },
    stdio: ["ignore", "ignore", "pipe"],
    // A process group of its own: a command that starts the server as a child of its own (tsx's
    // wrapper) can then be stopped whole. Killing only the wrapper left the server running.
    detached: options.group === true,
  });
  let log = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on("data", (chunk: Buffer) => {
      log += chunk.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m) resolve(m[1]);
    });
    void exited.then((code) => reject(Object.assign(new Error(`the server exited with ${code}: ${log}`), { exitCode: code })));
  });
  if (options.group) {
    // Out of the terminal's process group, the server would outlive an interrupted benchmark.
    const stop = () => stopGroup({ child });
    const interrupted = (signal: NodeJS.Signals) => {
      stop();
      process.exit(128 + (signal === "SIGINT" ? 2 : 15));
    };
    process.once("exit", stop).once("SIGINT", interrupted).once("SIGTERM", interrupted);
    void exited.then(() => process.off("exit", stop).off("SIGINT", interrupted).off("SIGTERM", interrupted));
  }
  return { child, url, log: () => log, exited };
}

/** Sends `signal` to every process of a server started with `group` (the command and its children). */
export function stopGroup(server: Pick<SpawnedServer, "child">, signal: NodeJS.Signals = "SIGKILL"): void {
  try {
    process.kill(-server.child.pid!, signal);
  } catch {
    // Already gone.
  }
}
