import { markdownWithoutHtml } from "../state/text.js";
import type { MessageKey, Translate } from "../state/messages/index.js";

// What the Markdown export shows of data a model replied as JSON or a run computed: read as
// Markdown where its shape is known, so a reader never meets a raw JSON line.

/** A stored JSON object, or null when the text is not one. */
function objectOf(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

/**
 * A debate vote's reply (`{voted_for, short_motivation, three_bullets}`) as its motivation and its
 * points, or null when the reply is not one (what it chose is said beside the voter's name).
 */
export function voteReplyMarkdown(content: string): string | null {
  const vote = objectOf(content.trim());
  if (!vote || typeof vote.voted_for !== "string") return null;
  const motivation = typeof vote.short_motivation === "string" ? markdownWithoutHtml(vote.short_motivation) : "";
  const points = strings(vote.three_bullets).map((p) => `- ${markdownWithoutHtml(p)}`);
  return [motivation, ...(points.length > 0 && motivation ? [""] : []), ...points].join("\n").trim() || null;
}

/** The fields of a debate's analysis of where its participants agree and differ, in the order shown. */
const ANALYSIS_FIELDS = ["merged_summary", "agreements", "disagreements", "conflicts", "comparative_summary", "overlap_score"] as const;

/**
 * A debate's analysis (`merged_summary`, `agreements`, …) as Markdown: each text a paragraph, each
 * list a list under its name, the overlap a line; null for data of another shape (shown as JSON).
 */
export function analysisMarkdown(t: Translate, data: Record<string, unknown>): string[] | null {
  const keys = Object.keys(data);
  if (keys.length === 0 || !keys.every((k) => (ANALYSIS_FIELDS as readonly string[]).includes(k))) return null;
  const out: string[] = [];
  for (const key of ANALYSIS_FIELDS) {
    const value = data[key];
    const name = t(`export.analysis.${key}` as MessageKey);
    if (typeof value === "string" && value.trim()) out.push(`**${name}:** ${markdownWithoutHtml(value)}`, "");
    else if (typeof value === "number") out.push(`**${name}:** ${value}`, "");
    else if (strings(value).length > 0) out.push(`**${name}:**`, "", ...strings(value).map((v) => `- ${markdownWithoutHtml(v)}`), "");
  }
  return out;
}
