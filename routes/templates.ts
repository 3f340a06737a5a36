import { Router } from "express";
import type { TemplatesStore } from "../providers/templates-store.js";
import { LANGS, translate } from "../state/messages/index.js";
import { templatesFor, type TemplateOverrides } from "../state/templates.js";
import { HttpError } from "./errors.js";
import { langOf } from "./lang.js";

/** The overrides, or none when the server has no store for them. */
const overridesOf = async (store: TemplatesStore | undefined): Promise<TemplateOverrides> => (store ? store.load() : {});

/** `GET /api/v1/templates?lang=`: `{lang, formats: [{format, command, items, custom}]}`, the suggestions for an empty chat in the reader's language. */
export function templatesRouter(store: TemplatesStore | undefined): Router {
  const router = Router();
  router.get("/api/v1/templates", async (req, res) => {
    const lang = langOf(req);
    res.json({ lang, formats: templatesFor(lang, (key, values) => translate(lang, key, values), await overridesOf(store)) });
  });
  return router;
}

/**
 * `/templates` (GET, PUT), mounted under /api/v1/admin: the admins' suggestions (`overrides`,
 * per language and format), what every language shows with them (`languages`) and without them
 * (`defaults`). A PUT replaces the overrides: a format left out shows the defaults, an empty list
 * none.
 */
export function adminTemplatesRouter(store: TemplatesStore | undefined): Router {
  const router = Router();
  const shown = (overrides: TemplateOverrides) =>
    Object.fromEntries(LANGS.map((lang) => [lang, templatesFor(lang, (key, values) => translate(lang, key, values), overrides)]));
  const answer = (overrides: TemplateOverrides) => ({ overrides, languages: shown(overrides), defaults: shown({}) });
  router.get("/templates", async (_req, res) => {
    res.json(answer(await overridesOf(store)));
  });
  router.put("/templates", async (req, res) => {
    if (!store) throw new HttpError(503, "store_unavailable", "this server has no store for suggested topics");
    if (!req.is("application/json")) throw new HttpError(415, "unsupported_media_type", 'the body must be JSON: {"en": {"debatt": ["…"]}, …}');
    res.json(answer(await store.save(req.body)));
  });
  router.all("/templates", (req) => {
    throw new HttpError(405, "method_not_allowed", `${req.method} is not allowed here; use GET, PUT`, { Allow: "GET, PUT" });
  });
  return router;
}
