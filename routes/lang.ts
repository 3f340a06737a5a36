import type { Request } from "express";
import { LANGS, pickLang, type Lang } from "../state/messages/index.js";
import { HttpError } from "./errors.js";

/** The reader's language: `?lang=` (en or sv; 400 `invalid_lang` otherwise), else (absent or empty) the browser's (Accept-Language). */
export function langOf(req: Request): Lang {
  const asked = req.query.lang;
  if (asked === undefined || asked === "") return pickLang(req.acceptsLanguages());
  if (typeof asked !== "string" || !(LANGS as readonly string[]).includes(asked))
    throw new HttpError(400, "invalid_lang", `lang must be one of ${LANGS.join(", ")}`);
  return asked as Lang;
}
