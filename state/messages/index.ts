import { en, type MessageKey } from "./en.js";
import { sv } from "./sv.js";

export type { MessageKey } from "./en.js";

/** The languages people can read debatt in. */
export const LANGS = ["en", "sv"] as const;
export type Lang = (typeof LANGS)[number];

/** The catalogues, by language. */
export const CATALOGUES: Record<Lang, Record<MessageKey, string>> = { en, sv };

/** A catalogue text with its `{placeholders}` filled (a missing value leaves the placeholder). */
export function translate(lang: Lang, key: MessageKey, values: Record<string, string | number> = {}): string {
  return CATALOGUES[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** A translator for one language, as the page and the terminal each make one. */
export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

/** Whether `key` is in the catalogues (a key built from data, such as `stance.concede`). */
function isMessageKey(key: string): key is MessageKey {
  return key in CATALOGUES.en;
}

/** A value from the data (a stance, a decision, a perspective…) in the reader's words, or as it came. */
export function named(t: Translate, prefix: string, value: string): string {
  const key = `${prefix}.${value}`;
  return isMessageKey(key) ? t(key) : value;
}

/** An error event in the reader's words, the server's message as the detail; undefined for a code the catalogues lack. */
export function errorWords(t: Translate, code: string, message: string): string | undefined {
  const key = `error.${code}`;
  return isMessageKey(key) ? t(key, { detail: message }) : undefined;
}

/**
 * The language to use from a list of preferences, best first (a browser's `navigator.languages`,
 * or `LANG`-style values such as `sv_SE.UTF-8`): the first that is Swedish or English, else English.
 */
export function pickLang(preferences: readonly (string | undefined)[]): Lang {
  for (const p of preferences) {
    const code = p?.toLowerCase().match(/^[a-z]{2}/)?.[0];
    if (code === "sv" || code === "en") return code;
  }
  return "en";
}
