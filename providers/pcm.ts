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
 * Streaming linear-interpolation resampler for 16-bit mono PCM. Good enough for speech; it keeps
 * the last input sample between pushes so chunk boundaries leave no clicks.
 */
export class LinearResampler {
  private readonly step: number;
  /** Position of the next output sample, in input samples, relative to `previous`. */
  private position = 0;
  private previous: number | undefined;

  constructor(from: number, to: number) {
    this.step = from / to;
  }

  /** Resamples the next input samples; returns the output samples they complete. */
  push(input: Int16Array): Int16Array {
    if (input.length === 0) return new Int16Array(0);
    // Sample k of [previous, ...input], so interpolation can span the chunk boundary.
    const offset = this.previous === undefined ? 0 : 1;
    const at = (k: number) => (k < offset ? this.previous! : input[k - offset]);
    const length = input.length + offset;
    const out = new Int16Array(Math.ceil((length - this.position) / this.step) + 1);
    let n = 0;
    let pos = this.position;
    while (pos + 1 < length) {
      const i = Math.floor(pos);
      const frac = pos - i;
      out[n++] = Math.round(at(i) * (1 - frac) + at(i + 1) * frac);
      pos += this.step;
    }
    this.position = pos - (length - 1);
    this.previous = input[input.length - 1];
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
