/**
 * The import rules between the top-level folders (see docs/architecture.md). `npm test` checks
 * them (tests/layers.test.ts); `npx depcruise -c .dependency-cruiser.cjs state ports prompts graph
 * nodes providers history service routes cli web` shows every violation with its path.
 */
const folders = (...names) => `^(${names.join("|")})/`;

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    { name: "no-circular", severity: "error", comment: "No module may import itself through others.", from: {}, to: { circular: true } },
    {
      name: "state-imports-no-folder",
      severity: "error",
      comment: "state/ (types, schemas, the formats table) imports no other folder of the project.",
      from: { path: "^state/" },
      to: { path: folders("ports", "prompts", "graph", "nodes", "providers", "history", "service", "routes", "cli", "web", "tests", "bench") },
    },
    {
      name: "ports-import-only-state",
      severity: "error",
      comment: "ports/ (the interfaces nodes use and providers implement, and emit) imports only state/.",
      from: { path: "^ports/" },
      to: { path: folders("prompts", "graph", "nodes", "providers", "history", "service", "routes", "cli", "web") },
    },
    {
      name: "prompts-import-only-state",
      severity: "error",
      comment: "prompts/ (the registry, its texts and the store's interface) imports only state/.",
      from: { path: "^prompts/" },
      to: { path: folders("ports", "graph", "nodes", "providers", "history", "service", "routes", "cli", "web") },
    },
    {
      name: "nodes-not-outward",
      severity: "error",
      comment: "nodes/ see the outside only through ports/: never graph/, routes/, cli/, history/, service/ or providers/.",
      from: { path: "^nodes/" },
      to: { path: folders("graph", "routes", "cli", "history", "service", "providers") },
    },
    {
      name: "providers-not-inward",
      severity: "error",
      comment: "providers/ implement ports/; they never import graph/, nodes/, routes/, service/, history/ or cli/.",
      from: { path: "^providers/" },
      to: { path: folders("graph", "nodes", "routes", "service", "history", "cli") },
    },
    {
      name: "history-not-nodes",
      severity: "error",
      comment: "history/ reads the states (state/); it never imports nodes/, graph/, routes/, service/ or cli/.",
      from: { path: "^history/" },
      to: { path: folders("nodes", "graph", "routes", "service", "cli") },
    },
    {
      name: "graph-only-wires",
      severity: "error",
      comment: "graph/ wires nodes into graphs; the providers, the history and the service are not its business.",
      from: { path: "^graph/" },
      to: { path: folders("providers", "history", "service", "routes", "cli") },
    },
    {
      name: "service-not-surfaces",
      severity: "error",
      comment: "service/ (the run service) is used by routes/ and cli/, never the other way round.",
      from: { path: "^service/" },
      to: { path: folders("routes", "cli") },
    },
    {
      name: "web-imports-only-state",
      severity: "error",
      comment: "The page (web/) shares only the types and schemas of state/ with the server.",
      from: { path: "^web/" },
      to: { path: folders("ports", "prompts", "graph", "nodes", "providers", "history", "service", "routes", "cli") },
    },
    {
      name: "nothing-imports-tests",
      severity: "error",
      from: { pathNot: "^tests/" },
      to: { path: "^tests/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
