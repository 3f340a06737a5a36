import { spawn } from "node:child_process";
import { Router, type Response } from "express";
import type { AudioArchive } from "../providers/audio-archive.js";
import { installed } from "../providers/installed.js";
import { wavHeader } from "../providers/pcm.js";
import { PCM } from "../state/voice.js";
import type { RunService } from "../service/run-service.js";
import { userOf } from "./auth.js";
import { HttpError } from "./errors.js";

/** MP3 encoder processes running at once, at most. */
const MAX_ENCODERS = 2;

/** An installed MP3 encoder reading raw PCM on stdin, or undefined. */
function mp3Encoder(): { command: string; args: string[] } | undefined {
  const rate = String(PCM.sampleRate);
  if (installed("ffmpeg"))
    return { command: "ffmpeg", args: ["-loglevel", "error", "-f", "s16le", "-ar", rate, "-ac", "1", "-i", "pipe:0", "-f", "mp3", "pipe:1"] };
  if (installed("lame"))
    return {
      command: "lame",
      args: ["--quiet", "-r", "-s", String(PCM.sampleRate / 1000), "--bitwidth", "16", "--signed", "--little-endian", "-m", "m", "-", "-"],
    };
  return undefined;
}

/**
 * `GET /api/v1/debates/:id/audio.wav` (and `.mp3` when ffmpeg or lame is installed): a /dvoice
 * debate's whole audio in speaking order, copied from what was streamed; TTS is never called again.
 * Only the user who started the debate gets it.
 */
export function debatesRouter(service: RunService, audio: AudioArchive | undefined): Router {
  const router = Router();
  const encoder = mp3Encoder();
  const complete = async (id: string, res: Response) => {
    // An id no debate can have, and another user's debate, are answered as a debate without audio.
    const status =
      /^[A-Za-z0-9._:-]{1,128}$/.test(id) && (await service.mayReadRun(userOf(res), id))
        ? (audio?.status(id) ?? { state: "unknown" as const })
        : { state: "unknown" as const };
    if (status.state === "unknown")
      throw new HttpError(404, "no_audio", `no audio for debate "${id}": it does not exist, was not a /dvoice debate, or was pruned`);
    if (status.state === "speaking") {
      throw new HttpError(409, "still_speaking", `debate "${id}" is still speaking; its audio is complete when the debate's stream has ended`, {
        "Retry-After": "10",
      });
    }
    return status.bytes;
  };
  router.get("/api/v1/debates/:id/audio.wav", async (req, res) => {
    const bytes = await complete(req.params.id, res);
    res.writeHead(200, {
      "Content-Type": "audio/wav",
      "Content-Length": 44 + bytes,
      "Content-Disposition": `attachment; filename="debatt-${req.params.id}.wav"`,
    });
    res.write(wavHeader(bytes));
    // A recording deleted between the check and the read (its conversation was deleted, or pruned) cuts the answer off; it never throws.
    audio!
      .read(req.params.id)
      .on("error", () => res.destroy())
      .pipe(res);
  });
  let encoding = 0;
  router.get("/api/v1/debates/:id/audio.mp3", async (req, res) => {
    // The request is checked before the server's means: an unknown debate is 404 with or without an encoder.
    await complete(req.params.id, res);
    if (!encoder)
      throw new HttpError(501, "no_mp3_encoder", "MP3 export needs ffmpeg or lame on the server (apt-get install ffmpeg); the .wav export always works");
    // Each export is an encoder process: a few at once, the rest are asked to come back.
    if (encoding >= MAX_ENCODERS)
      throw new HttpError(503, "encoder_busy", `${MAX_ENCODERS} MP3 exports are being encoded; retry shortly, or take the .wav export`, { "Retry-After": "5" });
    encoding++;
    res.on("close", () => encoding--);
    encodeMp3(encoder, audio!, req.params.id, res);
  });
  return router;
}

function encodeMp3(encoder: { command: string; args: string[] }, audio: AudioArchive, id: string, res: Response): void {
  const child = spawn(encoder.command, encoder.args, { stdio: ["pipe", "pipe", "ignore"] });
  res.writeHead(200, { "Content-Type": "audio/mpeg", "Content-Disposition": `attachment; filename="debatt-${id}.mp3"` });
  // A client that leaves kills the encoder: the write into its stdin then fails, which is expected.
  child.stdin.on("error", () => res.destroy());
  audio
    .read(id)
    .on("error", () => res.destroy())
    .pipe(child.stdin);
  child.stdout.pipe(res);
  child.on("error", () => res.destroy());
  res.on("close", () => child.kill());
}
