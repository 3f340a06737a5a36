import { TERMINAL_LISTS } from "../service/narration.js";
import { describe, expect, it } from "vitest";
import { TerminalText } from "../cli/terminal-text.js";
import { createNarrator } from "../service/narrator.js";
import { translate } from "../state/messages/index.js";
import { runEvents, testDeps } from "./support/harness.js";

const plain = {
  bold: (s: string) => s,
  dim: (s: string) => s,
  red: (s: string) => s,
  green: (s: string) => s,
  yellow: (s: string) => s,
  cyan: (s: string) => s,
  ...TERMINAL_LISTS,
};
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
    for (const piece of "## A heading that is far too long\n- one two three four five - six seven eight nine\nsome **bold words that wrap** here\n".match(
      /.{1,5}/gs,
    )!)
      text.write(piece);
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
    const styledRows = styled
      .out()
      .trimEnd()
      .split("\n")
      .map((r) => r.replace(/\x1b\[[0-9;]*m/g, ""));
    expect(styledRows.length).toBeGreaterThan(1);
    for (const row of styledRows) expect(row.startsWith("    "), JSON.stringify(row)).toBe(true);
  });

  it("ends without an empty row for the style codes after the last line", () => {
    let stream = "";
    const text = new TerminalText((s) => (stream += s), { width: 80, tty: true, style: plain });
    text.status("Round 1");
    // As the narrator writes a dim line: the reset comes after its newline.
    text.write("\x1b[2m\nCost: 3 model calls\n\x1b[0m");
    text.end();
    text.aside("cancelled", (s) => (stream += s));
    expect(xterm(stream, 80)).toEqual(["", "Cost: 3 model calls", "cancelled"]);
    expect(stream).toContain("Cost: 3 model calls\n\x1b[0m");
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

/** The columns a grapheme takes in the terminal below: two for emoji and East Asian wide characters. */
function columnsIn(grapheme: string): number {
  return /\p{Extended_Pictographic}|[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60\uffe0-\uffe6]/u.test(grapheme) ? 2 : 1;
}

/**
 * The rows an xterm-like terminal `width` columns wide shows after `stream`. Like xterm (and
 * tmux), it wraps late: a character written into the last column leaves the cursor there with a
 * wrap pending, and only the next character goes to a new row; `\r`, `\n` (a tty's CR LF) and
 * cursor up clear the pending wrap. `\x1b[2K` erases the cursor's row; styles take no room.
 */
function xterm(stream: string, width: number): string[] {
  const rows: string[][] = [[]];
  let row = 0;
  let col = 0;
  let pending = false;
  const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
  for (const token of stream.match(/\x1b\[[0-9;]*[A-Za-z]|\r|\n|[^\r\n\x1b]+/g) ?? []) {
    if (token === "\r") [col, pending] = [0, false];
    else if (token === "\n") [row, col, pending] = [row + 1, 0, false];
    else if (token === "\x1b[2K") rows[row] = [];
    else if (/^\x1b\[\d*A$/.test(token)) [row, pending] = [Math.max(0, row - Number(token.slice(2, -1) || 1)), false];
    else if (token.startsWith("\x1b[")) continue;
    else {
      for (const { segment } of graphemes.segment(token)) {
        const n = columnsIn(segment);
        // The deferred wrap; a wide character that does not fit at the end of a row goes to the next.
        if (pending || col + n > width) [row, col, pending] = [row + 1, 0, false];
        rows[row] ??= [];
        rows[row][col] = segment;
        if (n === 2) rows[row][col + 1] = "";
        if (col + n === width) [col, pending] = [width - 1, true];
        else col += n;
      }
    }
    rows[row] ??= [];
  }
  const screen = Array.from(rows, (r) =>
    Array.from(r ?? [], (c) => c ?? " ")
      .join("")
      .trimEnd(),
  );
  while (screen.length && screen.at(-1) === "") screen.pop();
  return screen;
}

describe("text on a terminal that wraps late (xterm, tmux)", () => {
  const sentence =
    "Regulation of AI is less about the technology than about who answers for it when it fails, and the models disagree " +
    "about facts that can be checked while they agree on tone; a rule that names the harms it prevents is easier to defend.";
  const words = sentence.split(" ");

  it("shows every line once, whatever the width and however the text is streamed, with the status line below", () => {
    for (let width = 20; width <= 60; width++) {
      // Pieces that end with a space (a row that fills the width is followed by the space after its
      // last word), pieces that begin with one, and pieces of seven characters.
      const streams = [words.map((w) => `${w} `), words.map((w, i) => (i ? ` ${w}` : w)), sentence.match(/.{1,7}/g)!];
      for (const pieces of streams) {
        let stream = "";
        const text = new TerminalText((s) => (stream += s), { width, tty: true, style: plain });
        text.status("Round 1 · Claude");
        for (const p of pieces) text.write(p);
        text.write("\n");
        text.end();
        const screen = xterm(stream, width);
        expect(screen.join(" ").split(/\s+/).filter(Boolean), `width ${width}`).toEqual(words);
        for (const r of screen) expect(r.length, `width ${width}: ${r}`).toBeLessThan(width);
      }
    }
  });

  it("draws the line being written and the status line on one row each, so that erasing them leaves nothing behind", () => {
    let stream = "";
    const text = new TerminalText((s) => (stream += s), { width: 30, tty: true, style: plain });
    text.status("Round 2 · Perplexity writing, a long status");
    // Twenty-nine columns and the space after them: the row must not spill over onto the status line's row.
    text.write("twenty-nine columns, exactly");
    text.write(". ");
    expect(xterm(stream, 30)).toEqual(["twenty-nine columns, exactly.", "Round 2 · Perplexity writing,"]);
    text.write("Next\n");
    text.status("");
    expect(xterm(stream, 30)).toEqual(["twenty-nine columns, exactly.", "Next"]);
  });

  it("shows wide characters once when they reach the last column", () => {
    for (let width = 20; width <= 31; width++) {
      let stream = "";
      const text = new TerminalText((s) => (stream += s), { width, tty: true, style: plain });
      text.status("Runda 1");
      const line = "人工智能 应该受到 监管吗 😀😀 这是 一个很 重要的 问题 我们 需要 讨论";
      for (const w of line.split(" ")) text.write(`${w} `);
      text.write("\n");
      text.end();
      expect(xterm(stream, width).join(" ").split(/\s+/).filter(Boolean), `width ${width}`).toEqual(line.split(" "));
    }
  });

  it("wraps a stderr line at word boundaries to the width of the terminal it goes to", () => {
    const log = "[debatt] no TTS_API_KEY: /dvoice speaks with the local espeak-ng voice unless admins set a key";
    // On a terminal, above the status line.
    let stream = "";
    const text = new TerminalText((s) => (stream += s), { width: 40, tty: true, style: plain });
    text.status("Round 1");
    text.aside(log, (s) => (stream += s), 40);
    const screen = xterm(stream, 40);
    expect(screen.at(-1)).toBe("Round 1");
    // (The row above the status line is the empty line being written.)
    const rows = screen.slice(0, -1).filter(Boolean);
    expect(rows.length).toBeGreaterThan(2);
    for (const r of rows) expect(r.length).toBeLessThan(40);
    for (const r of rows) for (const w of r.split(" ")) expect(log.split(" "), r).toContain(w);
    expect(rows.join(" ")).toBe(log);
    // stdout piped, stderr a terminal: still wrapped; stderr piped: one line.
    const piped = new TerminalText(() => {}, { width: Infinity, tty: false, style: plain });
    let err = "";
    piped.aside(log, (s) => (err += s), 40);
    expect(err.trimEnd().split("\n").length).toBeGreaterThan(2);
    err = "";
    piped.aside(log, (s) => (err += s), Infinity);
    expect(err).toBe(`${log}\n`);
  });
});

describe("the terminal's tables", () => {
  it("line up a vote's columns however long the names are", async () => {
    const { deps } = testDeps();
    const roster = [
      { key: "call_a", display: "Claude Sonnet 4.5", model: "anthropic/claude-sonnet-4.5" },
      { key: "call_b", display: "GPT-5.1", model: "openai/gpt-5.1" },
      { key: "call_c", display: "DeepSeek V3.1 Terminus", model: "deepseek/deepseek-v3.1-terminus" },
    ];
    deps.settings = { ...deps.settings, roster };
    const events = await runEvents(deps, "/vote Tabs or spaces?", { participants: roster.map((p) => p.key) });
    let out = "";
    events.forEach(
      createNarrator(
        (s) => (out += s),
        plain,
        (key, values) => translate("en", key, values),
      ),
    );
    const votes = out.split("\n").filter((line) => / → /.test(line));
    expect(votes).toHaveLength(3);
    expect(new Set(votes.map((line) => line.indexOf(" → "))).size).toBe(1);
    const tallies = out.split("\n").filter((line) => /^ {2}Response [A-C] \(.*\): +█/.test(line));
    expect(tallies.length).toBeGreaterThan(0);
    expect(new Set(tallies.map((line) => line.indexOf("█"))).size).toBe(1);
  });
});
