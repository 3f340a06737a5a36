/** What the narrators of a run (service/narrator.ts) write to, and how they mark text up. */

/** How a surface marks text up: the terminal with colours, a chat client with markdown. */
export interface Styles {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  /** What begins a line of a list (a vote, a tally, a ranking): an indent, or Markdown's `- `. */
  item: string;
  /** A column's text padded to `width` (a terminal's monospace); as it is where fonts are proportional. */
  pad(s: string, width: number): string;
}

/** A terminal's lists: indented lines, columns padded. */
export const TERMINAL_LISTS: Pick<Styles, "item" | "pad"> = { item: "  ", pad: (s, width) => s.padEnd(width) };

/**
 * Markdown for chat clients: bold as `**…**` around the text alone (emphasis does not close after a
 * space), colours dropped, lists as Markdown lists (lines that are not would run into one paragraph).
 */
export const MARKDOWN_STYLES: Styles = {
  bold: (s) => s.replace(/^(\s*)([\s\S]*?)(\s*)$/, (all, before: string, text: string, after: string) => (text ? `${before}**${text}**${after}` : all)),
  dim: (s) => s,
  red: (s) => s,
  green: (s) => s,
  yellow: (s) => s,
  cyan: (s) => s,
  item: "- ",
  pad: (s) => s,
};

/**
 * Which part of a run a piece of narration is: how the deliberation went (who speaks, the
 * answers, the vote), or the result the user asked for (the synthesis, the winner's answer, the
 * report, the answers side by side). `result-again`: the result begins anew with this text
 * (the step writing it ran again after its run was taken up by another server); a surface that
 * cannot take back what it sent marks where the new text begins.
 */
export type Part = "progress" | "result" | "result-again";

/** Where narration goes; progress unless said otherwise. */
export type Write = (text: string, part?: Part) => void;
