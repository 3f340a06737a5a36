import type { SpeechRequest, SpeechSynthesizer } from "../../ports/models.js";
import { fakePcm } from "./fake-servers.js";

/** What the scripted synthesizer does for one sentence. */
export interface SpeechStep {
  latencyMs?: number;
  error?: Error;
  /** PCM bytes (default 2 per character). */
  bytes?: number;
  /** Goes on after an abort, as a local engine that does not hear it would. */
  ignoreSignal?: boolean;
}

/**
 * An in-process speech synthesizer for graph tests: deterministic PCM (`fakePcm`), streamed in
 * 1000-byte pieces after an abortable latency, with injected errors; records every request.
 */
export class FakeSpeech implements SpeechSynthesizer {
  readonly provider = "fake";
  readonly model = "fake-1";
  readonly speed = 1;
  readonly requests: SpeechRequest[] = [];
  constructor(private readonly step: (req: SpeechRequest) => SpeechStep = () => ({})) {}

  async *synthesize(req: SpeechRequest): AsyncIterable<Uint8Array> {
    this.requests.push(req);
    const s = this.step(req);
    if (s.latencyMs) {
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(resolve, s.latencyMs);
        if (!s.ignoreSignal) req.signal.addEventListener("abort", () => (clearTimeout(t), reject(req.signal.reason)), { once: true });
      });
    }
    if (s.error) throw s.error;
    const pcm = fakePcm(req.text, s.bytes);
    for (let at = 0; at < pcm.length; at += 1_000) yield pcm.subarray(at, at + 1_000);
  }
}
