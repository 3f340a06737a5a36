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
