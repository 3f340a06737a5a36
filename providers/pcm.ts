import { PCM } from "../state/voice.js";

/** A WAV header for `dataBytes` of PCM in the voice format (24 kHz, 16-bit, mono). */
export function wavHeader(dataBytes: number, format: { sampleRate: number; bitDepth: number; channels: number } = PCM): Buffer {
  const h = Buffer.alloc(44);
  const blockAlign = (format.channels * format.bitDepth) / 8;
  h.write("RIFF", 0);
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write("WAVE", 8);
  h.write("fmt ", 12);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(format.channels, 22);
  h.writeUInt32LE(format.sampleRate, 24);
  h.writeUInt32LE(format.sampleRate * blockAlign, 28);
  h.writeUInt16LE(blockAlign, 32);
  h.writeUInt16LE(format.bitDepth, 34);
  h.write("data", 36);
  h.writeUInt32LE(dataBytes, 40);
  return h;
}

/** The format of a WAV stream and where its samples start; undefined until enough bytes arrived. */
export interface WavFormat {
  sampleRate: number;
  bitDepth: number;
  channels: number;
  dataOffset: number;
}

/** Parses a WAV header (RIFF, `fmt `, then `data`), skipping other chunks. */
export function parseWavHeader(bytes: Buffer): WavFormat | undefined {
  if (bytes.length < 12) return undefined;
  if (bytes.toString("ascii", 0, 4) !== "RIFF" || bytes.toString("ascii", 8, 12) !== "WAVE") {
    throw new Error("not a WAV stream");
  }
  let offset = 12;
  let format: Omit<WavFormat, "dataOffset"> | undefined;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString("ascii", offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    if (id === "data") {
      if (!format) throw new Error("WAV data before its fmt chunk");
      return { ...format, dataOffset: offset + 8 };
    }
    if (offset + 8 + size > bytes.length) return undefined;
    if (id === "fmt ") {
      format = { channels: bytes.readUInt16LE(offset + 10), sampleRate: bytes.readUInt32LE(offset + 12), bitDepth: bytes.readUInt16LE(offset + 22) };
    }
    offset += 8 + size + (size % 2);
  }
  return undefined;
}

/**
 * Streaming linear-interpolation resampler for 16-bit mono PCM. Good enough for speech. Positions
 * are computed from whole sample counts, so any chunking of the input gives the same output, and
 * the last input sample is kept so interpolation spans chunk boundaries without clicks.
 */
export class LinearResampler {
  /** Output samples produced so far. */
  private produced = 0;
  /** Input samples received before the current chunk. */
  private consumed = 0;
  private previous = 0;

  constructor(
    private readonly from: number,
    private readonly to: number,
  ) {}

  /** Resamples the next input samples; returns the output samples they complete. */
  push(input: Int16Array): Int16Array {
    const end = this.consumed + input.length;
    // Global input sample g: the kept previous one, or one of this chunk.
    const at = (g: number) => (g < this.consumed ? this.previous : input[g - this.consumed]);
    const out = new Int16Array(Math.ceil((input.length * this.to) / this.from) + 2);
    let n = 0;
    for (;;) {
      const num = this.produced * this.from;
      const i = Math.floor(num / this.to);
      if (i + 1 >= end) break;
      const frac = (num % this.to) / this.to;
      out[n++] = Math.round(at(i) * (1 - frac) + at(i + 1) * frac);
      this.produced++;
    }
    if (input.length) this.previous = input[input.length - 1];
    this.consumed = end;
    return out.subarray(0, n);
  }
}

/** Little-endian 16-bit samples of a byte buffer (an odd trailing byte is left to the caller). */
export function samplesOf(bytes: Buffer): Int16Array {
  const even = bytes.length - (bytes.length % 2);
  const copy = Buffer.from(bytes.subarray(0, even));
  return new Int16Array(copy.buffer, copy.byteOffset, even / 2);
}

/** The bytes of 16-bit samples, little-endian. */
export function bytesOf(samples: Int16Array): Buffer {
  return Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
}
