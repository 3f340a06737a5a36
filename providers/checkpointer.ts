import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { openPgPool, withMigrationLock } from "./pg-pool.js";
import { redactUrl } from "./redact.js";
import { WriteBehindSaver } from "./write-behind-saver.js";

/** A checkpointer and what it holds on to. */
export interface Checkpoints {
  saver: BaseCheckpointSaver;
  /** Where the checkpoints are, for the log: a file path or a redacted URL. */
  where: string;
  close(): Promise<void>;
}

/**
 * The LangGraph checkpointer of the service: PostgreSQL when DATABASE_URL is set, else an SQLite
 * file in the data directory (`<DEBATT_DATA_DIR>/checkpoints.sqlite`), so a fresh machine needs
 * nothing. Every graph step is saved under the run's thread id, so after a crash a run resumes
 * from its last completed step (in a debate: the last completed participant turn). On PostgreSQL,
 * instances that start together migrate one at a time, and a database that restarts costs the
 * saves in flight (their runs end with `write_failed`), not the process.
 */
export async function openCheckpoints(
  settings: { dataDir: string; databaseUrl?: string },
  log: (line: string) => void = (line) => console.error(`[debatt] ${line}`),
): Promise<Checkpoints> {
  // Each saver's library is loaded only when it is the one configured.
  if (settings.databaseUrl) {
    const { PostgresSaver } = await import("@langchain/langgraph-checkpoint-postgres");
    const pool = await openPgPool(settings.databaseUrl, { what: "the checkpoints", log });
    const saver = new PostgresSaver(pool);
    try {
      await withMigrationLock(pool, () => saver.setup());
    } catch (err) {
      await pool.end();
      throw err;
    }
    const writeBehind = new WriteBehindSaver(saver);
    const close = async () => {
      await writeBehind.flushed();
      await saver.end();
    };
    return { saver: writeBehind, where: redactUrl(settings.databaseUrl), close };
  }
  mkdirSync(settings.dataDir, { recursive: true });
  const file = join(settings.dataDir, "checkpoints.sqlite");
  const { SqliteSaver } = await import("@langchain/langgraph-checkpoint-sqlite");
  const saver = SqliteSaver.fromConnString(file);
  // The saver turns on WAL; with it, NORMAL syncs at checkpoints of the WAL rather than at every
  // step's commit. A killed process loses nothing; only a power cut may lose the last steps.
  saver.db.pragma("synchronous = NORMAL");
  reuseStatements(saver.db);
  const writeBehind = new WriteBehindSaver(saver);
  const close = async () => {
    await writeBehind.flushed();
    saver.db.close();
  };
  return { saver: writeBehind, where: file, close };
}

/** The most statements `reuseStatements` keeps (the saver's SQL comes in a handful of shapes). */
const MAX_STATEMENTS = 64;

/**
 * Makes `db.prepare` hand back the statement it prepared before for the same SQL. The SQLite
 * saver prepares its insert anew at every step's save and every task's writes (about a tenth of
 * a millisecond each, a few ms per /vote question); a prepared statement can be run again and
 * again. The saver never iterates a statement, so sharing one is safe.
 */
function reuseStatements(db: { prepare(sql: string): unknown }): void {
  const prepare = db.prepare.bind(db);
  const kept = new Map<string, unknown>();
  db.prepare = (sql: string) => {
    let statement = kept.get(sql);
    if (statement === undefined) {
      statement = prepare(sql);
      if (kept.size < MAX_STATEMENTS) kept.set(sql, statement);
    }
    return statement;
  };
}
