import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { openHistory } from "../../history/open.js";
import type { HistoryStore } from "../../history/store.js";
import { postgresBinDir, PostgresServer } from "./postgres.js";

/** The history tables. */
export const TABLES = ["conversations", "messages", "deliberation_stages"] as const;

/** A fresh history database for one test, and a raw look at its tables (not through the store). */
export interface TestHistory {
  history: HistoryStore;
  /** Every row of a table, as the database returns it. */
  rows(table: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** A history in a new SQLite file. */
export async function sqliteHistory(): Promise<TestHistory> {
  const dataDir = mkdtempSync(join(tmpdir(), "debatt-history-"));
  const history = await openHistory({ dataDir });
  const raw = new Database(join(dataDir, "history.sqlite"), { readonly: true });
  return {
    history,
    rows: async (table) => raw.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[],
    close: async () => {
      raw.close();
      await history.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let databases = 0;

/** A history in a new database of a running PostgreSQL server. */
export async function postgresHistory(server: PostgresServer): Promise<TestHistory> {
  const name = `history_${process.pid}_${++databases}`;
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = server.url.replace(/\/postgres$/, `/${name}`);
  const history = await openHistory({ databaseUrl: url, dataDir: "unused" });
  const raw = new pg.Client({ connectionString: url });
  await raw.connect();
  return {
    history,
    rows: async (table) => (await raw.query(`SELECT * FROM "${table}"`)).rows,
    close: async () => {
      await raw.end();
      await history.close();
    },
  };
}

const pgBin = postgresBinDir();

/** The two databases the history runs on; PostgreSQL is skipped (with a warning) when it is not installed. */
export const HISTORY_DATABASES = [
  { db: "SQLite (the default)", skip: false, server: async () => undefined as PostgresServer | undefined },
  { db: `PostgreSQL (DATABASE_URL)${pgBin ? "" : " (skipped: postgresql is not installed)"}`, skip: !pgBin, server: () => PostgresServer.start(pgBin!) },
];
