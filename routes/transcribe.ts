import express, { Router } from "express";
import { rateLimit } from "express-rate-limit";
import type { Transcriber } from "../ports/models.js";
import { TRANSCRIBABLE_TYPES } from "../providers/stt-openai.js";
import { userOf } from "./auth.js";
import { HttpError } from "./errors.js";

/** The largest recording taken: a couple of minutes of compressed speech. */
export const TRANSCRIBE_MAX_BYTES = 10 * 1024 * 1024;
/** Recordings transcribed per user and minute. */
const PER_MINUTE = 20;
/** How long the endpoint may take. */
const TIMEOUT_MS = 60_000;

/**
 * Spoken questions:
 * - `GET /api/v1/transcribe`: `{available}`, whether this server can transcribe (STT_API_KEY);
 * - `POST /api/v1/transcribe`: the recording as the body (`Content-Type: audio/webm`, `audio/ogg`,
 *   `audio/wav`, `audio/mpeg`, `audio/mp4` or `audio/flac`, at most 10 MB) → `{text}`, through
 *   the OpenAI-compatible `/audio/transcriptions` endpoint of STT_BASE_URL. 415 for another type,
 *   400 for an empty body, 501 `stt_unavailable` without a key, 502 `stt_failed` when the endpoint
 *   fails, 429 over 20 a minute.
 */
export function transcribeRouter(transcriber: Transcriber | undefined): Router {
  const router = Router();
  router.get("/api/v1/transcribe", (_req, res) => {
    res.json({ available: transcriber !== undefined });
  });
  const limiter = rateLimit({
    windowMs: 60_000,
    limit: PER_MINUTE,
    keyGenerator: (_req, res) => userOf(res).id,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    handler: (_req, res, next) =>
      next(new HttpError(429, "rate_limited", `at most ${PER_MINUTE} recordings a minute; retry after ${res.getHeader("Retry-After")} s`)),
  });
  router.post("/api/v1/transcribe", limiter, express.raw({ type: () => true, limit: TRANSCRIBE_MAX_BYTES }), async (req, res) => {
    const type = (req.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
    if (!TRANSCRIBABLE_TYPES.includes(type))
      throw new HttpError(415, "unsupported_media_type", `send the recording as one of ${TRANSCRIBABLE_TYPES.join(", ")} (got "${type || "no Content-Type"}")`);
    const audio = req.body as Buffer;
    if (!Buffer.isBuffer(audio) || audio.length === 0) throw new HttpError(400, "invalid_body", "the body is empty: send the recording's audio");
    if (!transcriber)
      throw new HttpError(501, "stt_unavailable", "speech input needs STT_API_KEY (an OpenAI-compatible /audio/transcriptions endpoint) on the server");
    const stop = new AbortController();
    res.on("close", () => stop.abort());
    const timer = setTimeout(() => stop.abort(new Error("timeout")), TIMEOUT_MS);
    try {
      res.json({ text: await transcriber.transcribe(audio, type, stop.signal) });
    } catch (err) {
      // Its own time ran out: said as the endpoint's failure. The client gone: nobody to tell.
      if (stop.signal.aborted && (stop.signal.reason as Error)?.message === "timeout")
        throw new HttpError(502, "stt_failed", `the transcription endpoint did not answer within ${TIMEOUT_MS / 1000} s`);
      if (stop.signal.aborted) return;
      throw err;
    } finally {
      clearTimeout(timer);
    }
  });
  return router;
}
