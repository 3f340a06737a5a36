import { en, type MessageKey } from "./en.js";
import { sv } from "./sv.js";
import type { Reason } from "../errors.js";
import type { Usage } from "../usage.js";
import { FORMATS, type FormatId } from "../formats.js";

export type { MessageKey } from "./en.js";

/** The languages people can read debatt in. */
export const LANGS = ["en", "sv"] as const;
export type Lang = (typeof LANGS)[number];

/** The catalogues, by language. */
export const CATALOGUES: Record<Lang, Record<MessageKey, string>> = { en, sv };

/** The locale of each language, for numbers and dates. */
export const LOCALES: Record<Lang, string> = { en: "en-GB", sv: "sv-SE" };

/** Numbers as each language writes them ("2.5" in English, "2,5" in Swedish), without grouping. */
const NUMBERS = Object.fromEntries(LANGS.map((l) => [l, new Intl.NumberFormat(LOCALES[l], { maximumFractionDigits: 2, useGrouping: false })])) as Record<
  Lang,
  Intl.NumberFormat
>;
/** US dollars as each language writes them, with more decimals for the small sums model calls cost. */
function usd(lang: Lang, value: number): string {
  const digits = value === 0 || value >= 1 ? 2 : value >= 0.01 ? 4 : 6;
  return new Intl.NumberFormat(LOCALES[lang], {
    style: "currency",
    currency: "USD",
    currencyDisplay: "narrowSymbol",
    minimumFractionDigits: 2,
    maximumFractionDigits: digits,
  }).format(value);
}
/** The plural rules of each language, for `{n:one|other}`. */
const PLURALS = Object.fromEntries(LANGS.map((l) => [l, new Intl.PluralRules(LOCALES[l])])) as Record<Lang, Intl.PluralRules>;

/**
 * A catalogue text with its `{placeholders}` filled (a missing value leaves the placeholder); a
 * number is written the language's way, so round it first (see `seconds`). `{n:one|other}` is
 * the word for the number `n`: the first form for one (by the language's plural rules), the
 * second for any other count. A number named `usd…` is an amount of US dollars.
 */
export function translate(lang: Lang, key: MessageKey, values: Record<string, string | number> = {}): string {
  return CATALOGUES[lang][key].replace(/\{(\w+)(?::([^|{}]*)\|([^{}]*))?\}/g, (whole, name: string, one?: string, other?: string) => {
    if (!(name in values)) return whole;
    const value = values[name];
    if (one !== undefined) return PLURALS[lang].select(Number(value)) === "one" ? one : other!;
    if (typeof value !== "number") return value;
    // `{usd}` (and `{usd…}`) is an amount of US dollars.
    return name.startsWith("usd") ? usd(lang, value) : NUMBERS[lang].format(value);
  });
}

/** A number as the language writes it, with `digits` decimals ("0.8", "0,8"). */
export function decimal(lang: Lang, value: number, digits = 1): string {
  return new Intl.NumberFormat(LOCALES[lang], { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false }).format(value);
}

/** Whole numbers grouped as each language groups them ("92,813" in English, "92 813" in Swedish). */
const COUNTS = Object.fromEntries(LANGS.map((l) => [l, new Intl.NumberFormat(LOCALES[l], { maximumFractionDigits: 0 })])) as Record<Lang, Intl.NumberFormat>;

/**
 * A count (tokens, votes, runs, words) as the reader's language writes it, with its thousands
 * grouped: "92,813" in English, "92 813" in Swedish (a no-break space). Given to a catalogue
 * text as a value, a `{n:one|other}` form still follows it: "1" is one, any grouped number other.
 */
export function formatCount(lang: Lang, n: number): string {
  return COUNTS[lang].format(n);
}

/** A share (0–1) as a percentage with a decimal, as the language writes it ("72.5 %", "72,5 %"). */
export function percentWithDecimal(lang: Lang, share: number): string {
  return `${decimal(lang, 100 * share)} %`;
}

/** A share (0–1) as a whole percentage ("72 %"). */
export function percent(share: number): string {
  return `${Math.round(share * 100)} %`;
}

/** Milliseconds as the seconds people read, to a tenth. */
export function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
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

/**
 * An error in the reader's words: the code's sentence, with the refusal's reason worded from its
 * values, else the server's message (English) as the detail; undefined for a code the catalogues lack.
 */
