import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // The LangGraph dev server test starts its own server; the rest run in parallel.
    pool: "forks",
  },
});
