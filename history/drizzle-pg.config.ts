import { defineConfig } from "drizzle-kit";

/** `npm run db:generate` writes the PostgreSQL migrations from schema-pg.ts. */
export default defineConfig({ dialect: "postgresql", schema: "./history/schema-pg.ts", out: "./history/migrations/pg" });
