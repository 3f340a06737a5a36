import { createServer, type ServerOptions } from "node:http";
import type { AddressInfo } from "node:net";
import { stderrLog } from "../service/app-deps.js";
import { depsFromEnv } from "../service/deps.js";
import { ConfigError } from "../state/errors.js";
import { openCheckpoints } from "../providers/checkpointer.js";
import { openAppHistory } from "../service/formats.js";
import { createApp } from "./app.js";

/**
 * How long a client may take: 10 s for its headers, 30 s for the whole request (a body sent
 * byte by byte is cut off; the answer, e.g. a debate's event stream, may take as long as it
 * takes), 5 s of idleness between requests on a kept-alive connection. Checked every second.
 */
const SOCKET_LIMITS: ServerOptions = { headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000, connectionsCheckingInterval: 1_000 };

/** The URL of the address really bound (an IPv6 address in brackets). */
function urlOf(address: AddressInfo): string {
  return `http://${address.family === "IPv6" ? `[${address.address}]` : address.address}:${address.port}`;
}

/**
 * Entry point of `npm start`: reads the environment, serves on HOST (loopback by default) and PORT, and on SIGTERM or SIGINT drains
 * (no new runs; `/healthz` answers 503 `draining`), lets running debates finish within SHUTDOWN_GRACE_MS, cancels what is
 * left (its clients get an `error` event and `done`), and exits 0.
 */
async function main(): Promise<void> {
  const log = stderrLog;
  let deps;
  try {
    deps = depsFromEnv(process.env, { log, instance: true });
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`debatt: configuration error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const checkpoints = await openCheckpoints(deps.settings, log).catch((err: Error) => {
    log(`cannot open the checkpoints (${deps.settings.databaseUrl ? "DATABASE_URL" : deps.settings.dataDir}): ${err.message}`);
    process.exit(2);
  });
  log(`runs are checkpointed in ${checkpoints.where}; an interrupted one resumes with POST /api/v1/debates/<thread_id>/resume`);
  const history = await openAppHistory(deps.settings, log).catch((err: Error) => {
    log(`cannot open the history (${deps.settings.databaseUrl ? "DATABASE_URL" : deps.settings.dataDir}): ${err.message}`);
    process.exit(2);
  });
  log(`the history is in ${history.where}: GET /api/v1/conversations`);
  log(
    deps.settings.auth === "tokens"
      ? "AUTH=tokens: every /api/v1 route needs a user token (npm run users -- add <name>)"
      : "AUTH=none: anyone who reaches this loopback address is the one local user",
  );
  const { app, service } = createApp(deps, { checkpointer: checkpoints.saver, history });
  const { host, port } = deps.settings;
  const server = createServer(SOCKET_LIMITS, app).listen(port, host, () => log(`listening on ${urlOf(server.address() as AddressInfo)} (pid ${process.pid})`));
  // A model id the endpoints do not list (retired, misspelt) is named now, not when a run fails on it.
  void deps.checkModels?.().then(
    ({ endpoints }) => {
      for (const e of endpoints) {
        if (e.status === "ok" && e.missing.length) {
          const hints = e.missing.filter((m) => e.nearest[m]).map((m) => `${m} → ${e.nearest[m]}?`);
          log(
            `${e.base_url} does not list the configured model(s) ${e.missing.join(", ")}: runs will fail on them${hints.length ? ` (nearest listed: ${hints.join(", ")})` : ""} (GET /api/v1/health/models)`,
          );
        } else if (e.status === "auth_failed" || e.status === "unreachable") log(`${e.base_url} (${e.key_var}): ${e.status}${e.error ? `: ${e.error}` : ""}`);
      }
    },
    (err: Error) => log(`checking the model endpoints failed: ${err.message}`),
  );
  server.on("error", (err) => {
    log(`cannot listen on ${host} port ${port}: ${err.message}`);
    process.exit(1);
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Draining: the server still answers (a load balancer reads /healthz's 503 and moves traffic
    // away; readers may still replay), but no new run starts. It closes once the runs are done.
    log(`${signal}: draining: no new runs, /healthz answers 503; waiting up to ${deps.settings.shutdownGraceMs} ms for ${service.size} running stream(s)`);
    const cancelled = await service.shutdown(deps.settings.shutdownGraceMs);
    if (cancelled > 0) log(`cancelled ${cancelled} stream(s) at the end of the grace period`);
    server.close();
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
