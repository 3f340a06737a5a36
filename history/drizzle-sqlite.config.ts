import { defineConfig } from "drizzle-kit";

/** `npm run db:generate` writes the SQLite migrations from schema-sqlite.ts. */
export default defineConfig({ dialect: "sqlite", schema: "./history/schema-sqlite.ts", out: "./history/migrations/sqlite" });
