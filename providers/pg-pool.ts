import type { Pool } from "pg";
import { fromDatabase } from "../state/errors.js";
import { redactUrl } from "./redact.js";

/**
 * A PostgreSQL connection pool that outlives its database: a server that restarts (an upgrade, a
 * failover, a managed service's maintenance) ends every connection, and `pg` reports that as an
 * `error` event on the pool (or on a connection checked out of it), which crashes the process
 * when nobody listens. Here it is logged, once per outage; the broken connections are dropped and
 * the next query opens a new one, so the queries in flight fail (their runs end with
 * `write_failed` or `database_unavailable`, and can be resumed) and the process keeps serving.
 */
export async function openPgPool(url: string, options: { max?: number; what: string; log: (line: string) => void }): Promise<Pool> {
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString: url, max: options.max, connectionTimeoutMillis: 5_000 });
  let lost = false;
  const report = (err: Error) => {
    if (lost) return;
    lost = true;
    options.log(`${options.what}: database connection lost (${redactUrl(url)}): ${err.message}; the next query reconnects`);
  };
  // An idle connection's error reaches the pool; a connection checked out (a saver's transaction
  // between two of its queries) emits it on itself, and would crash the process unheard. The
  // query in flight fails either way, and the pool drops the broken connection when it comes back.
  pool.on("error", report);
  // Errors of a query or of taking a connection are marked as the database's, so that a request
  // that meets one is answered 503 database_unavailable when the database is away (and only then).
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((...args: unknown[]) => {
    const result = query(...args);
    return result instanceof Promise ? result.catch((err: unknown) => Promise.reject(fromDatabase(err))) : result;
  }) as typeof pool.query;
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  pool.connect = ((...args: unknown[]) => {
    const result = connect(...args);
    return result instanceof Promise ? result.catch((err: unknown) => Promise.reject(fromDatabase(err))) : result;
  }) as typeof pool.connect;
  pool.on("connect", (client) => {
    client.on("error", report);
    if (!lost) return;
    lost = false;
    options.log(`${options.what}: connected to the database again`);
  });
  return pool;
}

/** The advisory lock every debatt instance takes to migrate a database: one arbitrary, fixed number. */
const MIGRATION_LOCK = 4_711_320_245;

/**
 * Runs `migrate` holding a session-level advisory lock, so that instances starting together on a
 * fresh database migrate it one after another (the second finds the tables made) instead of both
 * creating the same tables and one failing on a duplicate key.
 */
export async function withMigrationLock<T>(pool: Pool, migrate: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    try {
      return await migrate();
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}
