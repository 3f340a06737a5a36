import type { ShareLink, ShareStatus } from "../state/api.js";
import { randomBytes } from "node:crypto";
import { Router, type Request, type Response } from "express";
import { EXPORT_FORMATS, exportConversation, type ExportFormat } from "../history/export.js";
import { tokenHash } from "../history/users.js";
import { pickLang, translate } from "../state/messages/index.js";
import { langOf } from "./lang.js";
import type { ChatRouteDeps } from "./chat.js";
import { HttpError } from "./errors.js";
import { historyOf, ownedConversation } from "./history.js";

/** A read-only link's token: 32 random bytes, base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Exports and read-only links:
 * - `GET /api/v1/conversations/:id/export?format=md|json|html&lang=`: the conversation as a
 *   Markdown or JSON transcript, or as one HTML page that draws it and opens offline (a download);
 * - `POST /api/v1/conversations/:id/share`: a read-only link (`/shared/<token>`), in place of any
 *   earlier one; the token is shown only in this answer;
 * - `GET /api/v1/conversations/:id/share`: `{shared, createdAt}`, whether there is a link;
 * - `DELETE /api/v1/conversations/:id/share`: withdraws the link;
 * - `GET /shared/:token`: the conversation's page, read-only, to anyone with the link, without
 *   signing in, and nothing else of its owner's.
 */
export function exportRouter(deps: ChatRouteDeps): Router {
  const router = Router();
  const history = () => historyOf(deps);
  const owned = (req: Request, res: Response) => ownedConversation(deps, req, res);

  router.get("/api/v1/conversations/:id/export", async (req, res) => {
    const format = req.query.format || "md";
    if (typeof format !== "string" || !(EXPORT_FORMATS as readonly string[]).includes(format))
      throw new HttpError(400, "invalid_export_format", `format must be one of ${EXPORT_FORMATS.join(", ")}`);
    const lang = langOf(req);
    const c = await owned(req, res);
    const file = await exportConversation(history(), c, format as ExportFormat, (key, values) => translate(lang, key, values), lang);
    res.set("Content-Type", file.contentType);
    res.set("Content-Disposition", `attachment; filename="${file.filename}"`);
    if (file.policy) res.set("Content-Security-Policy", file.policy);
    res.send(file.body);
  });

  router.post("/api/v1/conversations/:id/share", async (req, res) => {
    const c = await owned(req, res);
    const token = randomBytes(32).toString("base64url");
    const at = new Date();
    await history().share(c.id, tokenHash(token), at);
    res.status(201).json({ url: `/shared/${token}`, token, createdAt: at.toISOString() } satisfies ShareLink);
  });

  router.get("/api/v1/conversations/:id/share", async (req, res) => {
    const since = await history().sharedSince((await owned(req, res)).id);
    // The link itself is not kept: only whether there is one.
    res.json({ shared: since !== undefined, createdAt: since?.toISOString() ?? null } satisfies ShareStatus);
  });

  router.delete("/api/v1/conversations/:id/share", async (req, res) => {
    const c = await owned(req, res);
    if (!(await history().unshare(c.id))) throw new HttpError(404, "share_not_found", `conversation "${c.id}" has no read-only link`);
    res.status(204).end();
  });

  router.get("/shared/:token", async (req, res) => {
    const lang = pickLang(req.acceptsLanguages());
    const token = String(req.params.token);
    const c = TOKEN.test(token) && deps.history ? await deps.history.sharedConversation(tokenHash(token)) : undefined;
    if (!c) {
      res
        .status(404)
        .type("html")
        .send(`<!doctype html><html lang="${lang}"><meta charset="utf-8"><title>debatt</title><p>${translate(lang, "share.gone")}</p></html>`);
      return;
    }
    const file = await exportConversation(deps.history!, c, "html", (key, values) => translate(lang, key, values), lang);
    // The page is the owner's conversation and nothing else: it asks the server for nothing.
    res.set("Content-Security-Policy", file.policy ?? "default-src 'none'");
    res.set("Cache-Control", "no-store");
    res.type("html").send(file.body);
  });

  return router;
}
