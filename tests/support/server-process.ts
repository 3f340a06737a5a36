import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

/**
 * Starts `routes/server.ts` (through tsx, or with `command`: the compiled server as the start
 * script runs it) on a free port (and, unless given, a fresh data directory); resolves with its URL.
 */
export async function startServerProcess(env: Record<string, string>, command = [process.execPath, "--import", "tsx", "routes/server.ts"]): Promise<{ child: ChildProcess; url: string; log: () => string; exited: Promise<number | null> }> {
  const child = spawn(command[0], command.slice(1), {
    env: { PATH: process.env.PATH, PORT: "0", SIMULATED_CHUNK_DELAY_MS: "0", DEBATT_DATA_DIR: mkdtempSync(join(tmpdir(), "debatt-data-")), ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      log += chunk.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m) resolve(m[1]);
    });
    void exited.then((code) => reject(Object.assign(new Error(`server exited with ${code}: ${log}`), { exitCode: code })));
  });
  return { child, url, log: () => log, exited };
}

/** Within a describe: starts `npm start`'s server processes (`startServerProcess`) and kills them after all its tests. */
export function serverProcesses(): (env: Record<string, string>) => ReturnType<typeof startServerProcess> {
  const servers: Awaited<ReturnType<typeof startServerProcess>>[] = [];
  afterAll(async () => {
    for (const s of servers) {
      s.child.kill("SIGKILL");
      await s.exited;
    }
  });
  return async (env) => {
    const server = await startServerProcess(env);
    servers.push(server);
    return server;
  };
}
