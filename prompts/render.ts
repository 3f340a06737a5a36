import { DebattError } from "../state/errors.js";
import { CONTROL_CHARS, MAX_MESSAGE_CHARS } from "../state/text.js";
import { promptDefinition } from "./registry.js";

/** `{name}` placeholders: lower-case identifiers only, so JSON examples like `{"a": 1}` are left alone. */
const PLACEHOLDER = /\{([a-z_][a-z0-9_]*)\}/g;

/** Longest prompt text accepted as an override. */
export const MAX_PROMPT_CHARS = 20_000;

/** A prompt could not be rendered or an override is not acceptable. */
export class PromptError extends DebattError {
  constructor(message: string) {
    super("prompt_error", message);
  }
}

/** The distinct placeholder names used in a text. */
export function placeholdersIn(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]))];
}

/**
 * Fills every `{name}` of `template` from `values`; throws a PromptError naming the prompt and the
 * placeholder when a value is missing, so a broken override fails loudly instead of sending `{x}`.
 */
export function renderTemplate(key: string, template: string, values: Record<string, string | number>): string {
  return template.replace(PLACEHOLDER, (_m, name: string) => {
    const value = values[name];
    if (value === undefined) throw new PromptError(`prompt "${key}" uses {${name}} but no value was given for it`);
    return String(value);
  });
}

/** Longest a prompt may be once rendered with the longest values its placeholders may hold (about 40 000 tokens). */
export const MAX_RENDERED_CHARS = 160_000;
/** Placeholders that hold what a person typed: at most the message limit. */
const TYPED = new Set(["topic", "question", "claim"]);
/** Placeholders that hold models' texts (answers, rounds, verdicts, results): counted at their longest. */
const LONG = new Set([
  "answer",
  "schema",
  "context",
  "responses",
  "other_responses",
  "own_response",
  "arguments",
  "debate_output",
  "consolidation",
  "other_verdicts",
  "previous_round",
  "results",
  "summary",
  "rankings",
  "aggregate",
  "material",
]);
const LONG_CHARS = 32_000;
/** Names, numbers, dates. */
const SHORT_CHARS = 200;

/**
 * How long `text` can get once rendered: every placeholder filled with the longest value it may
 * hold. A placeholder repeated many times multiplies what each model request carries.
 */
export function longestRendering(text: string): number {
  let chars = text.length;
  for (const m of text.matchAll(PLACEHOLDER)) chars += (TYPED.has(m[1]) ? MAX_MESSAGE_CHARS : LONG.has(m[1]) ? LONG_CHARS : SHORT_CHARS) - m[0].length;
  return chars;
}

/** Problems with a proposed prompt text for `key` (empty when acceptable); each names its cause. */
export function validatePromptText(key: string, text: unknown): string[] {
  const def = promptDefinition(key);
  if (!def) return [`unknown prompt key "${key}"`];
  if (typeof text !== "string") return [`prompt "${key}": text must be a string`];
  if (text.trim() === "") return [`prompt "${key}": text is empty`];
  const problems: string[] = [];
  if (CONTROL_CHARS.test(text)) problems.push(`prompt "${key}": text contains control characters (only tab and line breaks are allowed)`);
  if (text.length > MAX_PROMPT_CHARS) {
    problems.push(`prompt "${key}": text has ${text.length} characters, at most ${MAX_PROMPT_CHARS} are allowed`);
  }
  const rendered = longestRendering(text);
  if (rendered > MAX_RENDERED_CHARS) {
    problems.push(
      `prompt "${key}": filled with the longest values its placeholders may hold (a ${MAX_MESSAGE_CHARS}-character topic, long answers) it would be ${rendered} characters, at most ${MAX_RENDERED_CHARS} are allowed; use each placeholder once`,
    );
  }
  const used = new Set(placeholdersIn(text));
  const known = new Set(def.placeholders.map((p) => p.name));
  for (const p of def.placeholders) {
    if (p.required && !used.has(p.name)) problems.push(`prompt "${key}": required placeholder {${p.name}} is missing`);
  }
  for (const name of used) {
    if (!known.has(name)) {
      problems.push(`prompt "${key}": unknown placeholder {${name}}; allowed: ${[...known].map((n) => `{${n}}`).join(", ") || "none"}`);
    }
  }
  return problems;
}

/**
 * The prompt texts in force for one run: per-run overrides, then stored overrides, then defaults.
 */
export class PromptSet {
  constructor(private readonly overrides: Readonly<Record<string, string>>) {}

  /** The effective text of a registered key. */
  text(key: string): string {
    const def = promptDefinition(key);
    if (!def) throw new PromptError(`unknown prompt key "${key}"`);
    return this.overrides[key] || def.default;
  }

  /** The effective text of `key` with its placeholders filled. */
  render(key: string, values: Record<string, string | number>): string {
    return renderTemplate(key, this.text(key), values);
  }
}
