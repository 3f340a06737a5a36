import { ConvergenceAnalysisSchema, type ConvergenceAnalysis } from "../debate.js";
import { readLastObject, schemaIssues } from "./json.js";

/**
 * The reply of /debatt's convergence analysis: one JSON object of agreements, disagreements and
 * overlap. `CONVERGENCE_REPLY` is the part of the prompt that asks for it (in Swedish, like the
 * /debatt prompts), `parseConvergence` reads it and `renderConvergence` writes it.
 */
export const CONVERGENCE_REPLY = `Svara ENDAST med JSON enligt:
{"merged_summary": "sammanfattning av debatten",
 "overlap_score": 0.0,
 "agreements": ["punkt där deltagarna är överens"],
 "disagreements": ["punkt där de är oense"],
 "conflicts": [{"between": "Namn A vs Namn B", "topic": "vad konflikten gäller"}],
 "comparative_summary": "hur argumenten skiljer sig åt"}
overlap_score är ett tal mellan 0 (ingen samsyn) och 1 (full samsyn).`;

/** What `parseConvergence` makes of a reply. */
export type ConvergenceParse = { ok: true; analysis: ConvergenceAnalysis } | { ok: false; reason: string };

/** Reads the analysis (plain, fenced or inside prose) against `ConvergenceAnalysisSchema`: the last object of the reply that reads as one. */
export function parseConvergence(text: string): ConvergenceParse {
  return readLastObject(
    text,
    (json): ConvergenceParse => {
      const parsed = ConvergenceAnalysisSchema.safeParse(json);
      if (!parsed.success) return { ok: false, reason: `the convergence answer does not match its schema: ${schemaIssues(parsed.error, "analysis")}` };
      return { ok: true, analysis: parsed.data };
    },
    { ok: false, reason: "the convergence answer holds no JSON object" },
  );
}

/** An analysis as a model should write it. */
export function renderConvergence(analysis: ConvergenceAnalysis): string {
  return JSON.stringify(analysis);
}
