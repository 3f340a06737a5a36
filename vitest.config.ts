import { defineConfig } from "vitest/config";

/**
 * Two vitest projects over `tests/**\/*.test.ts`, which between them run every file exactly once:
 * - `unit`, the fast tier (`npm run test:unit` = `vitest run --project unit`, under a minute): every
 *   test but those below;
 * - `integration`: the files below, which start browsers, server processes, databases, Redis, the
 *   LangGraph dev server or a real language model, or build the page.
 * `npm test` (what CI runs) runs both, `unit` first.
 */
const integration = [
  "tests/arena.e2e.test.ts",
  "tests/page.e2e.test.ts",
  "tests/names.e2e.test.ts",
  "tests/history-open.test.ts",
  "tests/build.test.ts",
  "tests/studio.test.ts",
  "tests/server.test.ts",
  "tests/surfaces.test.ts",
  "tests/surfaces-text.test.ts",
  "tests/mcp-inspector.test.ts",
  "tests/recovery.test.ts",
  "tests/eval.test.ts",
  "tests/faults-pg.test.ts",
  "tests/faults-instance.test.ts",
  "tests/faults-redis.test.ts",
  "tests/redis.test.ts",
  "tests/run-queue.test.ts",
  "tests/chaos.test.ts",
  "tests/security-users.test.ts",
  "tests/security-inputs.test.ts",
  "tests/security-exposure.test.ts",
  "tests/security-ownership.test.ts",
  "tests/fuzz-routes.test.ts",
  "tests/with-me.test.ts",
  "tests/history.test.ts",
  "tests/export.test.ts",
  "tests/cancel.test.ts",
  "tests/mcp.test.ts",
  "tests/voice-export.test.ts",
  "tests/faults-db.test.ts",
  "tests/reopen.test.ts",
  "tests/usage.test.ts",
  "tests/llama-server.test.ts",
  "tests/real-models.test.ts",
];

export default defineConfig({
  test: {
    // Shared by both projects (`extends: true`).
    // A hang guard, not a budget: on a busy 2-core machine a CLI run or a browser's page can take
    // several times as long as alone (timings belong in npm run bench).
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // No process a test file started outlives it, even when a test timed out before its cleanup.
    setupFiles: ["tests/support/reap.ts"],
    // The LangGraph dev server test starts its own server; the rest run in parallel.
    pool: "forks",
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/**/*.test.ts"],
          exclude: integration,
          // Both cores: these tests wait on no outside server, so they may share the machine.
          maxWorkers: 2,
          // A worker keeps its modules from one file to the next: importing LangChain, LangGraph and
          // the graphs again for each of ~60 files was most of this tier's time (190 s against 68 s,
          // side by side on a busy 2-core machine). A file that changes a global puts it back
          // (`unstubGlobals`, `unstubEnvs` do it for vi.stubGlobal and vi.stubEnv).
          isolate: false,
          unstubGlobals: true,
          unstubEnvs: true,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: integration,
          // The page, built once for the browser tests (tests/support/build-page.ts).
          globalSetup: ["tests/support/build-page.ts"],
          // Both cores too: these tests mostly wait on their servers and browsers, and none depends
          // on how long anything takes. Run after `unit`, in a group of their own.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
