import { VerdictSchema, type Verdict } from "../council.js";
import { readLastObject, schemaIssues } from "./json.js";

/**
 * The reply of a /council judge: an analysis, then the verdict as a fenced JSON block (in round 2
 * with two more fields). The constants are the parts of the judge prompts that ask for it (with
 * the registry's `{judge}` placeholder), `parseVerdict` reads it and `renderVerdict` writes it.
 */
export const VERDICT_REPLY = `\`\`\`json
{
  "judge": "{judge}",
  "verdict": "PASS|WARN|FAIL",
  "confidence": "HIGH|MEDIUM|LOW",
  "key_insight": "<the single most important point>",
  "findings": [{"severity": "critical|significant|minor", "description": "<finding>"}],
  "recommendation": "<what to do>"
}
\`\`\``;

/** The fields that round 2's verdict adds to round 1's shape. */
export const VERDICT_ROUND2_FIELDS = `"r1_restatement": "<your 2-3 sentence restatement>",
"change_justification": "<the specific detail, if your verdict changed; else empty>"`;

/** A verdict block as a judge writes it: round 1's shape, plus round 2's fields in round 2. */
export type VerdictBlock = Verdict & { r1_restatement?: string; change_justification?: string };

const upper = (v: unknown) => (typeof v === "string" ? v.trim().toUpperCase() : v);

/** A numeric confidence (0–1) as the verdict's HIGH/MEDIUM/LOW. */
function confidenceOf(v: unknown): unknown {
  if (typeof v !== "number") return upper(v);
  return v >= 0.75 ? "HIGH" : v >= 0.4 ? "MEDIUM" : "LOW";
}

/** What `parseVerdict` makes of a reply. */
export type VerdictParse = { ok: true; verdict: Verdict; restatement?: string; changeJustification?: string } | { ok: false; reason: string };

/**
 * Reads a judge's JSON verdict (the block in its reply) against `VerdictSchema`. Repairs rather
 * than losing it: case of the enums, a numeric confidence, missing findings or recommendation.
 * `judge` is always the council's name for it (`judge-1 (correctness)`), never the model's own.
 * Also returns round 2's `r1_restatement` and `change_justification`. The last object of the reply
 * that reads as a verdict counts, not one the judge quotes from the answer it judges.
 */
export function parseVerdict(text: string, judge: string): VerdictParse {
  return readLastObject(
    text,
    (json): VerdictParse => {
      const parsed = VerdictSchema.safeParse({
        key_insight: "",
        recommendation: "",
        ...json,
        // The council's name for the judge, whatever the model called itself: other judges read it.
        judge,
        verdict: upper(json.verdict),
        confidence: confidenceOf(json.confidence),
        findings: Array.isArray(json.findings)
          ? json.findings.map((f) =>
              f && typeof f === "object" ? { ...f, severity: String((f as { severity?: unknown }).severity ?? "minor").toLowerCase() } : f,
            )
          : [],
      });
      if (!parsed.success) return { ok: false, reason: schemaIssues(parsed.error, "verdict") };
      const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);
      return { ok: true, verdict: parsed.data, restatement: str(json.r1_restatement), changeJustification: str(json.change_justification) };
    },
    { ok: false, reason: "no JSON verdict in the answer" },
  );
}

/** A judge's reply as a model should write it: the analysis, a blank line, the fenced block. */
export function renderVerdict(analysis: string, block: VerdictBlock): string {
  return `${analysis}\n\n\`\`\`json\n${JSON.stringify(block, null, 2)}\n\`\`\``;
}
