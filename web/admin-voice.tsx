import { useEffect, useState } from "preact/hooks";
import { OPENAI_VOICES } from "../state/audio-format.js";
import { OPENING_WORDS } from "../state/voice-opening.js";
import { inWords } from "./api-error.js";
import { api } from "./admin-api.js";
import { useT } from "./i18n.js";
import type { MessageKey } from "../state/messages/index.js";

/** The spoken rounds, as the voice settings name their word limits. */
const SPOKEN_ROUNDS = ["introduction", "argument", "deepening"] as const;
type SpokenRound = (typeof SPOKEN_ROUNDS)[number];

/** Voice settings as the admin API answers them (api_key masked). */
interface VoiceSettingsView {
  api_key: string;
  api_key_set: boolean;
  api_base: string;
  model: "tts-1" | "tts-1-hd";
  speed: number;
  voice_map: Record<string, string>;
  instructions: Record<string, string>;
  /** Whether a spoken debate's text waits for its audio; unset: the voice's own way. */
  pacing?: "off" | "paced";
  /** What of each answer is spoken; unset: the voice's own way (older servers never send it). */
  spoken?: "whole" | "opening";
  /** The spoken rounds' word limits (older servers do not send them). */
  word_limits?: Record<SpokenRound, number>;
  /** The server's roster with each one's voice (read-only; older servers do not send it). */
  participants?: { key: string; display: string; voice: string }[];
}

/** The admin page's /dvoice voice settings: the speech endpoint and key, the model, speed, pacing, what is spoken of each answer, each round's word limit and each participant's voice. */
export function VoiceSettingsForm({ token }: { token: string }) {
  const t = useT();
  const [settings, setSettings] = useState<VoiceSettingsView | null>(null);
  /** The voices picked on this page since the settings were loaded or saved. */
  const [picked, setPicked] = useState<Record<string, string>>({});
  const [key, setKey] = useState("");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => {
    api<VoiceSettingsView>(token, "GET", "/debate/voice-settings").then(setSettings, (e: Error) => setMessage({ ok: false, text: inWords(t, e) }));
  }, [token]);
  if (!settings) return message ? <p class="error">{message.text}</p> : null;
  const set = (patch: Partial<VoiceSettingsView>) => setSettings({ ...settings, ...patch });
  const save = async (e: Event) => {
    e.preventDefault();
    const { api_key: _masked, api_key_set: _set, participants: _roster, ...rest } = settings;
    try {
      const next = await api<VoiceSettingsView>(token, "PUT", "/debate/voice-settings", key ? { ...rest, api_key: key } : rest);
      setSettings(next);
      setPicked({});
      setKey("");
      setMessage({ ok: true, text: "voiceAdmin.saved" });
    } catch (err) {
      setMessage({ ok: false, text: inWords(t, err) });
    }
  };
  return (
    <form class="voice-settings" onSubmit={save} aria-label={t("voiceAdmin.title")}>
      <h2>{t("voiceAdmin.title")}</h2>
      <label>
        {t("voiceAdmin.apiKey")} {settings.api_key_set && <span class="note">{t("voiceAdmin.keyKept", { key: settings.api_key })}</span>}
        <input type="password" autocomplete="off" value={key} onInput={(e) => setKey((e.target as HTMLInputElement).value)} />
      </label>
      <label>
        {t("voiceAdmin.apiBase")}
        <input type="url" value={settings.api_base} onInput={(e) => set({ api_base: (e.target as HTMLInputElement).value })} />
      </label>
      <label>
        {t("voiceAdmin.model")}
        <select value={settings.model} onChange={(e) => set({ model: (e.target as HTMLSelectElement).value as VoiceSettingsView["model"] })}>
          <option value="tts-1">tts-1</option>
          <option value="tts-1-hd">tts-1-hd</option>
        </select>
      </label>
      <label>
        {t("voiceAdmin.speed", { speed: settings.speed })}
        <input
          type="range"
          min={0.25}
          max={4}
          step={0.05}
          value={settings.speed}
          onInput={(e) => set({ speed: Number((e.target as HTMLInputElement).value) })}
        />
      </label>
      {/* Unset is a choice of its own: the local voice paces and speaks openings, a speech API neither. */}
      <UnsetChoice
        label={t("voiceAdmin.pacing")}
        value={settings.pacing}
        unset={t("voiceAdmin.pacingDefault")}
        options={[
          ["paced", t("voiceAdmin.pacingPaced")],
          ["off", t("voiceAdmin.pacingOff")],
        ]}
        onChange={(pacing) => set({ pacing })}
      />
      <UnsetChoice
        label={t("voiceAdmin.spoken")}
        value={settings.spoken}
        unset={t("voiceAdmin.spokenDefault")}
        options={[
          ["whole", t("voiceAdmin.spokenWhole")],
          ["opening", t("voiceAdmin.spokenOpening", { words: OPENING_WORDS })],
        ]}
        onChange={(spoken) => set({ spoken })}
      />
      {settings.word_limits && (
        <fieldset class="word-limits">
          <legend>{t("voiceAdmin.wordLimits")}</legend>
          {SPOKEN_ROUNDS.map((round) => (
            <label key={round}>
              {t(`round.${round}`)}
              <input
                type="number"
                min={20}
                max={600}
                value={settings.word_limits![round]}
                onInput={(e) => set({ word_limits: { ...settings.word_limits!, [round]: Number((e.target as HTMLInputElement).value) } })}
              />
            </label>
          ))}
        </fieldset>
      )}
      <fieldset class="voices">
        <legend>{t("voiceAdmin.perParticipant")}</legend>
        {/* The server's roster (a server that does not send it: the names the voice map has). */}
        {/* Each shows the voice it speaks with (the server's answer) until the admin picks another here. */}
        {(settings.participants?.map((p) => [p.display, picked[p.display] ?? p.voice] as const) ?? Object.entries(settings.voice_map)).map(([name, voice]) => (
          <label key={name}>
            {name}
            <select
              value={voice}
              onChange={(e) => {
                const chosen = (e.target as HTMLSelectElement).value;
                setPicked({ ...picked, [name]: chosen });
                set({ voice_map: { ...settings.voice_map, [name]: chosen } });
              }}
            >
              {[...new Set([voice, ...OPENAI_VOICES])].map((v) => (
                <option value={v}>{v}</option>
              ))}
            </select>
          </label>
        ))}
      </fieldset>
      <button type="submit">{t("voiceAdmin.save")}</button>
      {message && (
        <p class={message.ok ? "ok" : "error"} role={message.ok ? "status" : "alert"}>
          {message.ok ? t(message.text as MessageKey) : message.text}
        </p>
      )}
    </form>
  );
}

/** A select whose first option leaves the setting unset (the voice's own way), then its values, each with its label. */
function UnsetChoice<V extends string>(props: {
  label: string;
  value: V | undefined;
  unset: string;
  options: [V, string][];
  onChange: (value: V | undefined) => void;
}) {
  return (
    <label>
      {props.label}
      <select value={props.value ?? ""} onChange={(e) => props.onChange(((e.target as HTMLSelectElement).value || undefined) as V | undefined)}>
        <option value="">{props.unset}</option>
        {props.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </label>
  );
}
