import { MemorySaver } from "@langchain/langgraph";
import { onTestFinished } from "vitest";
import type { Settings } from "../../state/config.js";
import type { Script } from "./fake-model.js";
import { testDeps } from "./harness.js";
import { sqliteHistory } from "./history-db.js";
import { startApp } from "./http.js";

/**
 * The app served on a free loopback port with scripted models, a history in a new SQLite file
 * and a memory checkpointer, all closed when the test finishes; with the models (their calls) and
 * the history's raw rows.
 */
export async function servedWithHistory(options: { script?: Script; settings?: Partial<Settings> } = {}) {
  const db = await sqliteHistory();
  const made = testDeps(options);
  const server = await startApp(made.deps, { history: db.history, checkpointer: new MemorySaver() });
  onTestFinished(async () => {
    await server.close();
    await db.close();
  });
  return { server, models: made.models, db };
}
