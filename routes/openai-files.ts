import { getDocumentProxy } from "unpdf";
import type { Material } from "../state/client-material.js";
import type { ChatMessage } from "./openai-request.js";

/**
 * A file sent inside a message as a part of its own: chat completions' `{type: "file", file:
 * {filename, file_data}}` and the Responses API's `{type: "input_file", filename, file_data}`.
 * `file_data` is a data URL (`data:text/plain;base64,…`), or the bare base64 OpenAI's SDKs also
 * send. A file whose text can be read (plain text, Markdown, CSV, JSON, XML, YAML, HTML, source
 * code, a PDF's text) is material, named by its file name; any other (an image, a scanned PDF
 * without text, a file by `file_id` or `file_url`, which this server has no store of and never
 * fetches) is left out, and said so.
 */
export interface FilePart {
  type: string;
  file?: { filename?: unknown; file_data?: unknown; file_id?: unknown };
  filename?: unknown;
  file_data?: unknown;
}

/** The media types read as text, besides `text/*`. */
const TEXT_TYPES = /^application\/(json|ld\+json|xml|x-yaml|yaml|csv|x-ndjson|javascript|x-sh|sql|toml|x-toml)$/;
/** The file names read as text when the data says no media type. */
const TEXT_NAMES = /\.(txt|md|markdown|csv|tsv|json|jsonl|xml|ya?ml|html?|log|ini|toml|rst|tex|sql|py|js|ts|tsx|jsx|java|c|h|cpp|go|rs|rb|php|sh|css)$/i;
/** The most pages of a PDF read: its text is cut to the material's budget anyway. */
const PDF_PAGES = 100;

/** Whether a part is a file (of either API). */
export const isFilePart = (p: { type: string }): boolean => p.type === "file" || p.type === "input_file";

/** A file part's name (its `filename`, else its place), media type (from its data URL; may be empty) and bytes. */
function fileData(part: FilePart, index: number): { name: string; mediaType: string; bytes: Uint8Array } | undefined {
  const f = part.type === "file" ? (part.file ?? {}) : part;
  const name = typeof f.filename === "string" && f.filename.trim() ? f.filename.trim().slice(0, 200) : `file ${index + 1}`;
  if (typeof f.file_data !== "string") return undefined;
  const data = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(f.file_data);
  const mediaType = (data?.[1] ?? "").toLowerCase();
  const bytes = !data ? Buffer.from(f.file_data, "base64") : data[2] ? Buffer.from(data[3], "base64") : Buffer.from(decodeURIComponent(data[3]));
  return { name, mediaType, bytes };
}

/** The readable text of a file part, as material; undefined for a file that cannot be read as text. */
export function fileMaterial(part: FilePart, index: number): Material | undefined {
  const file = fileData(part, index);
  if (!file) return undefined;
  const readable = file.mediaType ? file.mediaType.startsWith("text/") || TEXT_TYPES.test(file.mediaType) : TEXT_NAMES.test(file.name);
  if (!readable) return undefined;
  const text = new TextDecoder("utf-8", { fatal: false }).decode(file.bytes).replace(/^\uFEFF/, "");
  // A file that says it is text but is not (NUL bytes, or mostly undecodable) is left out too.
  const broken = (text.match(/\uFFFD/g)?.length ?? 0) > text.length / 20;
  if (text.trim() === "" || text.includes("\0") || broken) return undefined;
  return { name: file.name, text: text.trim() };
}

/** A PDF's text, page after page (pdf.js, through `unpdf`); undefined for one that cannot be read or holds no text (a scan). */
async function pdfText(bytes: Uint8Array): Promise<string | undefined> {
  try {
    // pdf.js takes a plain Uint8Array, not a Buffer (a copy: it transfers the bytes to its worker).
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    try {
      const pages = Math.min(pdf.numPages, PDF_PAGES);
      const texts: string[] = [];
      for (let n = 1; n <= pages; n++) {
        const content = await (await pdf.getPage(n)).getTextContent();
        // Text items (marked content has no `str`), a line ending after those that end one.
        texts.push((content.items as { str?: string; hasEOL?: boolean }[]).map((i) => (i.str ?? "") + (i.hasEOL ? "\n" : "")).join(""));
      }
      const text = texts.join("\n\n").trim();
      return text || undefined;
    } finally {
      await pdf.destroy();
    }
  } catch {
    return undefined;
  }
}

/**
 * The messages with the last one's PDF files read: each becomes a text file of its text (so it is
 * material like any text file), named as it was. A PDF that cannot be read, or holds no text,
 * stays as it is, and is left out, saying so. Earlier messages' files are not the question's.
 */
export async function withPdfsRead(messages: ChatMessage[]): Promise<ChatMessage[]> {
  const last = messages.at(-1);
  if (!last || typeof last.content === "string" || !last.content?.some(isFilePart)) return messages;
  const content = await Promise.all(
    last.content.map(async (p, i) => {
      const file = isFilePart(p) ? fileData(p, i) : undefined;
      if (!file || !(file.mediaType === "application/pdf" || (!file.mediaType && /\.pdf$/i.test(file.name)))) return p;
      const text = await pdfText(file.bytes);
      if (text === undefined) return p;
      return { type: "file", file: { filename: file.name, file_data: `data:text/plain;base64,${Buffer.from(text).toString("base64")}` } };
    }),
  );
  return [...messages.slice(0, -1), { ...last, content }];
}
