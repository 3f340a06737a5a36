import { cutShort, sourceMarkdown, type AnswerNotes, type Source } from "../state/answer.js";
import type { Translate as T } from "../state/messages/index.js";
import type { Styles } from "./narration.js";

/** What the narrators tell of an answer's notes: its thinking only when asked for (`--show-thinking`). */
export interface NotesOptions {
  showThinking?: boolean;
}

/**
 * A source as one list item: `- [n] title <url>` (an autolink in Markdown, a plain address in a
 * terminal). The title is plain text (no markup, no control character); only a web address is
 * shown as one, anything else as text.
 */
function sourceLine(s: Source, n: number): string {
  const { title, url } = sourceMarkdown(s);
  return `   - [${n}] ${[title, url && `<${url}>`].filter(Boolean).join(" ")}`;
}

/**
 * An answer's notes as text, after its answer: a cut ending (an error's ending is said by the error
 * itself), its numbered sources, and (when asked for) its thinking, dimmed and indented. Empty when
 * the answer has none.
 */
export function notesText(notes: AnswerNotes, c: Styles, t: T, options: NotesOptions = {}): string {
  const out: string[] = [];
  if (cutShort(notes.ending)) out.push(c.yellow(`   ⚠ ${t(`notes.ending.${notes.ending}`)}`));
  if (notes.sources?.length) out.push(c.dim(`   ${t("notes.sources")}:`), ...notes.sources.map((s, i) => c.dim(sourceLine(s, i + 1))));
  if (options.showThinking && notes.reasoning?.trim()) {
    out.push(
      c.dim(`   ${t("notes.thinking")}:`),
      ...notes.reasoning
        .trim()
        .split("\n")
        .map((line) => c.dim(`   │ ${line}`.trimEnd())),
    );
  }
  // A blank line first, so that in Markdown the notes are not read into the answer's last paragraph.
  return out.length ? `\n${out.join("\n")}\n` : "";
}
