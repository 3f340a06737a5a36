import { describe, expect, it } from "vitest";
import { TerminalText } from "../cli/terminal-text.js";

const plain = { bold: (s: string) => s, dim: (s: string) => s, red: (s: string) => s, green: (s: string) => s, yellow: (s: string) => s, cyan: (s: string) => s };
const tagged = { ...plain, bold: (s: string) => `<b>${s}</b>`, dim: (s: string) => `<dim>${s}</dim>` };

/** A TerminalText writing into a string. */
function terminal(options: { width?: number; tty?: boolean; style?: typeof plain } = {}) {
  let out = "";
  const text = new TerminalText((s) => (out += s), { width: options.width ?? 30, tty: options.tty ?? false, style: options.style ?? plain });
  return { text, out: () => out };
}

/** The rows a terminal shows after `stream` (line feeds, `\r`, erase line, cursor up). */
function screenOf(stream: string): string[] {
  const rows = [""];
  let row = 0;
  for (const token of stream.match(/\x1b\[2K|\x1b\[1A|[\r\n]|[^\r\n\x1b]+/g) ?? []) {
    if (token === "\n") rows[++row] ??= "";
    else if (token === "\r") continue;
    else if (token === "\x1b[2K") rows[row] = "";
    else if (token === "\x1b[1A") row--;
    else rows[row] += token;
  }
  return rows.filter((r, i) => r !== "" || i < row);
}

describe("text in the terminal", () => {
  it("wraps at word boundaries to the width, however the text is streamed", () => {
    const sentence = "Deliberation helps when the models disagree about facts that can be checked, and less when they only differ in tone or emphasis.";
    const { text, out } = terminal({ width: 30 });
    // Pieces of 7 characters, and pieces that begin with the space between two words.
    for (const piece of sentence.match(/.{1,7}/g)!) text.write(piece);
    text.write("\n");
    for (const piece of sentence.match(/\s*\S+/g)!) text.write(piece);
    text.write("\n");
    const rows = out().trimEnd().split("\n");
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) expect([...row].length).toBeLessThanOrEqual(30);
    for (const row of rows) expect(row).not.toMatch(/^\s/);
    expect(rows.join(" ").split(/\s+/)).toEqual([...sentence.split(/\s+/), ...sentence.split(/\s+/)]);
  });

  it("never begins a row with the space after a word that filled the row before it", () => {
    for (const pieces of [["aaaaaaaaa bbbbbbbbb cccccccccc dddd\n"], ["aaaaaaaaa ", "bbbbbbbbb ", "cccccccccc ", "dddd\n"]]) {
      const { text, out } = terminal({ width: 30 });
      for (const p of pieces) text.write(p);
      expect(out()).toBe("aaaaaaaaa bbbbbbbbb cccccccccc\ndddd\n");
    }
  });

  it("renders markdown: headings and **bold** in bold, list items as bullets", () => {
    const { text, out } = terminal({ width: 80, style: tagged });
    text.write("## Summary\nThe **strongest** point:\n- one\n* two\n");
    expect(out()).toBe("<b>Summary</b>\nThe <b>strongest</b> point:\n• one\n• two\n");
  });

  it("renders a line longer than the screen as one: a heading's rows all bold, a bullet only on its first row, no stray **", () => {
    const { text, out } = terminal({ width: 20, style: tagged });
    for (const piece of "## A heading that is far too long\n- one two three four five - six seven eight nine\nsome **bold words that wrap** here\n".match(/.{1,5}/gs)!) text.write(piece);
    const rows = out().trimEnd().split("\n");
    expect(rows.slice(0, 2).every((r) => r.startsWith("<b>") && r.endsWith("</b>"))).toBe(true);
    expect(rows.filter((r) => r.startsWith("•"))).toHaveLength(1);
    expect(out()).not.toContain("**");
    expect(out()).not.toMatch(/^#/m);
  });

  it("cuts a word longer than a row between characters, never inside an emoji, counting the columns each takes", () => {
    const { text, out } = terminal({ width: 20 });
    // An emoji takes two columns: ten to a row of twenty.
    text.write(`${"😀".repeat(45)}\n`);
    const rows = out().trimEnd().split("\n");
    expect(rows.map((r) => [...r].length)).toEqual([10, 10, 10, 10, 5]);
    for (const row of rows) expect(row.isWellFormed()).toBe(true);
    // A family emoji (joined by ZWJ) and an accented letter written as two code points stay whole.
    const family = "👨‍👩‍👧";
    const decomposed = "e\u0301";
    const { text: t2, out: out2 } = terminal({ width: 20 });
    t2.write(`${`${family}${decomposed}`.repeat(12)}\n`);
    for (const row of out2().trimEnd().split("\n")) expect(row.replaceAll(family, "").replaceAll(decomposed, "")).toBe("");
  });

  it("wraps Chinese, Japanese and Korean text by the columns it takes, two per character", () => {
    const { text, out } = terminal({ width: 20 });
    text.write("人工智能应该受到监管吗这是一个很重要的问题我们需要讨论\n");
    const rows = out().trimEnd().split("\n");
    expect(rows.map((r) => [...r].length)).toEqual([10, 10, 7]);
    const { text: t2, out: out2 } = terminal({ width: 20 });
    t2.write("한국어 문장은 띄어쓰기가 있어서 단어 경계에서 줄이 바뀝니다\n");
    for (const row of out2().trimEnd().split("\n")) expect([...row].reduce((n, ch) => n + (/[\uac00-\ud7a3]/.test(ch) ? 2 : 1), 0)).toBeLessThanOrEqual(20);
  });

  it("keeps a status line at the bottom of a terminal while text streams above it, and clears it at the end", () => {
    const { text, out } = terminal({ width: 80, tty: true, style: tagged });
    text.status("Round 1 · Claude writing…");
    text.write("Claude says ");
    text.write("hello.\n");
    text.end();
    const screen = out();
    expect(screen).toContain("<dim>Round 1 · Claude writing…</dim>");
    // Each redraw erases the status line and the growing line first.
    expect(screen).toContain("\r\x1b[2K\x1b[1A\r\x1b[2K");
    expect(screen).toContain("Claude says hello.\n");
    expect(screen.endsWith("<dim>Round 1 · Claude writing…</dim>")).toBe(false);
  });

  it("prints a stderr line above the status line, never onto the row being written", () => {
    let stream = "";
    const text = new TerminalText((s) => (stream += s), { width: 80, tty: true, style: plain });
    text.status("Round 1 · Claude");
    text.write("Claude says ");
    text.aside("[debatt] a warning", (s) => (stream += s));
    text.write("hello.");
    expect(screenOf(stream)).toEqual(["[debatt] a warning", "Claude says hello.", "Round 1 · Claude"]);
  });

  it("keeps an indented line's indent on every row it wraps to", () => {
    const { text, out } = terminal({ width: 30 });
    text.write("  Perplexity → Gemini: the clearest answer, with sources for each claim.\n");
    const rows = out().trimEnd().split("\n");
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) {
      expect(row.startsWith("  ") && !row.startsWith("   "), JSON.stringify(row)).toBe(true);
      expect(row.length).toBeLessThanOrEqual(30);
    }
    expect(rows.map((r) => r.trim()).join(" ")).toBe("Perplexity → Gemini: the clearest answer, with sources for each claim.");
    // Also when the line begins with a style (a dim list of key points).
    const styled = terminal({ width: 30, style: { ...plain, dim: (s: string) => `\x1b[2m${s}\x1b[0m` } });
    styled.text.write("\x1b[2m    – General rankings matter less; the right choice depends on context.\x1b[0m\n");
    const styledRows = styled.out().trimEnd().split("\n").map((r) => r.replace(/\x1b\[[0-9;]*m/g, ""));
    expect(styledRows.length).toBeGreaterThan(1);
    for (const row of styledRows) expect(row.startsWith("    "), JSON.stringify(row)).toBe(true);
  });

  it("writes complete lines only when the output is not a terminal", () => {
    const { text, out } = terminal({ width: Infinity });
    text.write("half a ");
    expect(out()).toBe("");
    text.write("line\nand the rest");
    expect(out()).toBe("half a line\n");
    text.end();
    expect(out()).toBe("half a line\nand the rest\n");
  });
});
