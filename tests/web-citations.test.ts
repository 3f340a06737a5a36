import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { endingOf, sourceLabel, sourceMarkers } from "../web/citations.js";
import { withNotes } from "../web/card.js";
import { linkable, notesFields as notesOf } from "../state/answer.js";
import { missingModels } from "../web/model-health.js";
import { markdown } from "../web/arena.js";

/** The page's helpers for an answer's notes (web/citations.ts, web/card.ts, web/model-health.ts, and state/answer.ts's it uses). */

/** A markdown renderer as arena.tsx builds it. */
const md = new MarkdownIt({ html: false, linkify: true }).use(sourceMarkers);
const SOURCES = [{ url: "https://example.org/a", title: "Article A" }, { url: "http://example.net/b?x=1" }];
/** The links of rendered HTML, as `[href, text]`. */
const links = (html: string) => [...html.matchAll(/<a href="([^"]*)"[^>]*>(.*?)<\/a>/g)].map((m) => [m[1], m[2]]);

describe("which source URLs may be links", () => {
  it("takes http and https, normalised", () => {
    expect(linkable("https://example.org/a b")).toBe("https://example.org/a%20b");
    expect(linkable("  HTTP://Example.org ")).toBe("http://example.org/");
  });

  it("refuses script, data, file, relative and malformed URLs", () => {
    for (const url of [
      "javascript:alert(1)",
      " JavaScript:alert(1)",
      "java\tscript:alert(1)",
      "data:text/html,<script>x</script>",
      "file:///etc/passwd",
      "vbscript:x",
      "//evil.example/x",
      "/relative",
      "not a url",
      "",
    ]) {
      expect(linkable(url), url).toBeUndefined();
    }
  });
});

describe("what a source is called", () => {
  it("is its title, else its URL's host and path, else the URL as it came", () => {
    expect(sourceLabel({ url: "https://example.org/a", title: "  Article A " })).toBe("Article A");
    expect(sourceLabel({ url: "https://example.org/path/to?q=1" })).toBe("example.org/path/to");
    expect(sourceLabel({ url: "https://example.org/" })).toBe("example.org");
    expect(sourceLabel({ url: "javascript:alert(1)", title: "" })).toBe("javascript:alert(1)");
  });
});

describe("the [n] markers of an answer", () => {
  it("become links to their sources, opening in a new tab", () => {
    const html = md.render("AI is regulated [1], and costly [2].", { sources: SOURCES });
    expect(links(html)).toEqual([
      ["https://example.org/a", "[1]"],
      ["http://example.net/b?x=1", "[2]"],
    ]);
    expect(html).toContain('target="_blank" rel="noopener noreferrer"');
  });

  it("link each of several markers in a row, as Perplexity writes them", () => {
    expect(links(md.render("Both[1][2].", { sources: SOURCES })).map(([href]) => href)).toEqual(["https://example.org/a", "http://example.net/b?x=1"]);
  });

  it("stay text out of range, without sources, or when the source's URL is not http(s)", () => {
    expect(links(md.render("See [0] and [3].", { sources: SOURCES }))).toEqual([]);
    expect(links(md.render("See [1].", {}))).toEqual([]);
    expect(links(md.render("See [1].", { sources: [] }))).toEqual([]);
    const html = md.render("Click [1].", { sources: [{ url: "javascript:alert(1)" }] });
    expect(html).not.toContain("javascript:");
    expect(html).not.toContain("<a");
    expect(html).toContain("[1]");
  });

  it("stay as they are in code spans and code blocks, in links and when escaped", () => {
    const html = md.render("Use `arr[1]` here.\n\n```\nx = y[2]\n```\n\n[see [1]](https://other.example/) and \\[2] but [1].", { sources: SOURCES });
    expect(html).toContain("<code>arr[1]</code>");
    expect(html).toContain("x = y[2]");
    expect(links(html)).toEqual([
      ["https://other.example/", "see [1]"],
      ["https://example.org/a", "[1]"],
    ]);
  });

  it("leave a marker that is a link already alone", () => {
    expect(links(md.render("[1](https://mine.example/)", { sources: SOURCES }))).toEqual([["https://mine.example/", "1"]]);
  });

  it("escape what a source's title holds", () => {
    const html = md.render("x [1]", { sources: [{ url: "https://example.org/", title: '"><script>alert(1)</script>' }] });
    expect(html).not.toContain("<script>");
    expect(html).toContain("&quot;&gt;&lt;script&gt;");
  });

  it("are linked by the page's own markdown (arena.tsx's)", () => {
    expect(links(markdown.render("x [1]", { sources: SOURCES }))).toEqual([["https://example.org/a", "[1]"]]);
  });
});

describe("how an answer ended", () => {
  it("is its ending, else the ending a failure's text names", () => {
    expect(endingOf({ status: "ok", ending: "length" })).toBe("length");
    expect(endingOf({ status: "ok" })).toBeUndefined();
    expect(endingOf({ status: "error", error: "refused: I can't help with that" })).toBe("refused");
    expect(endingOf({ status: "error", error: "content_filter: held back" })).toBe("content_filter");
    expect(endingOf({ status: "error", error: "tool_calls" })).toBe("tool_calls");
    expect(endingOf({ status: "error", error: "provider 500: refused: no" })).toBeUndefined();
    expect(endingOf({ status: "ok", error: "refused: x" })).toBeUndefined();
  });
});

describe("an answer's notes as the page keeps them", () => {
  it("takes only notes of the right shape", () => {
    expect(notesOf({ reasoning: "hmm", sources: SOURCES, ending: "cut_off", text: "x" })).toEqual({ reasoning: "hmm", sources: SOURCES, ending: "cut_off" });
    expect(notesOf({ reasoning: "  ", sources: [], ending: "bored" })).toEqual({});
    // One malformed source would renumber the rest: none are taken.
    expect(notesOf({ sources: [{ url: "https://a.example/" }, { href: "https://b.example/" }] })).toEqual({});
    expect(notesOf(null)).toEqual({});
  });

  it("replaces the notes an answer had", () => {
    const before = { text: "t", status: "ok" as const, reasoning: "old", sources: SOURCES, ending: "length" as const };
    expect(withNotes(before, { ending: "cut_off" })).toEqual({ text: "t", status: "ok", ending: "cut_off" });
  });
});

describe("the models the endpoints no longer offer", () => {
  it("are each missing id once, with its nearest listed id when known", () => {
    const body = {
      simulated: false,
      checked_at: "2026-01-01T00:00:00Z",
      endpoints: [
        { status: "ok", models: ["x-ai/grok-4.1"], missing: ["x-ai/grok-4", "acme/gone"], nearest: { "x-ai/grok-4": "x-ai/grok-4.1" } },
        { status: "ok", models: [], missing: ["x-ai/grok-4"], nearest: {} },
        { status: "unreachable", models: [], missing: [], nearest: {} },
      ],
    };
    expect(missingModels(body)).toEqual([{ id: "x-ai/grok-4", nearest: "x-ai/grok-4.1" }, { id: "acme/gone" }]);
  });

  it("are none for a simulated server or an answer of another shape", () => {
    expect(missingModels({ simulated: true, endpoints: [] })).toEqual([]);
    expect(missingModels({ error: { code: "unauthorized" } })).toEqual([]);
    expect(missingModels(null)).toEqual([]);
    expect(missingModels({ endpoints: [null, { missing: "x" }, { missing: [3, ""] }] })).toEqual([]);
  });
});
