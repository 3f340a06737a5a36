import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { openAppHistory } from "../service/formats.js";
import { openCheckpoints } from "../providers/checkpointer.js";
import { escapeControls } from "../service/app-deps.js";
import { depsFromEnv } from "../service/deps.js";
import { createMcpServer } from "../service/mcp.js";
import { createRunService } from "../service/run-service.js";
import { ConfigError } from "../state/errors.js";
import { LOCAL_OWNER } from "../state/ownership.js";

/** How long runs still going get to end when the host closes the server. */
const SHUTDOWN_GRACE_MS = 2_000;

/**
 * `npm run -s mcp`: debatt's MCP server over stdio, for agent hosts that start their servers as
 * processes (Claude Desktop, Cursor, VS Code). stdout carries the protocol only; the log goes to
 * stderr. Runs are recorded like the server's and belong to the local user.
 */
async function main(): Promise<void> {
  const log = (line: string) => process.stderr.write(`[debatt] ${escapeControls(line)}\n`);
  let deps;
  try {
    deps = depsFromEnv(process.env, { log });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    log(err.message);
    process.exit(2);
  }
  const checkpoints = await openCheckpoints(deps.settings);
  const history = await openAppHistory(deps.settings);
  const service = createRunService(deps, { checkpointer: checkpoints.saver, history });
  const server = createMcpServer({ service, settings: deps.settings, history }, { id: LOCAL_OWNER, admin: false, quotaKey: "stdio" });
  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    await service.shutdown(SHUTDOWN_GRACE_MS);
    await server.close();
    await checkpoints.close();
    await history.close();
    process.exit(0);
  };
  // The host ends the server by closing its stdin, or with a signal.
  process.stdin.on("end", close);
  process.on("SIGINT", close);
  process.on("SIGTERM", close);
  await server.connect(new StdioServerTransport());
  log(`MCP server on stdio${deps.models.simulated ? " (simulated models: no OPENAI_API_KEY)" : ""}`);
}

await main();
