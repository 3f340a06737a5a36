/**
 * The generated blocks of the docs: the text between `<!-- NAME:begin -->` and `<!-- NAME:end -->`
 * in a document, written by a script (`npm run docs:events`, `npm run docs:prompts`) and checked by
 * tests/docs.test.ts against what the script generates now.
 */

const markers = (name: string) => [`<!-- ${name}:begin -->`, `<!-- ${name}:end -->`] as const;

/** The text between a document's markers of block `name`, trimmed; undefined when a marker is missing. */
export function readBlock(doc: string, name: string): string | undefined {
  const [open, close] = markers(name);
  const begin = doc.indexOf(open);
  const end = doc.indexOf(close);
  if (begin < 0 || end < begin) return undefined;
  return doc.slice(begin + open.length, end).trim();
}

/** The document with block `name` replaced by `block`; throws when the document (`file`, for the message) lacks its markers. */
export function replaceBlock(doc: string, name: string, block: string, file: string): string {
  const [open, close] = markers(name);
  const begin = doc.indexOf(open);
  const end = doc.indexOf(close);
  if (begin < 0 || end < begin) throw new Error(`${file} lacks the markers ${open} … ${close}`);
  return `${doc.slice(0, begin + open.length)}\n${block}\n${doc.slice(end)}`;
}
