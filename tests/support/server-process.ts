import { afterAll } from "vitest";
import { spawnServer, type SpawnedServer } from "../../scripts/spawn-server.js";

/**
 * Starts `routes/server.ts` (through tsx, or with `command`: the compiled server as the start
 * script runs it) on a free port (and, unless given, a fresh data directory); resolves with its URL.
 */
export async function startServerProcess(
  env: Record<string, string>,
  command = [process.execPath, "--import", "tsx", "routes/server.ts"],
): Promise<SpawnedServer> {
  return spawnServer(command, { SIMULATED_CHUNK_DELAY_MS: "0", ...env });
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
