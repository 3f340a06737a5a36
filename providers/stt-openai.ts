import type { Transcriber } from "../ports/models.js";
import { DebattError } from "../state/errors.js";

/** Options of the OpenAI-compatible transcription provider. */
export interface OpenAITranscriberOptions {
  apiKey: string;
  /** Base URL, e.g. `https://api.openai.com/v1` (STT_BASE_URL). */
  baseUrl: string;
  /** The model, e.g. `whisper-1` (STT_MODEL). */
  model: string;
}

/** The file name a media type is sent under (the endpoint tells formats apart by it). */
const EXTENSIONS: Record<string, string> = {
  "audio/webm": "webm",
  "audio/ogg": "ogg",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/mpeg": "mp3",
  "audio/mp4": "m4a",
  "audio/x-m4a": "m4a",
  "audio/flac": "flac",
};

/** The media types a recording may have. */
export const TRANSCRIBABLE_TYPES = Object.keys(EXTENSIONS);

/**
 * Speech-to-text through an OpenAI-compatible `POST {base}/audio/transcriptions` (multipart: the
 * file and the model), answered as JSON `{text}`. A refusal or an unreadable answer becomes an
 * `stt_failed` error with the endpoint's status and the start of what it said.
 */
export class OpenAITranscriber implements Transcriber {
  constructor(private readonly options: OpenAITranscriberOptions) {}

  async transcribe(audio: Buffer, mediaType: string, signal: AbortSignal): Promise<string> {
    const form = new FormData();
    const type = mediaType.split(";")[0].trim().toLowerCase();
    form.append("file", new Blob([new Uint8Array(audio)], { type }), `question.${EXTENSIONS[type] ?? "webm"}`);
    form.append("model", this.options.model);
    form.append("response_format", "json");
    let res: Response;
    let body: string;
    try {
      res = await fetch(`${this.options.baseUrl.replace(/\/+$/, "")}/audio/transcriptions`, {
        method: "POST",
        headers: { authorization: `Bearer ${this.options.apiKey}` },
        body: form,
        signal,
      });
      body = await res.text();
    } catch (err) {
      // Stopped by the caller (the client left, or its time ran out): the caller says why.
      if (signal.aborted) throw err;
      throw new DebattError("stt_failed", `the transcription endpoint cannot be reached: ${(err as Error).message}`);
    }
    if (!res.ok) throw new DebattError("stt_failed", `the transcription endpoint answered ${res.status}${body ? `: ${body.slice(0, 200)}` : ""}`);
    try {
      const text = (JSON.parse(body) as { text?: unknown }).text;
      if (typeof text === "string") return text.trim();
    } catch {
      // not JSON: said below
    }
    throw new DebattError("stt_failed", `the transcription endpoint's answer has no text: ${body.slice(0, 200)}`);
  }
}
