import type MarkdownIt from "markdown-it";
import type { StateCore, Token } from "markdown-it";
import { linkable, type AnswerEnding, type Source } from "../state/answer.js";

/**
 * What the page makes of an answer's notes (state/answer.ts): what each source is called, the
 * `[n]` markers of its text as links to them (only a source `linkable` allows), and how it ended. Pure, for the cards in answer-notes.tsx and arena.tsx.
 */

/** What a source is called: its title, else its URL's host and path (a URL that may not be a link: as it came). */
export function sourceLabel(source: Source): string {
  const title = source.title?.trim();
  if (title) return title;
  const safe = linkable(source.url);
  if (!safe) return source.url;
  const { host, pathname } = new URL(safe);
  return pathname === "/" ? host : `${host}${pathname}`;
}

/** The endings whose failure text starts with their name (`refused: …`): a failed answer stored or sent without its `ending` is known by it. */
const NAMED_FAILURE = /^(refused|content_filter|tool_calls)(?::|$)/;

/**
 * How an answer ended, when it was not whole: its `ending`, else (a failed answer that carries only
 * its error, as a deliberation format's failed answers do) the ending its error text names.
 */
export function endingOf(answer: { status: string; ending?: AnswerEnding; error?: string }): AnswerEnding | undefined {
  if (answer.ending) return answer.ending;
  if (answer.status !== "error" || !answer.error) return undefined;
  return NAMED_FAILURE.exec(answer.error)?.[1] as AnswerEnding | undefined;
}

/** The render environment that turns an answer's `[n]` markers into links to its sources. */
export interface CitationEnv {
  sources?: Source[];
}

/** A `[n]` marker (a source's number, not a link's text: those are links already when the rule runs). */
const MARKER = /\[(\d{1,4})\]/g;

/** One text token split at its markers: text, and a link to source n for each marker that has a safe source. */
function linkMarkers(state: StateCore, token: Token, sources: Source[]): Token[] {
  const out: Token[] = [];
  let last = 0;
  const text = (content: string) => {
    const t = new state.Token("text", "", 0);
    t.content = content;
    t.level = token.level;
    out.push(t);
  };
  for (const m of token.content.matchAll(MARKER)) {
    const n = Number(m[1]);
    const source = n >= 1 && n <= sources.length ? sources[n - 1] : undefined;
    const href = source && linkable(source.url);
    if (!href) continue;
    if (m.index > last) text(token.content.slice(last, m.index));
    const open = new state.Token("link_open", "a", 1);
    open.attrs = [
      ["href", href],
      ["target", "_blank"],
      ["rel", "noopener noreferrer"],
      ["class", "source-ref"],
      ["title", sourceLabel(source)],
    ];
    open.level = token.level;
    out.push(open);
    text(m[0]);
    const close = new state.Token("link_close", "a", -1);
    close.level = token.level;
    out.push(close);
    last = m.index + m[0].length;
  }
  if (last === 0) return [token];
  if (last < token.content.length) text(token.content.slice(last));
  return out;
}

/**
 * A markdown-it plugin: with `env.sources`, each `[n]` of the text (1 ≤ n ≤ the number of sources,
 * the source's URL http(s)) becomes a link to source n, opening in a new tab. Code spans and blocks
 * are not text, so a `[1]` in code stays as it is; so does one inside a link or escaped (`\[1]`),
 * and a marker written as a link already (`[1](…)`, `[1]` with a definition).
 */
export function sourceMarkers(md: MarkdownIt): void {
  // After linkify (its links are links by then), before text_join merges escaped brackets into the text.
  md.core.ruler.after("linkify", "source_markers", (state) => {
    const sources = (state.env as CitationEnv | undefined)?.sources;
    if (!sources?.length) return;
    for (const block of state.tokens) {
      if (block.type !== "inline" || !block.children) continue;
      let inLink = 0;
      const children: Token[] = [];
      for (const token of block.children) {
        if (token.type === "link_open") inLink++;
        else if (token.type === "link_close") inLink--;
        children.push(...(token.type === "text" && inLink === 0 ? linkMarkers(state, token, sources) : [token]));
      }
      block.children = children;
    }
  });
}
