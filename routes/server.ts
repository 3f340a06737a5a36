import type { AddressInfo } from "node:net";
import { stderrLog } from "../service/app-deps.js";
import { depsFromEnv } from "../service/deps.js";
import { ConfigError } from "../state/errors.js";
import { openCheckpoints } from "../providers/checkpointer.js";
import { openHistory } from "../history/open.js";
import { createApp } from "./app.js";

/**
 * Entry point of `npm start`: reads the environment, serves on PORT, and on SIGTERM or SIGINT stops
 * accepting connections, lets running debates finish within SHUTDOWN_GRACE_MS, cancels what is
 * left (its clients get an `error` event and `done`), and exits 0.
 */
async function main(): Promise<void> {
  const log = stderrLog;
  let deps;
  try {
    deps = depsFromEnv(process.env, { log });
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`debatt: configuration error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const checkpoints = await openCheckpoints(deps.settings).catch((err: Error) => {
    log(`cannot open the checkpoints (${deps.settings.databaseUrl ? "DATABASE_URL" : deps.settings.dataDir}): ${err.message}`);
    process.exit(2);
  });
  log(`runs are checkpointed in ${checkpoints.where}; an interrupted one resumes with POST /api/v1/debates/<thread_id>/resume`);
  const history = await openHistory(deps.settings).catch((err: Error) => {
    log(`cannot open the history (${deps.settings.databaseUrl ? "DATABASE_URL" : deps.settings.dataDir}): ${err.message}`);
    process.exit(2);
  });
  log(`the history is in ${history.where}: GET /api/v1/conversations`);
  const { app, service } = createApp(deps, { checkpointer: checkpoints.saver, history });
  const server = app.listen(deps.settings.port, () => {
    const { port } = server.address() as AddressInfo;
    log(`listening on http://127.0.0.1:${port} (pid ${process.pid})`);
  });
  server.on("error", (err) => {
    log(`cannot listen on port ${deps.settings.port}: ${err.message}`);
    process.exit(1);
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: no new connections; waiting up to ${deps.settings.shutdownGraceMs} ms for ${service.size} running stream(s)`);
    server.close();
    server.closeIdleConnections();
    const cancelled = await service.shutdown(deps.settings.shutdownGraceMs);
    if (cancelled > 0) log(`cancelled ${cancelled} stream(s) at the end of the grace period`);
    server.closeAllConnections();
    await deps.prompts.close();
    await deps.events?.close?.();
    await checkpoints.close();
    await history.close();
    log("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

void main();
