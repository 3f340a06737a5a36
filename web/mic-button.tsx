import { useEffect, useRef, useState } from "preact/hooks";
import { inWords, readApi } from "./api-error.js";
import { useT } from "./i18n.js";

type Phase = "idle" | "recording" | "transcribing";

/**
 * The microphone: records a spoken question, has the server transcribe it (`POST
 * /api/v1/transcribe`) and hands the text to `onText` for the message box. Without speech input
 * on the server it says why when pressed.
 */
export function MicButton({ onText, disabled }: { onText: (text: string) => void; disabled: boolean }) {
  const t = useT();
  const [available, setAvailable] = useState<boolean | null>(null);
  const [phase, setPhase] = useState<Phase>("idle");
  const [status, setStatus] = useState("");
  const recorder = useRef<MediaRecorder | null>(null);

  useEffect(() => {
    fetch("/api/v1/transcribe")
      .then((res) => readApi<{ available: boolean }>(res))
      .then(
        (body) => setAvailable(body?.available ?? false),
        () => setAvailable(false),
      );
    // A recording going on when the page leaves is stopped, and its microphone let go.
    return () => recorder.current?.stream.getTracks().forEach((track) => track.stop());
  }, []);

  async function transcribe(audio: Blob) {
    setPhase("transcribing");
    setStatus(t("mic.transcribing"));
    try {
      const body = await readApi<{ text: string }>(
        await fetch("/api/v1/transcribe", { method: "POST", headers: { "content-type": audio.type || "audio/webm" }, body: audio }),
      );
      onText(body?.text ?? "");
      setStatus("");
    } catch (err) {
      setStatus(inWords(t, err));
    } finally {
      setPhase("idle");
    }
  }

  async function start() {
    if (!available) {
      setStatus(t("mic.unavailable"));
      return;
    }
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (err) {
      setStatus(t("mic.noMicrophone", { detail: (err as Error).message }));
      return;
    }
    const chunks: Blob[] = [];
    const rec = new MediaRecorder(stream, MediaRecorder.isTypeSupported("audio/webm") ? { mimeType: "audio/webm" } : undefined);
    rec.ondataavailable = (e) => e.data.size > 0 && chunks.push(e.data);
    rec.onstop = () => {
      stream.getTracks().forEach((track) => track.stop());
      recorder.current = null;
      void transcribe(new Blob(chunks, { type: rec.mimeType }));
    };
    recorder.current = rec;
    rec.start();
    setPhase("recording");
    setStatus(t("mic.recording"));
  }

  const recording = phase === "recording";
  return (
    <>
      <button
        type="button"
        class={`mic${recording ? " recording" : ""}`}
        aria-pressed={recording}
        disabled={disabled || phase === "transcribing" || available === null}
        aria-label={t(recording ? "mic.stop" : "mic.start")}
        title={t(recording ? "mic.stop" : "mic.start")}
        onClick={() => (recording ? recorder.current?.stop() : void start())}
      >
        {/* A microphone, or a square to stop; the words are its label. */}
        <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
          {recording ? (
            <rect x="6" y="6" width="12" height="12" rx="1" />
          ) : (
            <path d="M12 15a3 3 0 0 0 3-3V6a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.9V21h2v-2.1A7 7 0 0 0 19 12h-2z" />
          )}
        </svg>
      </button>
      {status && (
        <p class="note mic-status" role="status">
          {status}
        </p>
      )}
    </>
  );
}
