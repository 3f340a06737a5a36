import { useEffect, useRef, useState } from "preact/hooks";
import { inWords, readApi } from "./api-error.js";
import { useT } from "./i18n.js";
import { Icon } from "./icons.js";

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
        <Icon name={recording ? "stop" : "mic"} size="18" />
      </button>
      {status && (
        <p class="note mic-status" role="status">
          {status}
        </p>
      )}
    </>
  );
}
