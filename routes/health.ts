import { Router } from "express";
import type { ModelsHealth } from "../service/app-deps.js";

/** How long one check of the endpoints' model lists is served before the endpoints are asked again. */
const CHECK_TTL_MS = 60_000;

/**
 * `GET /api/v1/health/models`: each configured endpoint, whether it answers, and which of the
 * model ids configured at it its model list lacks (`missing`). Simulated models: no endpoints.
 */
export function healthRouter(check: (() => Promise<ModelsHealth>) | undefined): Router {
  const router = Router();
  let last: { at: number; answer: Promise<ModelsHealth> } | undefined;
  router.get("/api/v1/health/models", async (_req, res) => {
    if (!check) return void res.json({ simulated: true, endpoints: [] });
    if (!last || Date.now() - last.at > CHECK_TTL_MS) last = { at: Date.now(), answer: check() };
    res.json({ simulated: false, ...(await last.answer) });
  });
  return router;
}
