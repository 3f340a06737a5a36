import express from "express";

/** A strict UTF-8 decoder: a body that is not UTF-8 is refused rather than silently repaired. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** How deep a request body's objects and arrays may nest: far beyond any request's, far below a stack's. */
export const MAX_BODY_DEPTH = 64;

/** How deep the objects and arrays of a JSON text nest, read in one pass (no recursion, whatever the depth). */
function nesting(buf: Buffer): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i];
    if (inString) {
      if (b === 0x5c) i++;
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x7b || b === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (b === 0x7d || b === 0x5d) depth--;
  }
  return deepest;
}

/**
 * express' JSON body parser with a size limit, refusing bodies that are not valid UTF-8 or nest
 * deeper than `MAX_BODY_DEPTH` (400 `invalid_body`; a deeper one would overflow the stack of
 * whatever reads it next): the same for `/api/v1`, `/v1` and `/mcp`. `strict: false` takes any
 * JSON value (a route then names what it expected), `true` only objects and arrays.
 */
export function jsonBody(limit: string | number, strict = false) {
  return express.json({
    limit,
    strict,
    verify: (_req, _res, buf) => {
      try {
        UTF8.decode(buf);
      } catch {
        throw new Error("the body is not valid UTF-8");
      }
      if (nesting(buf) > MAX_BODY_DEPTH) throw new Error(`the body's objects and arrays nest deeper than ${MAX_BODY_DEPTH} levels`);
    },
  });
}
