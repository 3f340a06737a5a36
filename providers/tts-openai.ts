import type { SpeechRequest, SpeechSynthesizer } from "../ports/models.js";

/** Options of the OpenAI-compatible speech provider. */
export interface OpenAISpeechOptions {
  apiKey: string;
  /** Base URL, e.g. `https://api.openai.com/v1` (TTS_BASE_URL or the admin settings). */
  baseUrl: string;
  model: string;
  speed: number;
}

/**
 * Text-to-speech through an OpenAI-compatible `POST {base}/audio/speech` with
 * `response_format: "pcm"` (24 kHz, 16-bit LE, mono), streamed as it arrives rather than buffered.
 * Requests go through Node's global fetch, whose dispatcher keeps one connection pool per origin.
 */
export class OpenAISpeech implements SpeechSynthesizer {
  readonly provider = "openai";
  readonly model: string;
  readonly speed: number;

  constructor(private readonly options: OpenAISpeechOptions) {
    this.model = options.model;
    this.speed = options.speed;
  }

  async *synthesize(request: SpeechRequest): AsyncIterable<Uint8Array> {
    const res = await fetch(`${this.options.baseUrl.replace(/\/+$/, "")}/audio/speech`, {
      method: "POST",
      headers: { authorization: `Bearer ${this.options.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: this.model,
        input: request.text,
        voice: request.voice,
        response_format: "pcm",
        speed: this.speed,
        ...(request.instructions ? { instructions: request.instructions } : {}),
      }),
      signal: request.signal,
    });
    if (!res.ok || !res.body) {
      const detail = (await res.text().catch(() => "")).slice(0, 200);
      throw new Error(`the speech endpoint answered ${res.status}${detail ? `: ${detail}` : ""}`);
    }
    yield* res.body as unknown as AsyncIterable<Uint8Array>;
  }
}
