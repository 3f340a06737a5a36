import { markdownPlain } from "./text.js";

/**
 * What a model's answer carries beside its text: the reasoning it showed (never part of the
 * text), the sources it gave, and how it ended when that was not a whole answer. Events, the
 * history, the exports and the other surfaces carry these under the same names.
 */

/** A source a participant gave for its answer: Perplexity's citations, OpenRouter's URL annotations, OneSeek's search results. */
export interface Source {
  url: string;
  title?: string;
}

/**
 * How an answer ended, when it was not whole: cut by the token limit (`length`), cut off (the
 * stream stopped without an ending), held back by a content filter, refused by the model, or a
 * call for tools instead of an answer.
 */
export const ENDINGS = ["length", "cut_off", "content_filter", "refused", "tool_calls"] as const;
export type AnswerEnding = (typeof ENDINGS)[number];

/** What an answer carries beside its text (each field only when there is something to say). */
export interface AnswerNotes {
  /** What the model reasoned before it answered (its thinking), kept apart from the answer. */
  reasoning?: string;
  /** The sources it gave, numbered in order from 1: `[n]` in its text is `sources[n-1]`. */
  sources?: Source[];
  /** How it ended, when that was not a whole answer. */
  ending?: AnswerEnding;
}

const isSource = (s: unknown): s is Source =>
  typeof s === "object" &&
  s !== null &&
  typeof (s as Source).url === "string" &&
  ((s as Source).title === undefined || typeof (s as Source).title === "string");

/**
 * Only the notes there are, and of the right shape, from anything that may carry them (an answer
 * in state, an event, a stored row read back unchecked): for spreading into an event or a row.
 * The sources are taken all or none, since `[n]` in the text is the n-th: one dropped would
 * renumber the rest.
 */
export function notesFields(data: unknown): AnswerNotes {
  if (typeof data !== "object" || data === null) return {};
  const { reasoning, sources, ending } = data as Record<string, unknown>;
  const kept =
    Array.isArray(sources) && sources.length > 0 && sources.every(isSource)
      ? sources.map((s) => (s.title ? { url: s.url, title: s.title } : { url: s.url }))
      : undefined;
  return {
    ...(typeof reasoning === "string" && reasoning.trim() ? { reasoning } : {}),
    ...(kept ? { sources: kept } : {}),
    ...((ENDINGS as readonly unknown[]).includes(ending) ? { ending: ending as AnswerEnding } : {}),
  };
}

/** The notes of an answer's `response_metadata` (as StreamChatModel writes them), and the provider's words for a refusal or filter. */
export function notesOf(metadata: Record<string, unknown> | undefined): AnswerNotes & { providerMessage?: string } {
  if (!metadata) return {};
  const providerMessage = typeof metadata.provider_message === "string" ? metadata.provider_message : undefined;
  return { ...notesFields({ ...metadata, ending: metadata.finish_reason }), ...(providerMessage ? { providerMessage } : {}) };
}

/**
 * Why an answer that ended this way is no answer, or undefined when what came is the answer (a
 * cut or cut-off answer is kept and marked as such; an empty one is not). The provider's own
 * words are kept.
 */
export function endingFailure(ending: AnswerEnding | undefined, text: string, providerMessage?: string): string | undefined {
  const said = providerMessage ? `: ${providerMessage}` : "";
  switch (ending) {
    case "refused":
      return `refused${said || ": the model declined to answer"}`;
    case "content_filter":
      return `content_filter: the provider's content filter held the answer back${said}`;
    case "length":
      return text.trim() ? undefined : "length: the token limit was reached before the model answered";
    case "tool_calls":
      return text.trim() ? undefined : "tool_calls: the model asked to call a tool instead of answering";
    case "cut_off":
      return text.trim() ? undefined : "cut_off: the stream stopped before the model answered";
    default:
      return undefined;
  }
}

/** A source's address, when it is one a link may point to (http or https); else undefined. */
export function linkable(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** Whether an answer that ended this way was cut short but kept (the token limit, or a stream that stopped). */
export const cutShort = (ending: AnswerEnding | undefined): ending is "length" | "cut_off" => ending === "length" || ending === "cut_off";

const CLOSE_THINK = "</think>";

/**
 * A streamed text without the thinking that a chat template opened itself: when the text holds a
 * `</think>` with no `<think>` before it, what precedes the tag was thinking, not the answer (the
 * stream reader finds the same at its end, once the live text has gone out).
 */
export function withoutOpenedThinking(text: string): string {
  const close = text.indexOf(CLOSE_THINK);
  return close >= 0 && !text.slice(0, close).includes("<think>") ? text.slice(close + CLOSE_THINK.length).replace(/^\s+/, "") : text;
}

/** A source's title (or, not being a web address, its URL) as Markdown text; a web address as an autolink. */
export function sourceMarkdown(s: Source): { title: string; url?: string } {
  const url = linkable(s.url);
  return { title: markdownPlain(s.title ?? (url ? "" : s.url)).trim(), ...(url ? { url } : {}) };
}

/** Code (fenced blocks and inline spans), where a `[n]` is code and not a citation. */
const CODE = /(```[\s\S]*?(?:```|$)|`[^`\n]*`)/;

/**
 * An answer in Markdown with its sources: each `[n]` of the text (not in code, not escaped, not
 * already a link) linked to source n, and the sources listed after it, numbered as the text cites
 * them. A source that is not a web address is listed as text, never linked.
 */
export function withSources(text: string, sources: Source[] | undefined): string {
  if (!sources?.length) return text;
  const link = (prose: string) =>
    prose.replace(/(?<!\\)\[(\d{1,4})\](?![(:])/g, (marker, n: string) => {
      const url = sources[Number(n) - 1] && linkable(sources[Number(n) - 1].url);
      return url ? `[\\[${n}\\]](<${url}>)` : marker;
    });
  const linked = text
    .split(CODE)
    .map((part, i) => (i % 2 === 0 ? link(part) : part))
    .join("");
  const list = sources.map((s, i) => {
    const { title, url } = sourceMarkdown(s);
    return `- \\[${i + 1}\\] ${url ? `[${title || url}](<${url}>)` : title}`;
  });
  return `${linked}\n\n${list.join("\n")}`;
}
