/**
 * What chat clients wrap around a person's question when a file, a knowledge base or a web search
 * is attached: Open WebUI's retrieval template (each of its wordings since 2024, in the user message
 * or the system message), LibreChat's file context and attached documents, AnythingLLM's context
 * blocks, and any `<context>` of `<source>` elements. The question is what the person typed; the
 * retrieved text is material, named by its sources, that every participant reads.
 */

/** A piece of material a participant reads with the question: a source's name and its text. */
export interface Material {
  name: string;
  text: string;
}

/** The longest a source's name is kept. */
const NAME_CHARS = 200;

/** Open WebUI's retrieval templates, by their opening words (whitespace made single). */
const RAG_OPENINGS = [
  // 2025–: "### Task: Respond to the user query using the provided context, incorporating inline citations…"
  "### Task: Respond to the user query using the provided context",
  // Autumn 2024.
  "You are given a user query, some textual context and rules, all inside xml tags.",
  // 2024.
  "Use the following context as your learned knowledge, inside <context></context> XML tags.",
];

/** A source element of Open WebUI's context: `<source id="1" name="a.pdf" …>text</source>`. */
const SOURCE = /<source((?:\s+[a-z_-]+="[^"]*")*)\s*>([\s\S]*?)<\/source>/g;
/** The 2025 form: `<source><source_id>a.pdf</source_id><source_context>text</source_context></source>`. */
const SOURCE_ID = /^\s*(?:<source_id>([\s\S]*?)<\/source_id>)?\s*<source_context>([\s\S]*?)<\/source_context>\s*$/;

const flat = (s: string) => s.replace(/\s+/g, " ").trim();
const named = (name: string | undefined, fallback: string) => flat(name ?? "").slice(0, NAME_CHARS) || fallback;

/** The sources of a retrieval context, chunks of one source joined; the whole context as one source when it has none. */
function sourcesOf(context: string): Material[] {
  const bySource = new Map<string, string[]>();
  for (const m of context.matchAll(SOURCE)) {
    const attrs = Object.fromEntries([...m[1].matchAll(/([a-z_-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]]));
    const old = SOURCE_ID.exec(m[2]);
    const name = named(old ? old[1] : attrs.name, attrs.id ? `source ${attrs.id}` : `source ${bySource.size + 1}`);
    const text = (old ? old[2] : m[2]).trim();
    if (text) bySource.set(name, [...(bySource.get(name) ?? []), text]);
  }
  if (bySource.size > 0) return [...bySource].map(([name, texts]) => ({ name, text: texts.join("\n\n") }));
  const text = context.replace(/\/n/g, "\n").trim();
  return text ? [{ name: "context", text }] : [];
}

/** Whether a text opens with (or holds) one of Open WebUI's retrieval templates, or a context of sources. */
function isRetrieval(text: string): boolean {
  const f = flat(text);
  if (RAG_OPENINGS.some((o) => f.includes(o))) return true;
  const context = /<context>([\s\S]*)<\/context>/.exec(text)?.[1];
  return context !== undefined && (/<source[\s>]/.test(context) || /<user_query>/.test(text));
}

/** Open WebUI's template, filled, and what follows it: the material, the question it quotes, and the text after it. */
function readRetrieval(text: string): { material: Material[]; quoted?: string; before: string; after: string } {
  // The context opens on a line of its own (the 2024 wording names `<context></context>` in its first line).
  const open = /(?:^|\n)[ \t]*<context>/.exec(text);
  const from = open ? open.index + open[0].length : text.indexOf("<context>") + "<context>".length;
  const close = text.lastIndexOf("</context>");
  const material = sourcesOf(text.slice(from, close));
  let after = text.slice(close + "</context>".length);
  let quoted: string | undefined;
  // The question the template quotes: in `<user_query>` (its rules may come first), or on its last line (2024: `Query: …`).
  const query = /<user_query>\s*([\s\S]*?)\s*<\/user_query>/.exec(after);
  const line = /\n\s*Given the context information, answer the query\.\s*\nQuery: ([\s\S]*)$/.exec(after);
  if (query) {
    quoted = query[1];
    after = after.slice(query.index + query[0].length);
  } else if (line) {
    quoted = line[1];
    after = "";
  }
  // What the template wrote before the context (its task and rules) is the template's; a system prompt before it stays.
  const start = RAG_OPENINGS.map((o) => text.search(new RegExp(o.split(" ").map(escape).join("\\s+")))).filter((i) => i >= 0);
  const before = text.slice(0, start.length > 0 ? Math.min(...start) : (open?.index ?? 0));
  return { material, quoted, before, after };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** LibreChat's attached documents: `Attached document(s):\n```md# "a.pdf"\ntext\n\n---\n\n# "b.txt"\ntext\n\n```` then the rest. */
function readAttachedDocuments(text: string): { material: Material[]; rest: string } | undefined {
  const head = /Attached document\(s\):\n```md/.exec(text);
  if (!head) return undefined;
  const body = text.slice(head.index + head[0].length);
  const end = body.search(/\n```(?:\n|$)/);
  const docs = end >= 0 ? body.slice(0, end) : body;
  const material = docs
    .split(/\n\n---\n\n(?=# ")/)
    .map((doc) => /^\s*# "([^"\n]*)"\n([\s\S]*)$/.exec(doc))
    .flatMap((m) => (m && m[2].trim() ? [{ name: named(m[1], "document"), text: m[2].trim() }] : []));
  const rest = text.slice(0, head.index) + (end >= 0 ? body.slice(end).replace(/^\n```\n?/, "") : "");
  return { material, rest };
}

/** LibreChat's retrieved file context (`<file><filename>…</filename><context>…</context></file>`, its items in CDATA). */
function readFileContext(text: string): { material: Material[]; rest: string } | undefined {
  if (!/<filename>[\s\S]*?<\/filename>/.test(text) || !/Use the context as your learned knowledge/.test(text)) return undefined;
  const material: Material[] = [];
  // Only a file with its context: the list of attached files before the context names them, with their types, and nothing more.
  for (const m of text.matchAll(/<file>\s*<filename>([^<]*)<\/filename>\s*(?:<type>[^<]*<\/type>\s*)?<context>([\s\S]*?)<\/context>\s*<\/file>/g)) {
    const items = [...m[2].matchAll(/<!\[CDATA\[([\s\S]*?)\]\]>/g)].map((i) => i[1].trim());
    const body = (items.length > 0 ? items.join("\n\n") : m[2]).trim();
    if (body) material.push({ name: named(m[1], "file"), text: body });
  }
  const start = text.search(/The user has attached/);
  const end = text.search(/- Avoid mentioning that you obtained the information from the context\.\n?/);
  const rest = start >= 0 && end > start ? text.slice(0, start) + text.slice(end).replace(/^[^\n]*\n?/, "") : text;
  return { material, rest };
}

/** AnythingLLM's context: `Context:\n[CONTEXT 0]:\n…\n[END CONTEXT 0]`, a source named in its metadata. */
function readContextBlocks(text: string): { material: Material[]; rest: string } | undefined {
  const blocks = [...text.matchAll(/\[CONTEXT (\d+)\]:\n([\s\S]*?)\n\[END CONTEXT \1\]\n*/g)];
  if (blocks.length === 0) return undefined;
  const material = blocks.flatMap((b) => {
    const meta = /^<document_metadata>\n([\s\S]*?)<\/document_metadata>\n*/.exec(b[2]);
    const name = meta && /sourceDocument: (.*)/.exec(meta[1])?.[1];
    const body = (meta ? b[2].slice(meta[0].length) : b[2]).trim();
    return body ? [{ name: named(name ?? undefined, `context ${Number(b[1]) + 1}`), text: body }] : [];
  });
  const rest = text.slice(0, blocks[0].index).replace(/\n?Context:\n?$/, "") + text.slice(blocks.at(-1)!.index + blocks.at(-1)![0].length);
  return { material, rest };
}

/** Open WebUI's list of attached files (names only, no content): not the person's words. */
const ATTACHED_FILES = /<attached_files>[\s\S]*?<\/attached_files>\s*/g;

/**
 * A user message's text as the person wrote it, and the material a client wrapped around it. Its
 * text parts are read each (Open WebUI puts its template in front of every one, and its list of
 * attached files in a part of its own).
 */
export function unwrapUserText(parts: string[]): { text: string; material: Material[] } {
  const material: Material[] = [];
  const texts = parts.map((part) => {
    let text = part.replace(ATTACHED_FILES, "");
    const docs = readAttachedDocuments(text);
    if (docs) {
      material.push(...docs.material);
      text = docs.rest;
    }
    if (isRetrieval(text)) {
      const r = readRetrieval(text);
      material.push(...r.material);
      // What the person typed follows the template (Open WebUI since 2025), or is the question it quotes (before).
      text = r.after.trim() ? r.before + r.after : (r.quoted ?? "");
    }
    return text.trim();
  });
  return { text: texts.filter(Boolean).join("\n"), material: distinct(material) };
}

/**
 * A system message without what a client put in it for retrieval (Open WebUI's template, LibreChat's
 * file context and documents, AnythingLLM's context), and that material.
 */
export function unwrapSystemText(text: string): { text: string; material: Material[] } {
  const material: Material[] = [];
  let rest = text;
  for (const read of [readAttachedDocuments, readFileContext, readContextBlocks]) {
    const r = read(rest);
    if (r) {
      material.push(...r.material);
      rest = r.rest;
    }
  }
  if (isRetrieval(rest)) {
    const r = readRetrieval(rest);
    material.push(...r.material);
    rest = r.before + r.after;
  }
  return { text: rest.trim(), material: distinct(material) };
}

/** Material without a source told twice (a template put in front of several parts). */
function distinct(material: Material[]): Material[] {
  const seen = new Set<string>();
  return material.filter((m) => {
    const key = `${m.name}\n${m.text}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The most characters of material a run's participants read, all sources together (about 4,000 tokens). */
export const MATERIAL_CHARS = 16_000;

/**
 * The material as participants read it: each source numbered and named, within `MATERIAL_CHARS`
 * (each source gets its share of what the shorter ones leave; a cut source says so).
 */
export function materialText(material: Material[], budget = MATERIAL_CHARS): string {
  let left = budget;
  const byLength = [...material.keys()].sort((a, b) => material[a].text.length - material[b].text.length);
  const texts: string[] = [];
  byLength.forEach((i, n) => {
    const share = Math.floor(left / (byLength.length - n));
    const text = material[i].text;
    texts[i] = text.length <= share ? text : `${text.slice(0, Math.max(0, share - 1))}… [cut: ${text.length - share} more characters]`;
    left -= Math.min(text.length, share);
  });
  return material.map((m, i) => `[${i + 1}] ${m.name}\n${texts[i]}`).join("\n\n");
}
