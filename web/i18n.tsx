import { createContext } from "preact";
import { useContext } from "preact/hooks";
import { formatCount, LANGS, pickLang, translate, type Lang, type MessageKey } from "../state/messages/index.js";

/** Where the reader's choice of language is remembered. */
const STORAGE_KEY = "debatt.lang";

/** The language the page starts in: the one chosen before, else the browser's (Swedish or English). */
export function initialLang(): Lang {
  // A page opened from a file may have no storage at all.
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(STORAGE_KEY);
  } catch {
    // none: the browser's language
  }
  if ((LANGS as readonly string[]).includes(saved ?? "")) return saved as Lang;
  return pickLang(navigator.languages?.length ? navigator.languages : [navigator.language]);
}

/** Remembers the reader's choice (only a choice: the browser's language is not stored as one). */
export function rememberLang(lang: Lang): void {
  localStorage.setItem(STORAGE_KEY, lang);
}

/** The page's language. */
export const LangContext = createContext<Lang>("en");

/** A translator for the page's language: `t("composer.send")`, `t("voice.speaking", {speaker})`. */
export function useT(): (key: MessageKey, values?: Record<string, string | number>) => string {
  const lang = useContext(LangContext);
  return (key, values) => translate(lang, key, values);
}

/**
 * Counts as the page's language writes them, thousands grouped: `count(92813)` is "92,813" in
 * English, "92 813" in Swedish. For token, vote, word and run counts the page shows (pass the
 * result as a catalogue value: `t("usage.tokens", { n: count(total) })`).
 */
export function useCount(): (n: number) => string {
  const lang = useContext(LangContext);
  return (n) => formatCount(lang, n);
}

/** The language switch: each language named in itself. */
export function LangSwitch({ lang, onChange }: { lang: Lang; onChange: (lang: Lang) => void }) {
  const t = useT();
  return (
    <label class="lang-switch">
      <span class="visually-hidden">{t("app.language")}</span>
      <select value={lang} onChange={(e) => onChange((e.target as HTMLSelectElement).value as Lang)}>
        <option value="en" lang="en">
          English
        </option>
        <option value="sv" lang="sv">
          Svenska
        </option>
      </select>
    </label>
  );
}
