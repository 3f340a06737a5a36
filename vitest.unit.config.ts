import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.js";

/**
 * The fast tier (`npm run test:unit`): every test but those that start browsers, server
 * processes, databases, Redis or the LangGraph dev server, or build the page. `npm test` (what CI
 * runs) runs them all.
 */
export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [
        "tests/arena.e2e.test.ts",
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
      ],
      // Both cores: these tests wait on no outside server, so they may share the machine.
      maxWorkers: 2,
    },
  }),
);
