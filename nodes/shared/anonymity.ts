import type { Participant } from "../../state/participants.js";

/** Vendors and model families a text may name; with the participants' own names they identify an author. */
const VENDOR_NAMES = [
  "Anthropic",
  "Claude",
  "OpenAI",
  "ChatGPT",
  "GPT",
  "Google",
  "Gemini",
  "xAI",
  "Grok",
  "DeepSeek",
  "Perplexity",
  "Sonar",
  "Qwen",
  "Alibaba",
  "Llama",
  "Mistral",
  "OneSeek",
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Names that would reveal who wrote an answer: the participants' display names, the vendor and
 * family of their model ids (`x-ai/grok-4` → `x-ai`, `grok`), and well-known vendors and models.
 */
export function identityNames(participants: readonly Participant[]): string[] {
  const names = new Map<string, string>();
  const add = (name: string) => {
    if (name.length >= 3 && !names.has(name.toLowerCase())) names.set(name.toLowerCase(), name);
  };
  VENDOR_NAMES.forEach(add);
  for (const p of participants) {
    add(p.display);
    const [vendor, family] = p.model.split("/");
    if (family) add(vendor);
    add((family ?? vendor).split(/[-_:.\d]/)[0]);
  }
  return [...names.values()];
}

function namePattern(names: readonly string[]): string {
  return [...names]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join("|");
}

/**
 * The identity names a text mentions (case-insensitive, whole words), leaving out those the
 * question itself contains: a question about Claude may be answered or judged naming Claude.
 */
export function namesMentioned(text: string, names: readonly string[], question = ""): string[] {
  if (names.length === 0) return [];
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(${namePattern(names)})(?![\\p{L}\\p{N}])`, "giu");
  const inQuestion = new Set([...question.matchAll(re)].map((m) => m[1].toLowerCase()));
  const found = new Map<string, string>();
  for (const m of text.matchAll(re)) {
    const key = m[1].toLowerCase();
    if (!inQuestion.has(key) && !found.has(key)) found.set(key, names.find((n) => n.toLowerCase() === key) ?? m[1]);
  }
  return [...found.values()];
}

/**
 * Removes an answer's self-identification ("As Claude, …", "I'm ChatGPT", "developed by OpenAI")
 * before other models judge it, so they never see who wrote what. Other mentions of the names
 * stay: they may be the subject of the question.
 */
export function redactSelfIdentification(text: string, names: readonly string[]): string {
  if (names.length === 0) return text;
  const article = String.raw`\s+(?:(?:an?|the)\s+)?(?:(?:AI|language|large|model|assistant|chatbot)\s+)*`;
  const one = `(?:${namePattern(names)})(?![\\p{L}\\p{N}])`;
  // "ChatGPT (OpenAI)", "Claude (by Anthropic)": the vendor in brackets goes with the name.
  const name = `${one}(?:\\s*\\((?:by |from )?${one}\\))?`;
  const claims = new RegExp(String.raw`(\b(?:I am|I'm|I’m|this is|my name is|(?:made|developed|created|trained|built) by)${article})` + name, "giu");
  // "as" only before a comma ("As Claude, I …"): "as Google suggests" is not about the author.
  const asName = new RegExp(String.raw`(\bas${article})` + name + String.raw`(?=\s*,)`, "giu");
  return text.replace(claims, "$1[a model]").replace(asName, "$1[a model]");
}

/** The identity names of a run's members and chairman (what judges must not see). */
export function runIdentityNames(state: { members: readonly Participant[]; chairman?: Participant | null }): string[] {
  return identityNames([...state.members, ...(state.chairman ? [state.chairman] : [])]);
}
