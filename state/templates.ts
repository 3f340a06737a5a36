import { z } from "zod";
import { FORMAT_IDS, FORMATS, type FormatId } from "./formats.js";
import { LANGS, type Lang, type MessageKey, type Translate } from "./messages/index.js";

/**
 * Suggested topics and questions for an empty chat, per format and in the reader's language: the
 * catalogues' defaults (`template.<format>.1`, `.2`), or what admins set instead.
 */

/** How many suggestions a format has by default. */
const DEFAULTS_PER_FORMAT = 2;

/** One suggestion: a topic, question or claim as a person would type it after the command (one line, no control characters). */
const SuggestionSchema = z
  .string()
  .trim()
  .min(1, "a suggestion is empty")
  .max(300, "a suggestion is over 300 characters")
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), "a suggestion has a control character (a line break, say): it must be one line a person could type");

/**
 * Admins' suggestions: per language, per format, the list in force instead of the defaults (an
 * empty list shows none). A format or language left out keeps the defaults. Parse input with
 * `parseTemplateOverrides`, which also refuses keys a record schema would let through.
 */
export const TemplateOverridesSchema = z.partialRecord(
  z.enum(LANGS),
  z.partialRecord(z.enum(FORMAT_IDS as [FormatId, ...FormatId[]]), z.array(SuggestionSchema).max(10, "at most 10 suggestions per format")),
);

/**
 * Admins' suggestions from JSON, every language and format key checked first: JSON's own
 * `__proto__` key is not a language, and a schema's record would not see it. Throws a zod error
 * naming what is wrong.
 */
export function parseTemplateOverrides(input: unknown): TemplateOverrides {
  const issues: string[] = [];
  const keysOf = (v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? Object.keys(v) : []);
  for (const lang of keysOf(input)) {
    if (!(LANGS as readonly string[]).includes(lang)) issues.push(`"${lang}" is not a language: one of ${LANGS.join(", ")}`);
    for (const format of keysOf((input as Record<string, unknown>)[lang])) {
      if (!(FORMAT_IDS as readonly string[]).includes(format)) issues.push(`${lang}: "${format}" is not a format: one of ${FORMAT_IDS.join(", ")}`);
    }
  }
  if (issues.length > 0) throw new z.ZodError(issues.map((message) => ({ code: "custom", message, path: [], input })));
  return TemplateOverridesSchema.parse(input);
}
export type TemplateOverrides = z.infer<typeof TemplateOverridesSchema>;

/** A format's suggestions as the page shows them. */
export interface FormatTemplates {
  format: FormatId;
  command: string;
  items: string[];
  /** Whether admins set these (else the defaults). */
  custom: boolean;
}

/** The default suggestions of a format, in `t`'s language. */
function defaultTemplates(t: Translate, format: FormatId): string[] {
  return Array.from({ length: DEFAULTS_PER_FORMAT }, (_, i) => t(`template.${format}.${i + 1}` as MessageKey));
}

/** Every format's suggestions in `lang`: the admins' where they set some, else the defaults. */
export function templatesFor(lang: Lang, t: Translate, overrides: TemplateOverrides): FormatTemplates[] {
  return FORMAT_IDS.map((format) => {
    const custom = overrides[lang]?.[format];
    return { format, command: FORMATS[format].command, items: custom ?? defaultTemplates(t, format), custom: custom !== undefined };
  });
}
