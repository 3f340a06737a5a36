/**
 * The import rules between the top-level folders (see docs/architecture.md). `npm test` checks
 * them (tests/layers.test.ts); `npx depcruise -c .dependency-cruiser.cjs state ports prompts graph
 * nodes providers history service routes cli web` shows every violation with its path.
 */
const folders = (...names) => `^(${names.join("|")})/`;

/** A rule: modules under `from` may not import modules under any of `notInto`. */
const layer = (name, from, comment, ...notInto) => ({ name, severity: "error", comment, from: { path: `^${from}/` }, to: { path: folders(...notInto) } });

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    { name: "no-circular", severity: "error", comment: "No module may import itself through others.", from: {}, to: { circular: true } },
    layer("state-imports-no-folder", "state", "state/ (types, schemas, the formats table) imports no other folder of the project.",
      "ports", "prompts", "graph", "nodes", "providers", "history", "service", "routes", "cli", "web", "tests", "bench"),
    layer("ports-import-only-state", "ports", "ports/ (the interfaces nodes use and providers implement, and emit) imports only state/.",
      "prompts", "graph", "nodes", "providers", "history", "service", "routes", "cli", "web"),
    layer("prompts-import-only-state", "prompts", "prompts/ (the registry, its texts and the store's interface) imports only state/.",
      "ports", "graph", "nodes", "providers", "history", "service", "routes", "cli", "web"),
    layer("nodes-not-outward", "nodes", "nodes/ see the outside only through ports/: never graph/, routes/, cli/, history/, service/ or providers/.",
      "graph", "routes", "cli", "history", "service", "providers"),
    layer("providers-not-inward", "providers", "providers/ implement ports/; they never import graph/, nodes/, routes/, service/, history/ or cli/.",
      "graph", "nodes", "routes", "service", "history", "cli"),
    layer("history-not-nodes", "history", "history/ reads the states (state/); it never imports nodes/, graph/, routes/, service/ or cli/.",
      "nodes", "graph", "routes", "service", "cli"),
    layer("graph-only-wires", "graph", "graph/ wires nodes into graphs; the providers, the history and the service are not its business.",
      "providers", "history", "service", "routes", "cli"),
    layer("service-not-surfaces", "service", "service/ (the run service) is used by routes/ and cli/, never the other way round.", "routes", "cli"),
    layer("web-imports-only-state", "web", "The page (web/) shares only the types and schemas of state/ with the server.",
      "ports", "prompts", "graph", "nodes", "providers", "history", "service", "routes", "cli"),
    { name: "nothing-imports-tests", severity: "error", from: { pathNot: "^tests/" }, to: { path: "^tests/" } },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
