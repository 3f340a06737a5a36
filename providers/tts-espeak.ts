import { spawn } from "node:child_process";
import type { SpeechRequest, SpeechSynthesizer } from "../ports/models.js";
import { PCM, type SpokenPart } from "../state/voice.js";
import { bytesOf, LinearResampler, parseWavHeader, samplesOf } from "./pcm.js";

/** espeak-ng voice variants standing in for the OpenAI voices, so speakers sound different. */
const VARIANTS: Record<string, string> = { alloy: "m2", echo: "m3", fable: "m1", nova: "f2", onyx: "m4", shimmer: "f3" };
const FALLBACK_VARIANTS = ["m1", "f1", "m2", "f2", "m3", "f3", "m4", "f4"];

function variantFor(voice: string): string {
  if (VARIANTS[voice]) return VARIANTS[voice];
  let h = 0;
  for (const c of voice) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return FALLBACK_VARIANTS[h % FALLBACK_VARIANTS.length];
}

/**
 * The local voice used when no speech API key is configured: Debian's `espeak-ng`, whose WAV
 * output (22.05 kHz) is resampled to the pipeline's 24 kHz PCM, so /dvoice speaks offline.
 * A missing binary fails the call with a message that says how to install it.
 */
export class EspeakSpeech implements SpeechSynthesizer {
  readonly provider = "espeak-ng";
  readonly model = "espeak-ng";
  /** Each answer's opening: a debate's whole answers spoken offline would run on for many times the debate's own length. */
  readonly speaks: SpokenPart = "opening";

  constructor(
    readonly speed = 1,
    private readonly binary = "espeak-ng",
  ) {}

  async *synthesize(request: SpeechRequest): AsyncIterable<Uint8Array> {
    const wordsPerMinute = String(Math.round(175 * this.speed));
    const child = spawn(this.binary, ["--stdout", "--stdin", "-v", `${request.language}+${variantFor(request.voice)}`, "-s", wordsPerMinute], {
      stdio: ["pipe", "pipe", "pipe"],
      signal: request.signal,
    });
    const exited = new Promise<void>((resolve, reject) => {
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("error", (err: NodeJS.ErrnoException) =>
        reject(err.code === "ENOENT" ? new Error(`${this.binary} is not installed (apt-get install espeak-ng): the local voice is unavailable`) : err),
      );
      child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${this.binary} exited with ${code}: ${stderr.trim().slice(0, 200)}`))));
    });
    exited.catch(() => {}); // observed below; a rejection before then must not go unhandled
    child.stdin.on("error", () => {}); // a child that dies early closes its stdin
    child.stdin.end(request.text);

    let header = Buffer.alloc(0);
    let resampler: LinearResampler | undefined;
    let odd: Buffer = Buffer.alloc(0);
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      let data = chunk;
      if (!resampler) {
        header = Buffer.concat([header, chunk]);
        const format = parseWavHeader(header);
        if (!format) continue;
        if (format.bitDepth !== 16 || format.channels !== 1) throw new Error(`${this.binary} produced ${format.bitDepth}-bit ${format.channels}-channel audio`);
        resampler = new LinearResampler(format.sampleRate, PCM.sampleRate);
        data = header.subarray(format.dataOffset);
      }
      const bytes = odd.length ? Buffer.concat([odd, data]) : data;
      odd = bytes.length % 2 ? bytes.subarray(bytes.length - 1) : Buffer.alloc(0);
      const out = resampler.push(samplesOf(bytes));
      if (out.length) yield bytesOf(out);
    }
    await exited;
  }
}
