import { Router } from "express";
import type { ModelsHealth } from "../service/app-deps.js";
import { userOf } from "./auth.js";

/** How long one check of the endpoints' model lists is served before the endpoints are asked again. */
const CHECK_TTL_MS = 60_000;

/**
 * `GET /api/v1/health/models`: each configured endpoint, whether it answers, and which of the
 * model ids configured at it its model list lacks (`missing`). Simulated models: no endpoints.
 * With users, only the admin sees where the endpoints are (URL, key variable, errors); a user
 * sees each one's status and models.
 */
export function healthRouter(check: (() => Promise<ModelsHealth>) | undefined, auth: "none" | "tokens"): Router {
  const router = Router();
  let last: { at: number; answer: Promise<ModelsHealth> } | undefined;
  router.get("/api/v1/health/models", async (_req, res) => {
    if (!check) return void res.json({ simulated: true, endpoints: [] });
    if (!last || Date.now() - last.at > CHECK_TTL_MS) {
      const answer = check();
      last = { at: Date.now(), answer };
      // A check that failed as a whole is asked again next time, not served for a minute.
      answer.catch(() => (last = undefined));
    }
    const { checked_at, endpoints } = await last.answer;
    const full = auth === "none" || userOf(res).admin;
    res.json({
      simulated: false,
      checked_at,
      endpoints: full ? endpoints : endpoints.map(({ status, models, missing, nearest }) => ({ status, models, missing, nearest })),
    });
  });
  return router;
}
