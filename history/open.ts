import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import { openPgPool, withMigrationLock } from "../providers/pg-pool.js";
import { redactUrl } from "../providers/redact.js";
import * as pgSchema from "./schema-pg.js";
import * as sqliteSchema from "./schema-sqlite.js";
import type { HistoryFormats } from "./codec.js";
import { DrizzleHistory, type HistoryStore } from "./store.js";

const MIGRATIONS = fileURLToPath(new URL("./migrations", import.meta.url));

/**
 * Opens the history database and brings its tables up to date (the migrations in
 * history/migrations run on every start; applied ones are skipped): PostgreSQL when DATABASE_URL
 * is set, else `<DEBATT_DATA_DIR>/history.sqlite`, so a fresh machine needs nothing. Only the
 * configured database's driver is loaded. On PostgreSQL, instances that start together migrate
 * one at a time, and a database that restarts costs the writes in flight, not the process; on
 * SQLite, an instance that finds the file locked by another one starting tries again.
 * The store reads and writes each format's runs with its codec (`formats`).
 */
export async function openHistory(
  settings: { dataDir: string; databaseUrl?: string },
  formats: HistoryFormats,
  log: (line: string) => void = (line) => console.error(`[debatt] ${line}`),
): Promise<HistoryStore> {
  if (settings.databaseUrl) {
    const [{ drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
      import("drizzle-orm/node-postgres"),
      import("drizzle-orm/node-postgres/migrator"),
    ]);
    const pool = await openPgPool(settings.databaseUrl, { max: 4, what: "the history", log });
    const db = drizzlePg(pool);
    try {
      await withMigrationLock(pool, () => migratePg(db, { migrationsFolder: join(MIGRATIONS, "pg") }));
    } catch (err) {
      await pool.end();
      throw err;
    }
    return new DrizzleHistory(db, pgSchema, redactUrl(settings.databaseUrl), () => pool.end(), formats);
  }
  mkdirSync(settings.dataDir, { recursive: true });
  const file = join(settings.dataDir, "history.sqlite");
  const [{ default: Database }, { drizzle: drizzleSqlite }, { migrate: migrateSqlite }] = await Promise.all([
    import("better-sqlite3"),
    import("drizzle-orm/better-sqlite3"),
    import("drizzle-orm/better-sqlite3/migrator"),
  ]);
  const sqlite = new Database(file);
  const db = drizzleSqlite(sqlite);
  // Instances sharing the file may open it at once. They migrate one at a time: the migrator
  // reads which migrations are applied before it takes its write lock, so two at once would both
  // create the tables. The lock is an exclusive transaction on a file of its own (the system lets
  // it go if the process dies); and a lock SQLite cannot wait for without deadlock, which it
  // answers with SQLITE_BUSY at once, is tried again.
  const lock = new Database(`${file}.migrating`, { timeout: BUSY_WAIT_MS });
  try {
    lock.exec("BEGIN EXCLUSIVE");
    await retryWhileBusy(() => {
      sqlite.pragma("journal_mode = WAL");
      migrateSqlite(db, { migrationsFolder: join(MIGRATIONS, "sqlite") });
    });
    lock.exec("COMMIT");
  } finally {
    lock.close();
  }
  sqlite.pragma("synchronous = NORMAL");
  // SQLite enforces foreign keys (and so the cascading delete) only when asked, per connection.
  sqlite.pragma("foreign_keys = ON");
  // Same tables and builder methods as PostgreSQL's (see DrizzleHistory).
  return new DrizzleHistory(db as unknown as NodePgDatabase, sqliteSchema as unknown as typeof pgSchema, file, async () => void sqlite.close(), formats);
}

/** How long (ms) a start-up waits, in all, for another instance's lock on the history's file. */
const BUSY_WAIT_MS = 15_000;

/** Runs `step` until it does not fail with SQLITE_BUSY, waiting 25-100 ms between tries, for `BUSY_WAIT_MS` at most. */
async function retryWhileBusy(step: () => void): Promise<void> {
  const until = Date.now() + BUSY_WAIT_MS;
  for (;;) {
    try {
      return step();
    } catch (err) {
      if ((err as { code?: string }).code !== "SQLITE_BUSY" || Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 25 + Math.random() * 75));
    }
  }
}
