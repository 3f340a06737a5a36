import express from "express";

/** A strict UTF-8 decoder: a body that is not UTF-8 is refused rather than silently repaired. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * express' JSON body parser with a size limit, refusing bodies that are not valid UTF-8 (400
 * `invalid_body`): the same for `/api/v1`, `/v1` and `/mcp`. `strict: false` takes any JSON value
 * (a route then names what it expected), `true` only objects and arrays.
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
    },
  });
}
