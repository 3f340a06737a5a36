import type { Styles } from "./deliberation-printer.js";

/** ANSI escape sequences, which take no room on screen. */
const ANSI = /\x1b\[[0-9;]*m/g;
const visibleLength = (s: string) => [...s.replace(ANSI, "")].length;

/**
 * Text for people in a terminal: streamed pieces become lines wrapped at word boundaries to the
 * terminal's width, markdown is rendered (headings in bold, `**bold**`, list bullets), and, on a
 * terminal, a status line (round and speaker) stays at the bottom while the text streams above it.
 * A line is rendered once it is complete; on a terminal the line being written shows as it grows.
 */
export class TerminalText {
  /** The logical line being written (no newline yet). */
  private line = "";
  private statusText = "";
  /** Whether the bottom area (the growing line and the status line) is on screen, and with a status line. */
  private drawn = false;
  private wasStatus = false;

  constructor(
    private readonly out: (s: string) => void,
    private readonly options: { width: number; tty: boolean; style: Styles },
  ) {}

  /** Adds streamed text. */
  write(text: string): void {
    const parts = text.split("\n");
    this.line += parts[0];
    const done: string[] = [];
    for (const part of parts.slice(1)) {
      done.push(this.line);
      this.line = part;
    }
    // A line already wider than the screen: its full rows go out now, the rest keeps growing.
    const rows = this.wrap(this.line);
    if (rows.length > 1) {
      this.line = rows.pop()!;
      done.push(...rows.map((r) => `${r}\u0000`));
    }
    this.redraw(done);
  }

  /** Shows `text` on the status line (a terminal only); empty hides it. */
  status(text: string): void {
    if (!this.options.tty || text === this.statusText) return;
    this.statusText = text;
    this.redraw([]);
  }

  /** Writes out the line being written and removes the status line (at the end of the run). */
  end(): void {
    this.statusText = "";
    const rest = this.line;
    this.line = "";
    this.redraw(rest ? [rest] : []);
  }

  /** Erases the bottom area, prints the completed lines, and draws the area again. */
  private redraw(lines: string[]): void {
    const { tty } = this.options;
    let s = "";
    if (tty && this.drawn) s += this.wasStatus ? "\r\x1b[2K\x1b[1A\r\x1b[2K" : "\r\x1b[2K";
    // A row cut by `wrap` (marked with NUL) is already one screen row: it is not wrapped again.
    for (const l of lines) s += l.endsWith("\u0000") ? `${this.render(l.slice(0, -1))}\n` : this.wrap(this.render(l)).map((r) => `${r}\n`).join("");
    if (tty) {
      s += this.line;
      if (this.statusText) s += `\n${this.options.style.dim(this.statusText)}`;
      this.wasStatus = this.statusText !== "";
      this.drawn = true;
    }
    if (s) this.out(s);
  }

  /** Markdown for the eye: `# Heading` in bold, `**bold**` in bold, `- item` and `* item` as bullets. */
  private render(line: string): string {
    const { style } = this.options;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) return style.bold(heading[1]);
    return line.replace(/^(\s*)[-*]\s+/, "$1• ").replace(/\*\*([^*]+)\*\*/g, (_m, inner: string) => style.bold(inner));
  }

  /** A line cut at word boundaries into rows of at most the width (a word longer than a row is cut where it must be). */
  private wrap(line: string): string[] {
    const width = Math.max(20, this.options.width);
    if (visibleLength(line) <= width) return [line];
    const rows: string[] = [];
    let row = "";
    for (const word of line.split(/(?<=\s)/)) {
      if (visibleLength(row) + visibleLength(word.trimEnd()) > width && row.trim()) {
        rows.push(row.trimEnd());
        row = "";
      }
      row += row === "" ? word.trimStart() : word;
      // Only a word longer than a row is cut; a trailing space is not worth a row of its own.
      while (visibleLength(row.trimEnd()) > width) {
        rows.push(row.slice(0, width));
        row = row.slice(width);
      }
    }
    rows.push(row);
    return rows;
  }
}
