import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { simulatedModels } from "../service/formats.js";
import { MARKDOWN_STYLES } from "../service/narration.js";
import { createNarrator } from "../service/narrator.js";
import { translate } from "../state/messages/index.js";
import { runEvents, testDeps } from "./support/harness.js";

/** CommonMark, strictly: what every chat client renders alike. */
const commonmark = new MarkdownIt("commonmark");

/** A run narrated as the OpenAI-compatible and MCP surfaces tell it, and as a CommonMark client renders it. */
async function rendered(message: string, simulated = false) {
  const { deps } = testDeps();
  // The product's simulated provider (writing about the question as it does without a key), or the tests' scripted one.
  if (simulated) deps.models = simulatedModels({ latencyMs: 0, chunkDelayMs: 0, chunkTokens: 8 });
  const events = await runEvents(deps, message, { participants: ["call_grok", "call_claude", "call_gpt"] });
  let markdown = "";
  events.forEach(
    createNarrator(
      (s) => (markdown += s),
      MARKDOWN_STYLES,
      (key, values) => translate("en", key, values),
    ),
  );
  const html = commonmark.render(markdown);
  // A list's items, each whole (a loose list wraps them in paragraphs).
  const items = [...html.replace(/<\/?p>|\n/g, "").matchAll(/<li>(.*?)<\/li>/g)].map((m) => m[1]);
  return { markdown, html, items, text: html.replace(/<[^>]+>/g, "") };
}

describe("a run's narration in Markdown, as a CommonMark client renders it", () => {
  for (const message of [
    "/debatt Bör AI regleras?",
    "/vote Tabs or spaces?",
    "/revise Tabs or spaces?",
    "/rank Which language first?",
    "/moa Which language first?",
    "/deep Is P = NP?",
    "/council Water boils at 100 °C at sea level.",
    "/compare Which language first?",
  ]) {
    it(`${message.split(" ")[0]}: every bold closes (no asterisks shown), and no text is padded for a monospace font`, async () => {
      const { markdown, text } = await rendered(message);
      expect(text).not.toMatch(/\*\*/);
      expect(markdown).not.toMatch(/\S {3,}\S/);
    });
  }

  it("/vote: each vote and each tally is an item of its own, not run together into one paragraph", async () => {
    const { items } = await rendered("/vote Tabs or spaces?");
    expect(items.filter((i) => /^<strong>(Grok|Claude|ChatGPT)<\/strong> → /.test(i))).toHaveLength(3);
    expect(items.filter((i) => /^Response [A-C] \((Grok|Claude|ChatGPT)\): █+ \d+$/.test(i)).length).toBeGreaterThan(0);
  });

  it("/rank: each ranker's order and the council's ranking are items of their own", async () => {
    const { items } = await rendered("/rank Which language first?");
    expect(items.filter((i) => /^<strong>(Grok|Claude|ChatGPT)<\/strong> /.test(i))).toHaveLength(3);
    expect(items.filter((i) => /^<strong>\d\. /.test(i))).toHaveLength(3);
  });
});

describe("a long question in the narration", () => {
  it("is quoted by its first line, shortened, in the heading, and is never repeated whole", async () => {
    const long = `Which database should a small shop use for its orders and stock?\n${"We sell bicycles and spare parts, and keep every order. ".repeat(360)}`;
    expect(long.length).toBeGreaterThan(20_000);
    for (const command of ["/vote", "/rank", "/debatt", "/compare", "/moa", "/deep", "/revise"]) {
      const { markdown } = await rendered(`${command} ${long}`, true);
      expect(markdown.split("\n")[0]).toMatch(/: Which database should a small shop use for its orders and stock\? …\*\*$/);
      expect(markdown).not.toContain("We sell bicycles and spare parts, and keep every order. We sell");
      expect(markdown.length).toBeLessThan(12_000);
    }
  });
});
