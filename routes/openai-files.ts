import { isPdf, isTextFile, pdfText, textOf, type AttachedFile } from "../service/attachments.js";
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

/** Whether a part is a file (of either API). */
export const isFilePart = (p: { type: string }): boolean => p.type === "file" || p.type === "input_file";

/** A file part's name (its `filename`, else its place), media type (from its data URL; may be empty) and bytes. */
function fileData(part: FilePart, index: number): AttachedFile | undefined {
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
  if (!file || !isTextFile(file)) return undefined;
  // A file that says it is text but is not (NUL bytes, or mostly undecodable) is left out too.
  const text = textOf(file.bytes);
  return text === undefined ? undefined : { name: file.name, text };
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
      if (!file || !isPdf(file)) return p;
      const text = await pdfText(file.bytes);
      if (text === undefined) return p;
      return { type: "file", file: { filename: file.name, file_data: `data:text/plain;base64,${Buffer.from(text).toString("base64")}` } };
    }),
  );
  return [...messages.slice(0, -1), { ...last, content }];
}
