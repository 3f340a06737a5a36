import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, afterEach, beforeAll } from "vitest";
import { openAppHistory } from "../../service/formats.js";
import type { HistoryStore } from "../../history/store.js";
import { postgresBinDir, PostgresServer } from "./postgres.js";

/** The history tables. */
export const TABLES = ["conversations", "messages", "deliberation_stages"] as const;

/** A fresh history database for one test, and a raw look at its tables (not through the store). */
export interface TestHistory {
  history: HistoryStore;
  /** Every row of a table, as the database returns it. */
  rows(table: string): Promise<Record<string, unknown>[]>;
  /** How the database would run `sql` (`?` for each of `params`), as its EXPLAIN says; PostgreSQL told to avoid reading whole tables. */
  plan(sql: string, params: unknown[]): Promise<string>;
  close(): Promise<void>;
}

/** A history in a new SQLite file. */
export async function sqliteHistory(): Promise<TestHistory> {
  const dataDir = mkdtempSync(join(tmpdir(), "debatt-history-"));
  const history = await openAppHistory({ dataDir });
  const raw = new Database(join(dataDir, "history.sqlite"), { readonly: true });
  return {
    history,
    rows: async (table) => raw.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[],
    plan: async (sql, params) => (raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join("\n"),
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
  const history = await openAppHistory({ databaseUrl: url, dataDir: "unused" });
  const raw = new pg.Client({ connectionString: url });
  await raw.connect();
  return {
    history,
    rows: async (table) => (await raw.query(`SELECT * FROM "${table}"`)).rows,
    plan: async (sql, params) => {
      // A test's tables are small enough to read whole; the question is whether an index serves the query.
      await raw.query("SET enable_seqscan = off");
      let n = 0;
      const rows = (await raw.query(`EXPLAIN ${sql.replace(/\?/g, () => `$${++n}`)}`, params)).rows as { "QUERY PLAN": string }[];
      return rows.map((r) => r["QUERY PLAN"]).join("\n");
    },
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

/**
 * The hooks of a describe over `HISTORY_DATABASES`: PostgreSQL starts once for the describe when
 * it runs on it; `open` gives each test a fresh history database; what `later` is given (and the
 * databases) is closed after each test, last first.
 */
export function historyDatabaseHooks({ skip, server }: (typeof HISTORY_DATABASES)[number]) {
  let pgServer: PostgresServer | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    if (!skip) pgServer = await server();
  }, 60_000);
  afterAll(async () => pgServer?.stop());
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return {
    later: (cleanup: () => Promise<void>) => void cleanups.push(cleanup),
    open: async (): Promise<TestHistory> => {
      const db = pgServer ? await postgresHistory(pgServer) : await sqliteHistory();
      cleanups.push(() => db.close());
      return db;
    },
  };
}
