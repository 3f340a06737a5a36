import { inWords } from "./api-error.js";
import { useEffect, useState } from "preact/hooks";
import type { FormatTemplates } from "../state/templates.js";
import { ADMIN_GROUPS, type AdminGroup } from "./formats/index.js";
import { TokenForm } from "./token-form.js";
import { api } from "./admin-api.js";
import { VoiceSettingsForm } from "./admin-voice.js";
import { useT } from "./i18n.js";
import type { Lang, MessageKey } from "../state/messages/index.js";

/** A prompt as `GET /api/v1/admin/prompts` lists it. */
interface PromptView {
  key: string;
  description: string;
  placeholders: { name: string; required: boolean; description: string }[];
  default: string;
  override: string | null;
  effective: string;
}

const TOKEN_KEY = "debatt-admin-token";

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
        {t("admin.title")}
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
