/**
 * Finds the JSON object in a model's answer: the whole text, a fenced ```json block, or the first
 * balanced `{…}` in prose that parses (nested braces and braces inside strings, escaped quotes
 * included). Returns null when there is none.
 */
export function extractJsonObject(text: string): Record<string, unknown> | null {
  const candidates = [text.trim()];
  for (const m of text.matchAll(/```(?:json|JSON)?\s*\n?([\s\S]*?)```/g)) candidates.push(m[1].trim());
  for (const c of candidates) {
    const parsed = tryParseObject(c);
    if (parsed) return parsed;
  }
  for (let start = text.indexOf("{"); start !== -1; start = text.indexOf("{", start + 1)) {
    const end = matchingBrace(text, start);
    if (end === -1) continue;
    const parsed = tryParseObject(text.slice(start, end + 1));
    if (parsed) return parsed;
  }
  return null;
}

function tryParseObject(text: string): Record<string, unknown> | null {
  if (!text.startsWith("{")) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Index of the `}` closing the `{` at `start`, skipping braces inside JSON strings; -1 if none. */
function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) return i;
  }
  return -1;
}

/** A schema's complaints about a reply as one line: `path: message; …` (`root` names the whole reply). */
export function schemaIssues(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }, root: string): string {
  return error.issues.map((i) => `${i.path.map(String).join(".") || root}: ${i.message}`).join("; ");
}
