/** The PCM format of every voice chunk: 24 kHz, 16-bit signed little-endian, mono. */
export const PCM = { sampleRate: 24_000, bitDepth: 16, channels: 1 } as const;
/** Bytes per voice chunk: ~100 ms of audio. */
export const CHUNK_BYTES = 4_800;
/** Voices of the OpenAI-compatible speech API. */
export const OPENAI_VOICES = ["alloy", "echo", "fable", "nova", "onyx", "shimmer"] as const;
/** How long `bytes` of voice PCM play, in ms. */
export function pcmDurationMs(bytes: number): number {
  return (bytes / (PCM.sampleRate * (PCM.bitDepth / 8) * PCM.channels)) * 1000;
}
