import { inWords, readApi } from "./api-error.js";
import { LOCALES } from "../state/messages/index.js";

/** How the reader writes dates: the browser's own locale of the page's language (en-US, en-GB…), else the language's. */
export const dateLocale = (lang: keyof typeof LOCALES) => navigator.languages.find((l) => l.toLowerCase().startsWith(lang)) ?? LOCALES[lang];
import { useContext, useEffect, useState } from "preact/hooks";
import type { RunKind } from "../state/formats.js";
import { viewOf } from "./formats/index.js";
import { LangContext, useT } from "./i18n.js";

/** A conversation as `GET /api/v1/conversations` lists it. */
interface ConversationItem {
  id: string;
  title: string | null;
  /** Its format (`chat` for the chat's). */
  format: RunKind;
  createdAt: string;
  updatedAt: string;
}

/** Calls the history API; throws an ApiError for a refusal. */
export async function historyApi<T>(method: string, path: string): Promise<T | undefined> {
  return readApi<T>(await fetch(`/api/v1/conversations${path}`, { method }));
}

/** `#history`: earlier conversations, newest first, twenty at a time; each opens or is deleted. */
export function HistoryPage() {
  const t = useT();
  const lang = useContext(LangContext);
  const [items, setItems] = useState<ConversationItem[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState("");

  async function load(cursor?: string) {
    setLoading(true);
    try {
      const page = (await historyApi<{ conversations: ConversationItem[]; nextCursor: string | null }>(
        "GET",
        `?limit=20${cursor ? `&cursor=${cursor}` : ""}`,
      ))!;
      setItems((all) => (cursor ? [...all, ...page.conversations] : page.conversations));
      setNext(page.nextCursor);
      setError("");
    } catch (err) {
      setError(inWords(t, err));
    } finally {
      setLoading(false);
    }
  }

  async function remove(c: ConversationItem) {
    if (!confirm(t("history.confirmDelete", { title: c.title || c.id }))) return;
    try {
      await historyApi("DELETE", `/${encodeURIComponent(c.id)}`);
      setItems((all) => all.filter((i) => i.id !== c.id));
    } catch (err) {
      setError(inWords(t, err));
    }
  }

  useEffect(() => void load(), []);

  return (
    <main class="history-page">
      <h1>{t("history.title")}</h1>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {!loading && items.length === 0 && !error && <p class="note">{t("history.empty")}</p>}
      <ul class="conversations">
        {items.map((c) => (
          <li key={c.id}>
            {/* The title and when it was started wrap beside Delete, which keeps its place at the row's end. */}
            <div class="conversation-name">
              <a href={`#c/${encodeURIComponent(c.id)}`}>{c.title || t("history.untitled")}</a>
              {/* When it was started: the list is in that order (newest first), not by its last activity. */}
              <span class="note">
                {c.format === "chat" ? t("history.chat") : viewOf(c.format).label} ·{" "}
                <time dateTime={c.createdAt}>{new Date(c.createdAt).toLocaleString(dateLocale(lang))}</time>
              </span>
            </div>
            <button type="button" aria-label={t("history.deleteLabel", { title: c.title || c.id })} onClick={() => void remove(c)}>
              {t("history.delete")}
            </button>
          </li>
        ))}
      </ul>
      {next && (
        <button type="button" disabled={loading} onClick={() => void load(next)}>
          {t("history.more")}
        </button>
      )}
    </main>
  );
}
