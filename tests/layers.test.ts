import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { cruise, type ICruiseResult } from "dependency-cruiser";
import { describe, expect, it } from "vitest";
import { SUBGRAPH_FORMATS } from "../state/formats.js";
import { graphOf, testDeps } from "./support/harness.js";

/** Every format that runs in a subgraph of its own (all but /debatt and /dvoice). */
const FORMATS: readonly string[] = SUBGRAPH_FORMATS;

const FOLDERS = ["state", "ports", "prompts", "graph", "nodes", "providers", "history", "service", "routes", "cli", "web", "bench"];

/** A compiled graph's state keys (LangGraph's own channels for edges and branches left out). */
const stateKeys = (channels: Record<string, unknown>) => Object.keys(channels).filter((k) => !/^(branch:|join:|__)/.test(k));

describe("the layers", () => {
  it("keep the import rules of .dependency-cruiser.cjs: no cycle, no import against the direction", async () => {
    const config = createRequire(import.meta.url)("../.dependency-cruiser.cjs");
    const result = (await cruise(FOLDERS, { ruleSet: { forbidden: config.forbidden }, ...config.options, validate: true })).output as ICruiseResult;
    const violations = result.summary.violations.map(
      (v) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(" → ")})` : ""}`,
    );
    expect(result.summary.totalCruised).toBeGreaterThan(150);
    expect(violations).toEqual([]);
  });
});

describe("the graphs' states", () => {
  const { deps } = testDeps();
  const graph = graphOf(deps);
  const subgraph = (name: string) => (graph.nodes[name] as unknown as { bound: { channels: Record<string, unknown> } }).bound;

  it("keeps the top graph to the /debatt keys and the keys it shares with the formats (at most 40)", () => {
    const keys = stateKeys(graph.channels);
    expect(keys.length).toBeLessThanOrEqual(40);
    expect(keys.filter((k) => !k.startsWith("debate_"))).toEqual(
      expect.arrayContaining([
        "message",
        "route",
        "run_id",
        "question",
        "asked",
        "participants",
        "options",
        "messages",
        "conversation_mode",
        "conversation_title",
        "answer",
      ]),
    );
  });

  // 21: the nine shared keys (the question as typed, `asked`, among them) and at most twelve of its own.
  it.each(FORMATS)("compiles /%s on its own state of at most 21 keys, sharing only the shared ones", (format) => {
    const own = stateKeys(subgraph(format).channels);
    expect(own.length).toBeLessThanOrEqual(21);
    const parent = new Set(stateKeys(graph.channels));
    const shared = own.filter((k) => parent.has(k));
    expect(
      shared.every((k) =>
        ["run_id", "question", "asked", "participants", "options", "messages", "conversation_mode", "conversation_title", "answer"].includes(k),
      ),
    ).toBe(true);
    for (const other of FORMATS.filter((f) => f !== format)) expect(own.some((k) => k.startsWith(`${other}_`))).toBe(false);
  });
});

describe("the nodes' folders", () => {
  it("hold one node per file, named after its node id (helpers live in lib/ and shared/)", async () => {
    const { deps } = testDeps();
    const drawn = await graphOf(deps).getGraphAsync({ xray: true });
    const ids = new Set(Object.values(drawn.nodes).map((n) => n.id.split(":").at(-1)!));
    const files = readdirSync("nodes", { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== "shared")
      .flatMap((d) =>
        readdirSync(`nodes/${d.name}`)
          .filter((f) => f.endsWith(".ts"))
          .map((f) => `${d.name}/${f}`),
      );
    expect(files.length).toBeGreaterThan(30);
    for (const file of files) expect(ids.has(file.split("/")[1].replace(/\.ts$/, "").replace(/-/g, "_")), file).toBe(true);
  });
});
