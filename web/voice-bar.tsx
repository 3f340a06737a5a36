import { useEffect, useRef } from "preact/hooks";
import type { VoicePlayer, VoiceView } from "./voice-player.js";

/** The voice control bar: LIVE badge, waveform, play/pause, volume, download. */
export function VoiceBar({ player, view, downloadUrl }: { player: VoicePlayer; view: VoiceView; downloadUrl?: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const active = view.playing && !view.paused;

  // The waveform animates only while audio plays.
  useEffect(() => {
    if (!active || !canvas.current || !player.analyser) return;
    const c = canvas.current.getContext("2d")!;
    const data = new Uint8Array(player.analyser.frequencyBinCount);
    let frame = 0;
    const draw = () => {
      player.analyser!.getByteFrequencyData(data);
      const { width, height } = canvas.current!;
      c.clearRect(0, 0, width, height);
      c.fillStyle = "#dc2626";
      const bars = 64;
      const w = width / bars;
      for (let i = 0; i < bars; i++) {
        const h = Math.max(2, (data[i] / 255) * height);
        c.fillRect(i * w + 1, (height - h) / 2, w - 2, h);
      }
      frame = requestAnimationFrame(draw);
    };
    frame = requestAnimationFrame(draw);
    return () => cancelAnimationFrame(frame);
  }, [active, player]);

  return (
    <div class="voice-bar" aria-label="Röstuppspelning">
      {active && <span class="live">LIVE</span>}
      <button type="button" onClick={() => player.togglePause()} aria-label={view.paused ? "Spela" : "Pausa"}>
        {view.paused ? "▶" : "⏸"}
      </button>
      <canvas ref={canvas} width={256} height={32} aria-hidden="true" class={active ? "wave active" : "wave"} />
      <span class="now" aria-live="polite">
        {view.speaker ? `Talar: ${view.speaker}` : view.playing ? "" : "Tyst"}
      </span>
      <label>
        Volym
        <input type="range" min={0} max={1} step={0.05} defaultValue="1" onInput={(e) => player.setVolume(Number((e.target as HTMLInputElement).value))} />
      </label>
      {downloadUrl ? (
        <a href={downloadUrl} download>
          Ladda ner ljudet
        </a>
      ) : (
        <span class="note">Ljudet kan laddas ner när debatten är klar</span>
      )}
    </div>
  );
}
