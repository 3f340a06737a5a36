import type { Styles } from "../service/narration.js";

/** ANSI escape sequences, which take no room on screen (captured, to split text around them). */
const ANSI = /(\x1b\[[0-9;]*m)/;
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Code point ranges a terminal draws two columns wide: East Asian wide and fullwidth characters, and emoji. */
const WIDE: [number, number][] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

/** The columns one grapheme takes on screen: two for wide characters and emoji, else one. */
function columnsOf(grapheme: string): number {
  const cp = grapheme.codePointAt(0)!;
  if (grapheme.includes("\ufe0f") || WIDE.some(([lo, hi]) => cp >= lo && cp <= hi)) return 2;
  return 1;
}

/** The pieces of a text as drawn: ANSI sequences (no columns) and graphemes (never cut). */
function* cells(s: string): Generator<{ text: string; columns: number }> {
  for (const part of s.split(ANSI)) {
    if (part.startsWith("\x1b[")) yield { text: part, columns: 0 };
    else for (const { segment } of graphemes.segment(part)) yield { text: segment, columns: columnsOf(segment) };
  }
}

/** The columns a text takes on screen. */
function visibleLength(s: string): number {
  let n = 0;
  for (const c of cells(s)) n += c.columns;
  return n;
}

/**
 * `s` cut to at most `columns` columns, between graphemes; its styles are all kept (they take no
 * room), so that a style turned on is turned off too.
 */
function fit(s: string, columns: number): string {
  let out = "";
  let used = 0;
  let full = false;
  for (const c of cells(s)) {
    if (c.columns === 0) out += c.text;
    else if (!full && used + c.columns <= columns) {
      out += c.text;
      used += c.columns;
    } else full = true;
  }
  return out;
}

/** A line ready to print: a whole logical line, or a row of one that was longer than the screen. */
interface Printable {
  text: string;
  /** A row cut from a longer line: printed as it is, not wrapped again. */
  row: boolean;
  /** The rows after the first of a long line: no list bullet, a heading's rows stay bold. */
  continues: boolean;
}

/**
 * Text for people in a terminal: streamed pieces become lines wrapped at word boundaries to the
 * terminal's width, markdown is rendered (headings in bold, `**bold**`, list bullets), and, on a
 * terminal, a status line (round and speaker) stays at the bottom while the text streams above it.
 * A line is rendered once it is complete; on a terminal the line being written shows as it grows.
 *
 * On a terminal no row takes the last column. A terminal that wraps late (xterm, tmux) leaves the
 * cursor on a row that fills the width with a wrap pending, and the next character it gets, even
 * the space streamed after the row's last word, starts a new row; the bottom area is then erased
 * ("\r\x1b[2K", cursor up) one row too low, and the row above stays on screen, printed twice.
 */
export class TerminalText {
  /** The logical line being written (no newline yet). */
  private line = "";
  private statusText = "";
  /** Whether the bottom area (the growing line and the status line) is on screen, and with a status line. */
  private drawn = false;
  private wasStatus = false;
  /** The line being written began on an earlier row (it was longer than the screen). */
  private continues = false;
  /** Whether that line is a heading (its rows stay bold). */
  private heading = false;

  constructor(
    private readonly out: (s: string) => void,
    private readonly options: { width: number; tty: boolean; style: Styles },
  ) {}

  /** Adds streamed text. */
  write(text: string): void {
    const parts = text.split("\n");
    this.line += parts[0];
    const done: Printable[] = [];
    for (const part of parts.slice(1)) {
      done.push({ text: this.line, row: false, continues: this.continues });
      this.line = part;
      this.continues = false;
    }
    // A line already wider than the screen: its full rows go out now, the rest keeps growing.
    const rows = this.wrap(this.line);
    if (rows.length > 1) {
      this.line = rows.pop()!;
      for (const r of rows) {
        done.push({ text: r, row: true, continues: this.continues });
        this.continues = true;
      }
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
    const rest: Printable = { text: this.line, row: false, continues: this.continues };
    this.line = "";
    this.continues = false;
    // Style codes alone (the reset after a styled last line) are sent, but get no empty row.
    const styleOnly = visibleLength(rest.text) === 0;
    this.redraw(rest.text && !styleOnly ? [rest] : []);
    if (rest.text && styleOnly) this.out(rest.text);
  }

  /**
   * Prints a line of another stream (stderr: a log line, a notice) above the bottom area, which
   * is drawn again below it, so the two never end up on one row. The line is wrapped at word
   * boundaries to `width`, the columns of the terminal `err` writes to (Infinity when it is none;
   * by default this text's own).
   */
  aside(line: string, err: (s: string) => void, width?: number): void {
    if (this.options.tty && this.drawn) {
      this.out(this.erase());
      this.drawn = false;
    }
    const columns = width === undefined ? this.columns : Math.max(20, width) - 1;
    err(
      this.wrap(line, columns)
        .map((r) => `${r.trimEnd()}\n`)
        .join(""),
    );
    if (this.options.tty) this.redraw([]);
  }

  /** The columns a row may take: on a terminal one less than its width (see the class's comment). */
  private get columns(): number {
    const width = Math.max(20, this.options.width);
    return this.options.tty ? width - 1 : width;
  }

  /** What erases the bottom area (the growing line and the status line) when it is on screen. */
  private erase(): string {
    if (!this.options.tty || !this.drawn) return "";
    return this.wasStatus ? "\r\x1b[2K\x1b[1A\r\x1b[2K" : "\r\x1b[2K";
  }

  /** Erases the bottom area, prints the completed lines, and draws the area again. */
  private redraw(lines: Printable[]): void {
    const { tty } = this.options;
    let s = this.erase();
    for (const l of lines) {
      const rendered = this.render(l.text, l.continues);
      s += l.row
        ? `${rendered}\n`
        : this.wrap(rendered)
            .map((r) => `${r}\n`)
            .join("");
    }
    if (tty) {
      // Each on one row, or the erase would miss a row: the growing line may end in the spaces
      // after a full row's last word, and a status line may be wider than a narrow terminal.
      s += fit(this.line, this.columns);
      if (this.statusText) s += `\n${this.options.style.dim(fit(this.statusText, this.columns))}`;
      this.wasStatus = this.statusText !== "";
      this.drawn = true;
    }
    if (s) this.out(s);
  }

  /**
   * Markdown for the eye: `# Heading` in bold, `**bold**` in bold, `- item` and `* item` as
   * bullets. A row that continues a long line gets no bullet (a ` - ` inside a sentence is no list
   * item), stays bold if the line is a heading, and loses a `**` whose pair is on another row.
   */
  private render(line: string, continues: boolean): string {
    const { style } = this.options;
    if (!continues) this.heading = /^#{1,6}\s/.test(line);
    if (this.heading) return style.bold(continues ? line : line.replace(/^#{1,6}\s+/, ""));
    const bulleted = continues ? line : line.replace(/^(\s*)[-*]\s+/, "$1• ");
    return bulleted.replace(/\*\*([^*]+)\*\*/g, (_m, inner: string) => style.bold(inner)).replace(/\*\*/g, "");
  }

  /**
   * A line cut at word boundaries into rows of at most `width` columns (a word longer than a row
   * is cut where it must be). An indented line keeps its indent, on every row.
   */
  private wrap(line: string, width = this.columns): string[] {
    if (!Number.isFinite(width) || visibleLength(line) <= width) return [line];
    // The indent may come after the line's style codes (a dim list of key points).
    const indent = /^(?:\x1b\[[0-9;]*m)*[ \t]*/.exec(line)![0];
    const spaces = indent.replace(/\x1b\[[0-9;]*m/g, "");
    const hanging = visibleLength(spaces) < width / 2 ? spaces : "";
    const rows: string[] = [];
    let row = indent;
    for (const word of line.slice(indent.length).split(/(?<=\s)/)) {
      if (visibleLength(row) + visibleLength(word.trimEnd()) > width && row.trim()) {
        rows.push(row.trimEnd());
        row = hanging;
      }
      row += row.trim() === "" ? word.trimStart() : word;
      // Only a word longer than a row is cut; a trailing space is not worth a row of its own.
      while (visibleLength(row.trimEnd()) > width) {
        // Between graphemes, so that no emoji or accented letter is cut in half, and by columns.
        let head = "";
        let used = 0;
        for (const c of cells(row)) {
          if (used + c.columns > width) break;
          head += c.text;
          used += c.columns;
        }
        rows.push(head);
        row = row.slice(head.length);
      }
    }
    rows.push(row);
    return rows;
  }
}
