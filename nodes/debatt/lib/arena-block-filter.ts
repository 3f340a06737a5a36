/** Where a model's own arena block opens: a fence (of backticks or tildes) labelled debate-arena-data. */
const OPEN = /(`{3,}|~{3,})[ \t]*debate-arena-data/i;
const MARKER = "```debate-arena-data";

/**
 * Removes every `debate-arena-data` block from the synthesis model's streamed text, so that the
 * only one clients, the history and exports get is the block computed from the debate's state (a
 * model's own would bring its own made-up winner and votes). Text goes through `push` as it
 * streams and comes back as soon as it cannot be the start of a block; a block split across
 * chunks is removed whole, and one the model never closes is dropped to the end. A fence of
 * tildes (`~~~debate-arena-data`) is a fence too.
 */
export class ArenaBlockFilter {
  private held = "";
  private inside = false;
  /** What closes the open block: three of the characters its fence opened with. */
  private close = "```";
  /** A block just closed: the rest of its fence line goes too. */
  private closing = false;

  /** Takes the next piece of the stream; returns the text that may be shown now. */
  push(text: string): string {
    let buffer = this.held + text;
    let out = "";
    for (;;) {
      if (this.inside) {
        const close = buffer.indexOf(this.close);
        if (close < 0) {
          // Everything so far is the block's; keep only what could be the start of its fence.
          this.held = buffer.slice(-(this.close.length - 1));
          return out;
        }
        buffer = buffer.slice(close + this.close.length);
        this.inside = false;
        this.closing = true;
      }
      if (this.closing) {
        const line = /^[`~]*[ \t]*\n?/.exec(buffer)![0];
        if (line.length === buffer.length && !line.endsWith("\n")) {
          this.held = buffer;
          return out;
        }
        buffer = buffer.slice(line.length);
        this.closing = false;
      }
      const open = OPEN.exec(buffer);
      if (open) {
        out += buffer.slice(0, open.index);
        buffer = buffer.slice(open.index + open[0].length);
        this.inside = true;
        this.close = open[1][0].repeat(3);
        continue;
      }
      const keep = possibleStart(buffer);
      this.held = buffer.slice(keep);
      return out + buffer.slice(0, keep);
    }
  }

  /** The stream ended: returns what was held back, unless it was part of a block. */
  end(): string {
    const rest = this.inside || this.closing ? "" : this.held;
    this.held = "";
    this.inside = false;
    this.closing = false;
    return rest;
  }
}

/** Where the tail of `text` could begin a fence still to be completed by the next piece (its length if nowhere). */
function possibleStart(text: string): number {
  const tick = Math.max(text.lastIndexOf("`"), text.lastIndexOf("~"));
  if (tick < 0 || text.length - tick > MARKER.length + 4) return text.length;
  let start = tick;
  while (start > 0 && text[start - 1] === text[tick]) start--;
  const tail = text
    .slice(start)
    .replace(/^([`~]+)[ \t]*/, "$1")
    .toLowerCase()
    // A fence of tildes opens a block as one of backticks does.
    .replace(/^~+/, (tildes) => "`".repeat(tildes.length));
  return !tail.includes("\n") && MARKER.startsWith(tail.replace(/^`{3,}/, "```")) ? start : text.length;
}
