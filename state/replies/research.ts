import { readLastObject } from "./json.js";

/**
 * The replies of OneSeek's research step in /debatt (in Swedish, like the /debatt prompts): the
 * planner's search queries and the critic's choice of results, each one JSON object.
 */
export const RESEARCH_PLAN_REPLY = `Svara ENDAST med JSON: {"queries": ["sökfråga 1", "sökfråga 2"]}`;

/** The critic's reply; the prompt adds the language rule after it. */
export const RESEARCH_CHECK_REPLY = `Svara ENDAST med JSON: {"keep": [0, 2], "note": "en mening om vad resultaten visar"}
där "keep" är index (från 0) för de resultat som ska användas.`;

/** The planner's queries: non-empty strings, trimmed, at most `max`; none when the reply has none. */
export function parseResearchPlan(text: string, max: number): string[] {
  const queries = listIn(text, "queries");
  if (!queries) return [];
  return queries
    .filter((q): q is string => typeof q === "string" && q.trim() !== "")
    .map((q) => q.trim())
    .slice(0, max);
}

/** The indexes the critic keeps among `count` results; null when the reply says nothing usable. */
export function parseResearchCheck(text: string, count: number): number[] | null {
  const keep = listIn(text, "keep");
  if (!keep) return null;
  return keep.filter((i): i is number => typeof i === "number" && Number.isInteger(i) && i >= 0 && i < count);
}

/** The list under `key` in the last JSON object of the reply that has one. */
function listIn(text: string, key: string): unknown[] | undefined {
  const found = readLastObject(text, (json) => ({ ok: Array.isArray(json[key]), list: json[key] as unknown[] }), { ok: false, list: [] });
  return found.ok ? found.list : undefined;
}

/** A planner's reply. */
export function renderResearchPlan(queries: string[]): string {
  return JSON.stringify({ queries });
}

/** A critic's reply. */
export function renderResearchCheck(keep: number[], note?: string): string {
  return JSON.stringify(note === undefined ? { keep } : { keep, note });
}
