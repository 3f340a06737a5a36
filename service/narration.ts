/** What the narrators of a run (service/narrator.ts) write to, and how they mark text up. */

/** How a surface marks text up: the terminal with colours, a chat client with markdown. */
export interface Styles {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
}

/** Markdown for chat clients: bold as `**…**`, colours dropped. */
export const MARKDOWN_STYLES: Styles = { bold: (s) => `**${s}**`, dim: (s) => s, red: (s) => s, green: (s) => s, yellow: (s) => s, cyan: (s) => s };

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
