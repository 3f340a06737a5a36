import { getDocumentProxy } from "unpdf";
import type { Material } from "../state/client-material.js";

// A file a person puts on the table, read as material every participant reads: its text, or a
// PDF's text (pdf.js, through unpdf). One reader for every surface that takes files.

/** The most bytes of one attached file (a PDF of this size holds far more text than the material's budget). */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
/** The media types read as text, besides `text/*`. */
const TEXT_TYPES = /^application\/(json|ld\+json|xml|x-yaml|yaml|csv|x-ndjson|javascript|x-sh|sql|toml|x-toml)$/;
/** The file names read as text when nothing says a media type. */
const TEXT_NAMES = /\.(txt|md|markdown|csv|tsv|json|jsonl|xml|ya?ml|html?|log|ini|toml|rst|tex|sql|py|js|ts|tsx|jsx|java|c|h|cpp|go|rs|rb|php|sh|css)$/i;
/** The most pages of a PDF read: its text is cut to the material's budget anyway. */
const PDF_PAGES = 100;

/** A file as it arrived: its name, its media type (empty when none was said) and its bytes. */
export interface AttachedFile {
  name: string;
  mediaType: string;
  bytes: Uint8Array;
}

/** Why a file is not read: larger than ATTACHMENT_MAX_BYTES, of a kind that is not text, or text that cannot be read. */
export type AttachmentRefusal = "too_large" | "unsupported" | "unreadable";

/** Whether the file is a PDF, by its media type or, without one, its name. */
export const isPdf = (file: Pick<AttachedFile, "name" | "mediaType">): boolean =>
  file.mediaType === "application/pdf" || (!file.mediaType && /\.pdf$/i.test(file.name));

/** Whether the file is text, by its media type or, without one, its name. */
export const isTextFile = (file: Pick<AttachedFile, "name" | "mediaType">): boolean =>
  file.mediaType ? file.mediaType.startsWith("text/") || TEXT_TYPES.test(file.mediaType) : TEXT_NAMES.test(file.name);

/** Bytes that say they are text, as text; undefined when they are not (NUL bytes, mostly undecodable, or empty). */
export function textOf(bytes: Uint8Array): string | undefined {
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes).replace(/^\uFEFF/, "");
  const broken = (text.match(/\uFFFD/g)?.length ?? 0) > text.length / 20;
  return text.trim() === "" || text.includes("\0") || broken ? undefined : text.trim();
}

/** A PDF's text, page after page; undefined for one that cannot be read (broken, encrypted) or holds no text (a scan). */
export async function pdfText(bytes: Uint8Array): Promise<string | undefined> {
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

/** An attached file as material, named by its file name, or why it cannot be. */
export async function attachmentMaterial(file: AttachedFile): Promise<{ material: Material } | { refused: AttachmentRefusal }> {
  if (file.bytes.length > ATTACHMENT_MAX_BYTES) return { refused: "too_large" };
  if (!isPdf(file) && !isTextFile(file)) return { refused: "unsupported" };
  const text = isPdf(file) ? await pdfText(file.bytes) : textOf(file.bytes);
  return text === undefined ? { refused: "unreadable" } : { material: { name: file.name, text } };
}
