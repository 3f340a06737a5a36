import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PROMPTS } from "../prompts/registry.js";
import { readBlock } from "../scripts/doc-blocks.js";
import { EVENTS_DOC, eventsReference } from "../scripts/events-reference.js";
import { API_DOC, INTEGRATIONS_DOC, modelsTable, modesTable, toolsTable } from "../scripts/integrations-reference.js";
import { PROMPTS_DOC, promptsReference } from "../scripts/prompts-reference.js";
import { loadSettings } from "../state/config.js";
import { defaultRoster } from "../state/participants.js";

/** The documentation: README.md, docs/*.md and examples/README.md. */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const mdIn = (dir: string) =>
  readdirSync(join(ROOT, dir))
    .filter((f) => f.endsWith(".md"))
    .map((f) => join(ROOT, dir, f));
const DOCS = [join(ROOT, "README.md"), ...mdIn("docs"), join(ROOT, "examples", "README.md")];
const EXAMPLES = readdirSync(join(ROOT, "examples"))
  .filter((f) => f.endsWith(".json"))
  .map((f) => join(ROOT, "examples", f));

/** Markdown without its fenced code blocks and inline code, where `[x](y)` and `#` are not links or headings. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/(`+)[\s\S]*?\1/g, "");
}

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const withoutFences = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  for (const [, text] of withoutFences.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = text
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The relative link targets of a markdown file (links and images; web addresses left out). */
function relativeLinks(markdown: string): string[] {
  const targets = [...prose(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

describe("the events reference", () => {
  it("docs/events.md holds the table that scripts/events-reference.ts generates (run npm run docs:events)", () => {
    const block = readBlock(readFileSync(EVENTS_DOC, "utf8"), "events");
    expect(block, "docs/events.md lacks the <!-- events:begin --> … <!-- events:end --> markers").toBeDefined();
    expect(block).toBe(eventsReference().trim());
  });
});

describe("links", () => {
  for (const file of DOCS) {
    it(`every relative link in ${relative(ROOT, file)} points to a file (and heading) that exists`, () => {
      const broken: string[] = [];
      const text = readFileSync(file, "utf8");
      for (const target of relativeLinks(text)) {
        const [path, anchor] = target.split("#", 2);
        const to = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
        if (!existsSync(to)) {
          broken.push(`${target}: no file ${relative(ROOT, to)}`);
          continue;
        }
        if (anchor && statSync(to).isFile() && to.endsWith(".md") && !anchors(readFileSync(to, "utf8")).has(anchor)) {
          broken.push(`${target}: no heading #${anchor} in ${relative(ROOT, to)}`);
        }
      }
      expect(broken).toEqual([]);
    });
  }
});

describe("the README", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");

  it("is a front page of at most 200 lines", () => {
    expect(readme.trimEnd().split("\n").length).toBeLessThanOrEqual(200);
  });

  it("lists the model of every participant of the default roster", () => {
    for (const p of defaultRoster()) expect(readme, p.display).toContain(`\`${p.model}\``);
  });
});

describe("docs/integrations.md", () => {
  it("holds the /v1 models and MCP tools tables, and api.md the deliberate modes, that scripts/integrations-reference.ts generates from the definitions (run npm run docs:integrations)", () => {
    const doc = readFileSync(INTEGRATIONS_DOC, "utf8");
    expect(readBlock(doc, "models")).toBe(modelsTable().trim());
    expect(readBlock(doc, "tools")).toBe(toolsTable().trim());
    expect(readBlock(readFileSync(API_DOC, "utf8"), "modes")).toBe(modesTable().trim());
  });
});

describe("docs/configuration.md", () => {
  it("holds the prompts table that scripts/prompts-reference.ts generates from the registry (run npm run docs:prompts)", () => {
    const block = readBlock(readFileSync(PROMPTS_DOC, "utf8"), "prompts");
    expect(block, "docs/configuration.md lacks the <!-- prompts:begin --> … <!-- prompts:end --> markers").toBeDefined();
    expect(block).toBe(promptsReference().trim());
    for (const p of PROMPTS) expect(block).toContain(`\`${p.key}\``);
  });
});

describe("the example rosters", () => {
  it("there are some", () => {
    expect(EXAMPLES.map((f) => relative(ROOT, f)).sort()).toEqual([
      "examples/mixed.json",
      "examples/ollama.json",
      "examples/openai.json",
      "examples/openrouter.json",
    ]);
  });

  for (const file of EXAMPLES) {
    it(`${relative(ROOT, file)} is a valid DEBATE_PARTICIPANTS, as a path and inline`, () => {
      const entries = JSON.parse(readFileSync(file, "utf8")) as { apiKeyEnv?: string }[];
      // The keys a roster names by variable, as its README's command sets them.
      const keys = Object.fromEntries(entries.filter((e) => e.apiKeyEnv).map((e) => [e.apiKeyEnv!, "test-key"]));
      const byPath = loadSettings({ DEBATE_PARTICIPANTS: file, ...keys, ...(Object.keys(keys).length ? { OPENAI_API_KEY: "test-key" } : {}) });
      expect(byPath.roster).toHaveLength(entries.length);
      const inline = loadSettings({
        DEBATE_PARTICIPANTS: readFileSync(file, "utf8"),
        ...keys,
        ...(Object.keys(keys).length ? { OPENAI_API_KEY: "test-key" } : {}),
      });
      expect(inline.roster).toEqual(byPath.roster);
    });
  }
});
