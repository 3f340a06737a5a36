import { ModeratorAssessmentSchema, type ModeratorAssessment } from "../deep.js";
import { readLastObject, schemaIssues } from "./json.js";

/**
 * The reply of the /deep moderator: one JSON object assessing the round's convergence.
 * `ASSESSMENT_REPLY` is the part of the moderator prompt that shows it, `parseAssessment` reads
 * it and `renderAssessment` writes it.
 */
export const ASSESSMENT_REPLY = `\`\`\`json
{
  "should_stop": true|false,
  "agreement_score": 0.0-1.0,
  "new_points_ratio": 0.0-1.0,
  "consensus_answer": "<emerging consensus if agreement_score > 0.6, else null>",
  "remaining_disagreements": ["<unresolved points>"],
  "next_round_focus": "<what debaters should address if continuing, else null>"
}
\`\`\``;

const clamp01 = (v: unknown) => (typeof v === "number" ? Math.min(1, Math.max(0, v)) : v);

/** What `parseAssessment` makes of a reply. */
export type AssessmentParse = { ok: true; assessment: ModeratorAssessment } | { ok: false; reason: string };

/**
 * Reads the moderator's JSON against `ModeratorAssessmentSchema` (scores clamped to 0–1, missing
 * lists empty): the last object of the reply that reads as one, so a debater's quoted object does not count.
 */
export function parseAssessment(text: string): AssessmentParse {
  return readLastObject(
    text,
    (json): AssessmentParse => {
      const parsed = ModeratorAssessmentSchema.safeParse({
        should_stop: false,
        consensus_answer: null,
        next_round_focus: null,
        remaining_disagreements: [],
        ...json,
        agreement_score: clamp01(json.agreement_score),
        new_points_ratio: clamp01(json.new_points_ratio),
      });
      if (!parsed.success) return { ok: false, reason: schemaIssues(parsed.error, "assessment") };
      return { ok: true, assessment: parsed.data };
    },
    { ok: false, reason: "no JSON object in the moderator's answer" },
  );
}

/** An assessment as a model should write it. */
export function renderAssessment(assessment: ModeratorAssessment): string {
  return JSON.stringify(assessment);
}
