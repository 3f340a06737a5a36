/** The tests start real PostgreSQL servers with the benchmarks' launcher. */
export { PostgresServer, postgresBinDir } from "../../bench/postgres-server.js";
