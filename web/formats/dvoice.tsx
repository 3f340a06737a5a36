import { FORMATS } from "../../state/formats.js";
import { audioUrl } from "../api-client.js";
import { useT } from "../i18n.js";
import { VoiceBar } from "../voice-bar.js";
import type { FormatView, RunViewProps } from "./format-view.js";
import { DebateView, debaters, replayDebate } from "./debate.js";

/** A stored /dvoice debate's audio: a player and its exports (kept for the most recent debates). */
function StoredAudio({ id }: { id: string }) {
  const t = useT();
  return (
    <div class="voice-bar stored" role="group" aria-label={t("voice.label")}>
      <audio controls preload="none" src={audioUrl(id, "wav")} />
      <a href={audioUrl(id, "wav")} download>
        {t("voice.download")} (WAV)
      </a>
      <a href={audioUrl(id, "mp3")} download>
        MP3
      </a>
    </div>
  );
}

/** A spoken debate: the voice bar while it plays live, or its stored audio, above the debate's arena. */
function VoiceDebateView(props: RunViewProps) {
  const { a, player, voice, storedAudio } = props;
  return (
    <>
      {player && a.debateId && (
        <VoiceBar player={player} view={voice ?? { playing: false, paused: false }} downloadUrl={a.done ? audioUrl(a.debateId, "wav") : undefined} />
      )}
      {storedAudio && a.voice && a.debateId && <StoredAudio id={a.debateId} />}
      <DebateView {...props} />
    </>
  );
}

/** /dvoice, a spoken debate: /debatt's arena (see `debate.tsx`) with its audio. */
export const DVOICE_VIEW = {
  label: FORMATS.dvoice.command,
  // Its prompts are the debate's.
  adminGroup: "debate",
  spoken: true,
  hintOptions: "[--paced] ",
  replay: replayDebate,
  panel: null,
  participants: debaters,
  View: VoiceDebateView,
} satisfies FormatView;
