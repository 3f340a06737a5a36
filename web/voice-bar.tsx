import { useEffect, useRef } from "preact/hooks";
import type { VoicePlayer, VoiceView } from "./voice-player.js";
import { useT } from "./i18n.js";
import { Icon } from "./icons.js";

/** The voice control bar: LIVE badge, play/pause, stop, waveform, volume, download. */
export function VoiceBar({ player, view, downloadUrl }: { player: VoicePlayer; view: VoiceView; downloadUrl?: string }) {
  const t = useT();
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
    return () => {
      cancelAnimationFrame(frame);
      // Stopped or paused, the wave lies flat: no frozen bars from the last sound.
      const { width, height } = canvas.current ?? { width: 0, height: 0 };
      c.clearRect(0, 0, width, height);
    };
  }, [active, player]);

  return (
    // While audio plays the bar stays at the window's top (sticky), so its pause and Stop are at hand however far the text has gone.
    <div class={view.playing ? "voice-bar playing" : "voice-bar"} role="group" aria-label={t("voice.label")}>
      {active && <span class="live">{t("voice.live")}</span>}
      {/* The debate's text may have ended long before its audio: the audio stops here too, not only pauses. */}
      {view.playing && (
        <>
          <button type="button" onClick={() => player.togglePause()} aria-label={view.paused ? t("voice.play") : t("voice.pause")}>
            <Icon name={view.paused ? "play" : "pause"} />
          </button>
          <button type="button" class="voice-stop" onClick={() => player.stop()}>
            {t("voice.stop")}
          </button>
        </>
      )}
      <canvas ref={canvas} width={256} height={32} aria-hidden="true" class={active ? "wave active" : "wave"} />
      <span class="now" aria-live="polite">
        {view.speaker ? t("voice.speaking", { speaker: view.speaker }) : view.playing ? "" : t("voice.silent")}
      </span>
      {/* Outside the live region: a screen reader would read every sentence over the audio. */}
      {view.sentence && <q class="sentence">{view.sentence}</q>}
      <label>
        {t("voice.volume")}
        <input type="range" min={0} max={1} step={0.05} defaultValue="1" onInput={(e) => player.setVolume(Number((e.target as HTMLInputElement).value))} />
      </label>
      {downloadUrl ? (
        <a href={downloadUrl} download>
          {t("voice.download")}
        </a>
      ) : (
        <span class="note">{t("voice.downloadLater")}</span>
      )}
    </div>
  );
}
