import { inWords, readApi } from "./api-error.js";
import { useEffect, useState } from "preact/hooks";
import type { FormatTemplates } from "../state/templates.js";
import { ADMIN_GROUPS, type AdminGroup } from "./formats/index.js";
import { TokenForm } from "./token-form.js";
import { useT } from "./i18n.js";
import type { Lang, MessageKey } from "../state/messages/index.js";
import { OPENAI_VOICES } from "../state/audio-format.js";

/** A prompt as `GET /api/v1/admin/prompts` lists it. */
interface PromptView {
  key: string;
  description: string;
  placeholders: { name: string; required: boolean; description: string }[];
  default: string;
  override: string | null;
  effective: string;
}

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
  /** Whether a spoken debate's text waits for its audio (older servers do not send it). */
  pacing?: "off" | "paced";
  /** The spoken rounds' word limits (older servers do not send them). */
  word_limits?: Record<SpokenRound, number>;
  /** The server's roster with each one's voice (read-only; older servers do not send it). */
  participants?: { key: string; display: string; voice: string }[];
}

const TOKEN_KEY = "debatt-admin-token";

/** Calls the admin API with the session's token; throws an ApiError for a refusal. */
async function api<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`/api/v1/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await readApi<T>(res)) as T;
}

/** The prompt groups, in the order the page shows them (the formats', then the shared), by the first part of the key; then `other`. */
const GROUPS: readonly AdminGroup[] = [...ADMIN_GROUPS, "other"];

/** Whether a prompt matches a search (its key, description or text, case-insensitively). */
const matches = (p: PromptView, query: string) => [p.key, p.description, p.effective].some((x) => x.toLowerCase().includes(query));

/**
 * The admin page: the prompt registry (grouped by format, searchable, each group collapsed until
 * opened or searched) and the /dvoice voice settings, behind the admin token. A server without
 * ADMIN_TOKEN says so, and how to turn admin on, instead of asking for a token.
 */
export function AdminPage({ enabled }: { enabled: boolean }) {
  const t = useT();
  const [token, setToken] = useState(() => sessionStorage.getItem(TOKEN_KEY) ?? "");
  const [prompts, setPrompts] = useState<PromptView[] | null>(null);
  const [query, setQuery] = useState("");
  const [error, setError] = useState("");

  useEffect(() => {
    if (!token || !enabled) return;
    api<{ prompts: PromptView[] }>(token, "GET", "/prompts").then(
      (r) => {
        setPrompts(r.prompts);
        setError("");
        sessionStorage.setItem(TOKEN_KEY, token);
      },
      (e: Error) => {
        setPrompts(null);
        setError(inWords(t, e));
      },
    );
  }, [token, enabled]);

  /** Signed in: the token opened the admin API. */
  const signedIn = prompts !== null && token !== "";
  const signOut = () => {
    sessionStorage.removeItem(TOKEN_KEY);
    setToken("");
    setPrompts(null);
    setQuery("");
    setError("");
  };

  const q = query.trim().toLowerCase();
  const shown = prompts?.filter((p) => !q || matches(p, q)) ?? [];
  const groupOf = (key: string) => GROUPS.find((g) => g === key.split(".")[0]) ?? "other";
  return (
    <main class="admin">
      <h1>
        {t("admin.title")} <a href="#">{t("admin.back")}</a>
        {signedIn && (
          <button type="button" class="link sign-out" onClick={signOut}>
            {t("app.signOut")}
          </button>
        )}
      </h1>
      {!enabled ? (
        <div class="usage" role="status">
          <p>{t("admin.disabled")}</p>
          <p>{t("admin.enable")}</p>
        </div>
      ) : (
        !signedIn && <TokenForm id="admin-token" label={t("admin.token")} initial={token} onSubmit={setToken} />
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {signedIn && (
        <>
          <VoiceSettingsForm token={token} />
          <TemplatesForm token={token} />
          <section aria-label={t("admin.prompts")}>
            <h2>{t("admin.prompts")}</h2>
            <label class="search">
              {t("admin.search")}
              <input type="search" value={query} onInput={(e) => setQuery((e.target as HTMLInputElement).value)} />
            </label>
            {q && shown.length === 0 && <p class="note">{t("admin.noMatch", { query })}</p>}
            {GROUPS.map((g) => {
              const inGroup = shown.filter((p) => groupOf(p.key) === g);
              if (inGroup.length === 0) return null;
              return (
                <details class="prompt-group" data-group={g} open={q !== ""} key={`${g}-${q !== ""}`}>
                  <summary>
                    {t(`admin.group.${g}`)} <span class="note">{t("admin.count", { n: inGroup.length })}</span>
                  </summary>
                  {inGroup.map((p) => (
                    <PromptEditor key={p.key} token={token} prompt={p} onSaved={(next) => setPrompts(prompts.map((x) => (x.key === next.key ? next : x)))} />
                  ))}
                </details>
              );
            })}
          </section>
        </>
      )}
    </main>
  );
}

function PromptEditor({ token, prompt, onSaved }: { token: string; prompt: PromptView; onSaved: (p: PromptView) => void }) {
  const t = useT();
  const [text, setText] = useState(prompt.effective);
  // A confirmation is kept as its key, so it follows a language switch; an error is the API's text.
  const [message, setMessage] = useState<{ ok: boolean; text: string | MessageKey } | null>(null);
  const id = `prompt-${prompt.key.replace(/\W/g, "-")}`;
  const save = async (method: "PUT" | "DELETE") => {
    try {
      const next = await api<PromptView>(token, method, `/prompts/${encodeURIComponent(prompt.key)}`, method === "PUT" ? { text } : undefined);
      onSaved(next);
      setText(next.effective);
      setMessage({ ok: true, text: method === "PUT" ? "admin.saved" : "admin.reverted" });
    } catch (e) {
      setMessage({ ok: false, text: inWords(t, e) });
    }
  };
  return (
    <article class="prompt" data-key={prompt.key}>
      <label for={id}>
        <code>{prompt.key}</code> {prompt.override !== null && <span class="badge">{t("admin.changed")}</span>}
      </label>
      <p class="note">{prompt.description}</p>
      <p class="note">
        {t("admin.placeholders")}{" "}
        {prompt.placeholders.map((p) => (
          <code title={p.description}>
            {`{${p.name}}`}
            {p.required ? "*" : ""}{" "}
          </code>
        ))}
      </p>
      <textarea id={id} rows={6} value={text} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />
      <div class="actions">
        <button type="button" onClick={() => save("PUT")}>
          {t("admin.save")}
        </button>
        <button type="button" onClick={() => save("DELETE")} disabled={prompt.override === null}>
          {t("admin.revert")}
        </button>
      </div>
      {message && (
        <p class={message.ok ? "ok" : "error"} role={message.ok ? "status" : "alert"}>
          {message.ok ? t(message.text as MessageKey) : message.text}
        </p>
      )}
    </article>
  );
}

function VoiceSettingsForm({ token }: { token: string }) {
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
      {settings.pacing && (
        <label class="check">
          <input
            type="checkbox"
            checked={settings.pacing === "paced"}
            onChange={(e) => set({ pacing: (e.target as HTMLInputElement).checked ? "paced" : "off" })}
          />
          {t("voiceAdmin.paced")}
        </label>
      )}
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

/** What `GET /api/v1/admin/templates` answers. */
interface TemplatesView {
  overrides: Partial<Record<Lang, Partial<Record<string, string[]>>>>;
  languages: Record<Lang, FormatTemplates[]>;
  defaults: Record<Lang, FormatTemplates[]>;
}

/**
 * The suggested topics of an empty chat, per language: one text box per format, a suggestion per
 * line. Saving keeps as the admins' own only the formats that differ from the defaults.
 */
function TemplatesForm({ token }: { token: string }) {
  const t = useT();
  const [view, setView] = useState<TemplatesView | null>(null);
  const [lang, setLang] = useState<Lang>("en");
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const show = (next: TemplatesView, l: Lang) => {
    setView(next);
    setTexts(Object.fromEntries(next.languages[l].map((f) => [f.format, f.items.join("\n")])));
  };
  useEffect(() => {
    api<TemplatesView>(token, "GET", "/templates").then(
      (v) => show(v, lang),
      (e: Error) => setMessage({ ok: false, text: inWords(t, e) }),
    );
  }, [token]);
  if (!view) return message ? <p class="error">{message.text}</p> : null;
  const put = async (overrides: TemplatesView["overrides"]) => {
    try {
      show(await api<TemplatesView>(token, "PUT", "/templates", overrides), lang);
      setMessage({ ok: true, text: t("admin.templates.saved") });
    } catch (err) {
      setMessage({ ok: false, text: inWords(t, err) });
    }
  };
  const save = (e: Event) => {
    e.preventDefault();
    const defaults = new Map<string, string>(view.defaults[lang].map((f) => [f.format, f.items.join("\n")]));
    const own = Object.fromEntries(
      Object.entries(texts)
        .map(
          ([format, text]) =>
            [
              format,
              text
                .split("\n")
                .map((line) => line.trim())
                .filter(Boolean)
                .join("\n"),
            ] as const,
        )
        .filter(([format, text]) => text !== defaults.get(format))
        .map(([format, text]) => [format, text ? text.split("\n") : []]),
    );
    void put({ ...view.overrides, [lang]: own });
  };
  const { [lang]: _dropped, ...others } = view.overrides;
  return (
    <form class="templates-admin" onSubmit={save} aria-label={t("admin.templates.title")}>
      <h2>{t("admin.templates.title")}</h2>
      <p class="note">{t("admin.templates.intro")}</p>
      <label>
        {t("admin.templates.language")}{" "}
        <select
          value={lang}
          onChange={(e) => {
            const next = (e.target as HTMLSelectElement).value as Lang;
            setLang(next);
            show(view, next);
          }}
        >
          <option value="en">English</option>
          <option value="sv">Svenska</option>
        </select>
      </label>
      {view.languages[lang].map((f) => (
        <label key={`${lang}|${f.format}`} class="template-format">
          <code>{f.command}</code> {f.custom && <span class="note">({t("admin.templates.custom")})</span>}
          <textarea rows={3} value={texts[f.format] ?? ""} onInput={(e) => setTexts({ ...texts, [f.format]: (e.target as HTMLTextAreaElement).value })} />
        </label>
      ))}
      <button type="submit">{t("admin.templates.save")}</button>{" "}
      <button type="button" class="secondary" onClick={() => void put(others)}>
        {t("admin.templates.reset")}
      </button>
      {message && (
        <p class={message.ok ? "ok" : "error"} role={message.ok ? "status" : "alert"}>
          {message.text}
        </p>
      )}
    </form>
  );
}
