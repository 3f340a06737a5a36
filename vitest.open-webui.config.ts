import { defineConfig } from "vitest/config";

/**
 * The Open WebUI end-to-end test alone (tests/open-webui.e2e.ts), outside `npm test`: it drives a
 * real Open WebUI from a Python environment made by `bash scripts/open-webui-venv.sh`.
 * Run it with `npx vitest run --config vitest.open-webui.config.ts`.
 */
export default defineConfig({
  test: {
    include: ["tests/open-webui.e2e.ts"],
    // A hang guard: Open WebUI alone takes 20–30 s to start on two cores, and the test runs two turns.
    testTimeout: 600_000,
    hookTimeout: 300_000,
    // No process the test started outlives it, even when it timed out before its cleanup.
    setupFiles: ["tests/support/reap.ts"],
    pool: "forks",
    maxWorkers: 1,
    fileParallelism: false,
    // The test speaks socket.io over the global WebSocket, which Node 20 has only behind this flag.
    execArgv: typeof globalThis.WebSocket === "undefined" ? ["--experimental-websocket"] : [],
  },
});
