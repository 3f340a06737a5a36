import { Router } from "express";
import { VoiceSettingsStore } from "../providers/voice-settings-store.js";
import { defaultVoiceSettings } from "../state/voice.js";
import { HttpError } from "./errors.js";

/**
 * `/debate/voice-settings` (GET, PUT) and `/debate/voice-defaults` (GET), mounted under
 * /api/v1/admin. The api_key is only ever answered masked.
 */
export function adminVoiceRouter(store: VoiceSettingsStore | undefined): Router {
  const router = Router();
  const settings = () => {
    if (!store) throw new HttpError(503, "voice_unavailable", "this server has no voice settings store");
    return store;
  };
  router.get("/debate/voice-settings", async (_req, res) => {
    res.json(await settings().masked());
  });
  router.put("/debate/voice-settings", async (req, res) => {
    if (!req.is("application/json")) throw new HttpError(415, "unsupported_media_type", "the body must be JSON voice settings");
    const body = req.body as unknown;
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      throw new HttpError(400, "invalid_body", "the body must be a JSON object of voice settings");
    }
    res.json(await settings().save(body as Record<string, unknown>));
  });
  router.get("/debate/voice-defaults", (_req, res) => {
    res.json({ ...defaultVoiceSettings(), api_key_set: false });
  });
  router.all(["/debate/voice-settings", "/debate/voice-defaults"], (req) => {
    const allow = req.path.endsWith("voice-settings") ? "GET, PUT" : "GET";
    throw new HttpError(405, "method_not_allowed", `${req.method} is not allowed here; use ${allow}`, { Allow: allow });
  });
  return router;
}
