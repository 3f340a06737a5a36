import { Router } from "express";
import type { VoiceSettingsStore } from "../providers/voice-settings-store.js";
import type { Participant } from "../state/participants.js";
import { defaultVoiceSettings, voiceFor, type VoiceSettings } from "../state/voice.js";
import { HttpError } from "./errors.js";

/** A participant of the server's roster with the voice /dvoice gives it under the current settings. */
export interface ParticipantVoice {
  key: string;
  display: string;
  voice: string;
}

/**
 * `/debate/voice-settings` (GET, PUT) and `/debate/voice-defaults` (GET), mounted under
 * /api/v1/admin. The api_key is only ever answered masked. Each answer also lists `participants`:
 * the server's roster (`roster`: the configured DEBATE_PARTICIPANTS) with the voice each
 * one speaks with, so that the admin page offers a voice for the debaters this server has (not the
 * default eight of `voice_map`). `participants` is read-only: a PUT that sends it back has it ignored.
 */
export function adminVoiceRouter(store: VoiceSettingsStore | undefined, roster: readonly Participant[]): Router {
  const router = Router();
  const settings = () => {
    if (!store) throw new HttpError(503, "voice_unavailable", "this server has no voice settings store");
    return store;
  };
  const withParticipants = <S extends VoiceSettings>(s: S): S & { participants: ParticipantVoice[] } => ({
    ...s,
    participants: roster.map((p) => ({ key: p.key, display: p.display, voice: voiceFor(p.display, s, p.voice) })),
  });
  router.get("/debate/voice-settings", async (_req, res) => {
    res.json(withParticipants(await settings().masked()));
  });
  router.put("/debate/voice-settings", async (req, res) => {
    if (!req.is("application/json")) throw new HttpError(415, "unsupported_media_type", "the body must be JSON voice settings");
    const body = req.body as unknown;
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      throw new HttpError(400, "invalid_body", "the body must be a JSON object of voice settings");
    }
    // What a GET answered may be sent back whole: its read-only roster is not a setting.
    const { participants: _readOnly, ...input } = body as Record<string, unknown>;
    res.json(withParticipants(await settings().save(input)));
  });
  router.get("/debate/voice-defaults", (_req, res) => {
    res.json(withParticipants({ ...defaultVoiceSettings(), api_key_set: false }));
  });
  router.all(["/debate/voice-settings", "/debate/voice-defaults"], (req) => {
    const allow = req.path.endsWith("voice-settings") ? "GET, PUT" : "GET";
    throw new HttpError(405, "method_not_allowed", `${req.method} is not allowed here; use ${allow}`, { Allow: allow });
  });
  return router;
}
