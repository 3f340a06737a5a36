import type { Material } from "../state/client-material.js";

/**
 * A file sent inside a message as a part of its own: chat completions' `{type: "file", file:
 * {filename, file_data}}` and the Responses API's `{type: "input_file", filename, file_data}`.
 * `file_data` is a data URL (`data:text/plain;base64,…`), or the bare base64 OpenAI's SDKs also
 * send. A file whose text can be read (plain text, Markdown, CSV, JSON, XML, YAML, HTML, source
 * code) is material, named by its file name; any other (a PDF, an image, a file by `file_id` or
 * `file_url`, which this server has no store of and never fetches) is left out, and said so.
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

/** Whether a part is a file (of either API). */
export const isFilePart = (p: { type: string }): boolean => p.type === "file" || p.type === "input_file";

/** The readable text of a file part, as material; undefined for a file that cannot be read as text. */
export function fileMaterial(part: FilePart, index: number): Material | undefined {
  const f = part.type === "file" ? (part.file ?? {}) : part;
  const name = typeof f.filename === "string" && f.filename.trim() ? f.filename.trim().slice(0, 200) : `file ${index + 1}`;
  if (typeof f.file_data !== "string") return undefined;
  const data = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(f.file_data);
  const mediaType = (data?.[1] ?? "").toLowerCase();
  const readable = mediaType ? mediaType.startsWith("text/") || TEXT_TYPES.test(mediaType) : TEXT_NAMES.test(name);
  if (!readable) return undefined;
  const bytes = data ? (data[2] ? Buffer.from(data[3], "base64") : Buffer.from(decodeURIComponent(data[3]))) : Buffer.from(f.file_data, "base64");
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes).replace(/^\uFEFF/, "");
  // A file that says it is text but is not (NUL bytes, or mostly undecodable) is left out too.
  const broken = (text.match(/\uFFFD/g)?.length ?? 0) > text.length / 20;
  if (text.trim() === "" || text.includes("\0") || broken) return undefined;
  return { name, text: text.trim() };
}
