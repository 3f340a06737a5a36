import { readFile, stat } from "node:fs/promises";
import { basename } from "node:path";
import { ATTACHMENT_MAX_BYTES, attachmentMaterial } from "../service/attachments.js";
import type { Material } from "../state/client-material.js";
import type { MessageKey } from "../state/messages/index.js";

type T = (key: MessageKey, values?: Record<string, string | number>) => string;

/**
 * The files of `--attach`, read as material every participant reads (text, Markdown, CSV, JSON,
 * source code, a PDF's text), each named by its file name; or the first one that cannot be, and
 * why, in the reader's language. Nothing is read past a file that is too large.
 */
export async function attachedMaterial(paths: string[], t: T): Promise<{ material: Material[] } | { error: string }> {
  const material: Material[] = [];
  for (const path of paths) {
    const file = basename(path);
    const size = await stat(path).then(
      (s) => (s.isFile() ? s.size : undefined),
      () => undefined,
    );
    if (size === undefined) return { error: t("cli.attach.missing", { file: path }) };
    if (size > ATTACHMENT_MAX_BYTES) return { error: t("cli.attach.tooLarge", { file, mb: ATTACHMENT_MAX_BYTES / 1024 / 1024 }) };
    const read = await attachmentMaterial({ name: file, mediaType: "", bytes: await readFile(path) });
    if ("refused" in read) return { error: t(read.refused === "unsupported" ? "cli.attach.unsupported" : "cli.attach.unreadable", { file }) };
    material.push(read.material);
  }
  return { material };
}