export function errorWords(t: Translate, code: string, message: string, reason?: Reason): string | undefined {
  const key = `error.${code}`;
  if (!isMessageKey(key)) return undefined;
  const why = reason && `reason.${reason.key}`;
  return t(key, { detail: why && isMessageKey(why) ? t(why, reason.values) : message });
}

/**
 * /council's note on its second round, in the reader's words (the result's `note` is English):
 * every judge failed it, some did not finish it (their round-1 verdicts stand), or it was
 * skipped for want of round-1 verdicts. Undefined when the result has no note.
 */
export function councilNote(t: Translate, result: { note?: string; round2: string; verdicts: { source: string }[] }): string | undefined {
  if (!result.note) return undefined;
  if (result.round2 === "failed") return t("council.note.failed");
  if (result.round2 === "partial") return t("council.note.partial", { n: result.verdicts.filter((v) => v.source === "round1").length });
  return t("council.note.skipped");
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

/** The errors of a message that could not start a run: explained with examples (`usageHelp`), never retried as it was. */
export const USAGE_ERROR_CODES: ReadonlySet<string> = new Set(["missing_topic", "empty_message", "unknown_option"]);

/**
 * What a person is told about a message that could not start a run (a command without its topic,
 * an unknown option, an empty message): what the command needs, and examples to type, in the
 * reader's language.
 * The examples are the command's own, or (no command) those of the main formats.
 */
export function usageHelp(t: Translate, asked: string, error: { code: string; message: string; reason?: Reason }): { needs: string; examples: string[] } {
  const command = /^\s*(\/\w+)/.exec(asked)?.[1]?.toLowerCase();
  const format = command && Object.hasOwn(FORMATS, command.slice(1)) ? (command.slice(1) as FormatId) : undefined;
  // An unknown option is named, with the options the command has; a command without its topic says what it takes.
  const needs =
    error.code === "unknown_option"
      ? (errorWords(t, error.code, error.message, error.reason) ?? error.message)
      : error.code === "missing_topic" && command
        ? t(format ? `usage.needs.${FORMATS[format].takes}` : "usage.needs.topic", { command })
        : t("usage.emptyMessage");
  const shown: FormatId[] = format ? [format] : ["debatt", "compare", "vote"];
  return { needs, examples: shown.map((f) => `${FORMATS[f].command} ${t(`example.${f === "dvoice" ? "debatt" : f}`)}`) };
}

/** A cost in the reader's words: known, partly known (some calls had no price), unknown, or simulated. */
function costWords(t: Translate, u: Usage, simulated: boolean): string {
  if (simulated) return t("usage.simulated");
  if (u.unpriced_calls === u.calls) return t("usage.costUnknown");
  return u.unpriced_calls > 0 ? t("usage.costPartial", { usd: u.cost_usd, n: u.unpriced_calls }) : t("usage.cost", { usd: u.cost_usd });
}

/**
 * What a run's model calls used, in the reader's words: calls, tokens (cached among them) and the
 * cost, which says so when some calls had no price, when it is unknown, or when the answers were
 * simulated.
 */
export function usageWords(t: Translate, u: Usage, facts: { simulated: boolean; budgetUsd?: number }, lang?: Lang): string {
  const n = counted(lang);
  const cost = costWords(t, u, facts.simulated);
  const budget = facts.budgetUsd === undefined ? "" : t("usage.budget", { usd: facts.budgetUsd });
  const cached = u.cached_tokens > 0 ? t("usage.cached", { n: n(u.cached_tokens) }) : "";
  const reasoning = u.reasoning_tokens > 0 ? t("usage.reasoning", { n: n(u.reasoning_tokens) }) : "";
  return t("usage.line", { calls: n(u.calls), input: n(u.input_tokens), output: n(u.output_tokens), cached, reasoning, cost: `${cost}${budget}` });
}

/** A run's cost line as a run's end tells it: "Cost: 18 model calls · … · $0.035" (or simulated, no cost). */
export function costLine(t: Translate, report: { total: Usage; simulated: boolean; budget_usd?: number }): string {
  return `${t("usage.title")}: ${usageWords(t, report.total, { simulated: report.simulated, budgetUsd: report.budget_usd })}`;
}

/**
 * Counts for a catalogue text: grouped as `lang` writes them (`formatCount`) when the language is
 * given (the page passes it), else the plain number as before.
 */
function counted(lang: Lang | undefined): (n: number) => string | number {
  return (n) => (lang === undefined ? n : formatCount(lang, n));
}

/**
 * What one participant's calls cost, briefly (a card's footer): the cost where it is known, else
 * the tokens (grouped as `lang` writes them, when it is given).
 */
export function usageBrief(t: Translate, u: Usage, simulated: boolean, lang?: Lang): string {
  if (simulated || u.unpriced_calls === u.calls) return t("usage.tokens", { n: counted(lang)(u.input_tokens + u.output_tokens) });
  return t(u.unpriced_calls > 0 ? "usage.briefPartial" : "usage.cost", { usd: u.cost_usd });
}

/**
 * An anonymised answer's label in the reader's words: `Response B` (as the models see it and
 * the events carry it) is "Svar B" in Swedish. Any other text is returned as it is.
 */
export function labelName(t: Translate, label: string): string {
  const letter = /^Response ([A-Z])$/.exec(label)?.[1];
  return letter ? t("label.response", { letter }) : label;
}

/** What a run is expected to cost, before it starts: its calls, tokens (grouped as `lang` writes them, when it is given), and their cost where it is known. */
export function estimateWords(t: Translate, e: Usage, simulated: boolean, lang?: Lang): string {
  const n = counted(lang);
  return t("usage.estimate", { calls: n(e.calls), tokens: n(e.input_tokens + e.output_tokens), cost: costWords(t, e, simulated) });
}

/** The leaderboard's filters and size in words: "9 votes in 3 runs · all formats · all time" (the counts grouped as `lang` writes them, when it is given). */
export function leaderboardSummary(
  t: Translate,
  r: { runs: number; ballots: number; filters: { format: string | null; since: string | null } },
  lang?: Lang,
): string {
  // A day as a day; a time as the minute it starts (UTC), so that two filters of one day tell apart.
  const at = r.filters.since;
  const since = at
    ? t("leaderboard.since", { date: at.endsWith("T00:00:00.000Z") ? at.slice(0, 10) : `${at.slice(0, 16).replace("T", " ")} UTC` })
    : t("leaderboard.ever");
  const n = counted(lang);
  return t("leaderboard.summary", { ballots: n(r.ballots), runs: n(r.runs), format: r.filters.format ?? t("leaderboard.allFormats"), since });
}

/**
 * One measured bias in words: what was chosen, how often against chance, and what the test says,
 * always with its direction. A count test (position, own vendor) is significant when the count
 * differs from chance: voters favour it (chosen more often) or avoid it (less often), by so many
 * votes. The length test is of the correlation between being chosen and length: voters favour
 * longer answers (positive) or shorter ones (negative). Not significant, it says there is no sign
 * of either; below 10 votes, that there are too few to tell.
 */
export function biasWords(
  t: Translate,
  lang: Lang,
  f: { id: string; ballots: number; observed: number; expected: number; p_value: number | null; significant: boolean; correlation?: number },
): string {
  const what = named(t, "leaderboard.bias", f.id);
  const line = t("leaderboard.biasLine", {
    what,
    observed: formatCount(lang, f.observed),
    ballots: formatCount(lang, f.ballots),
    expected: decimal(lang, f.expected),
  });
  const r = f.correlation === undefined ? "" : `, ${t("leaderboard.correlation", { r: decimal(lang, f.correlation, 2) })}`;
  return `${line}${r} — ${biasVerdict(t, lang, f)}`;
}

/** What a bias's test says, with its direction (see `biasWords`). */
function biasVerdict(
  t: Translate,
  lang: Lang,
  f: { observed: number; expected: number; p_value: number | null; significant: boolean; correlation?: number },
): string {
  if (f.p_value === null) return t("leaderboard.tooFew");
  const p = f.p_value < 0.001 ? `< ${decimal(lang, 0.001, 3)}` : `= ${decimal(lang, f.p_value, 3)}`;
  if (f.correlation !== undefined) {
    if (!f.significant || f.correlation === 0) return t("leaderboard.lengthNotSignificant", { p });
    return t(f.correlation > 0 ? "leaderboard.longerFavoured" : "leaderboard.shorterFavoured", { p });
  }
  const diff = f.observed - f.expected;
  if (!f.significant || diff === 0) return t("leaderboard.notSignificant", { p });
  return t(diff > 0 ? "leaderboard.favoured" : "leaderboard.avoided", { p, diff: decimal(lang, Math.abs(diff)) });
}
