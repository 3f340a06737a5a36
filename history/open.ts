import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { drizzle as drizzleSqlite } from "drizzle-orm/better-sqlite3";
import { migrate as migrateSqlite } from "drizzle-orm/better-sqlite3/migrator";
import { drizzle as drizzlePg, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { redactUrl } from "../providers/redact.js";
import * as pgSchema from "./schema-pg.js";
import * as sqliteSchema from "./schema-sqlite.js";
import { DrizzleHistory, type HistoryStore } from "./store.js";

const MIGRATIONS = fileURLToPath(new URL("./migrations", import.meta.url));

/**
 * Opens the history database and brings its tables up to date (the migrations in
 * history/migrations run on every start; applied ones are skipped): PostgreSQL when DATABASE_URL
 * is set, else `<DEBATT_DATA_DIR>/history.sqlite`, so a fresh machine needs nothing.
 */
export async function openHistory(settings: { dataDir: string; databaseUrl?: string }): Promise<HistoryStore> {
  if (settings.databaseUrl) {
    const pool = new pg.Pool({ connectionString: settings.databaseUrl, max: 4 });
    const db = drizzlePg(pool);
    try {
      await migratePg(db, { migrationsFolder: join(MIGRATIONS, "pg") });
    } catch (err) {
      await pool.end();
      throw err;
    }
    return new DrizzleHistory(db, pgSchema, redactUrl(settings.databaseUrl), () => pool.end());
  }
  mkdirSync(settings.dataDir, { recursive: true });
  const file = join(settings.dataDir, "history.sqlite");
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  // SQLite enforces foreign keys (and so the cascading delete) only when asked, per connection.
  sqlite.pragma("foreign_keys = ON");
  const db = drizzleSqlite(sqlite);
  migrateSqlite(db, { migrationsFolder: join(MIGRATIONS, "sqlite") });
  // Same tables and builder methods as PostgreSQL's (see DrizzleHistory).
  return new DrizzleHistory(db as unknown as NodePgDatabase, sqliteSchema as unknown as typeof pgSchema, file, async () => void sqlite.close());
}
