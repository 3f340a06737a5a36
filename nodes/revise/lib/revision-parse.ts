import type { RevisionDecision } from "../../../state/revise.js";

/** Seed 000 ParsedRevision. */
export interface ParsedRevision {
  decision: RevisionDecision | null;
  reasoning: string | null;
  revisedResponse: string | null;
}

// Seed 000's patterns, tolerant of markdown around the labels ("**DECISION:** REVISE", "Decision: **REVISE**").
const M = String.raw`[*_\s]*`;
const DECISION = new RegExp(String.raw`DECISION${M}:${M}(REVISE|STAND|MERGE)\b`, "i");
const REASONING = new RegExp(String.raw`REASONING${M}:${M}(.+?)(?:\n\n|\n${M}REVISED RESPONSE)`, "is");
const REVISED = new RegExp(String.raw`REVISED RESPONSE${M}:[*_ \t]*\n?([\s\S]+)$`, "i");
const BLOCK_LINE = new RegExp(String.raw`^${M}(?:DECISION|REASONING)${M}:.*$`, "gim");

/**
 * Seed 000's parseRevision: the DECISION, the REASONING (up to a blank line or the response) and
 * everything after `REVISED RESPONSE:`. Without that marker, the text after the DECISION/REASONING
 * block is the response (seed 000 §F).
 */
export function parseRevision(text: string): ParsedRevision {
  const decision = (DECISION.exec(text)?.[1].toUpperCase() as RevisionDecision | undefined) ?? null;
  const reasoning = REASONING.exec(text)?.[1].trim() || null;
  let revisedResponse = REVISED.exec(text)?.[1].trim() || null;
  if (!revisedResponse && decision) {
    const lines = [...text.matchAll(BLOCK_LINE)];
    const last = lines.at(-1);
    if (last) revisedResponse = text.slice(last.index! + last[0].length).trim() || null;
  }
  return { decision, reasoning, revisedResponse };
}

/** What a revision amounts to: seed 000 §F's rules on top of the parse. */
export interface ResolvedRevision {
  decision: RevisionDecision | null;
  reasoning: string | null;
  revisedResponse: string;
  parseSuccess: boolean;
}

/**
 * Applies seed 000 §F to a model's revision: no DECISION → decision null, the whole text as the
 * response (best effort), `parseSuccess: false`; STAND → the original, unchanged; a REVISE or
 * MERGE whose response cannot be found → the original.
 */
export function resolveRevision(text: string, original: string): ResolvedRevision {
  const parsed = parseRevision(text);
  if (!parsed.decision) return { decision: null, reasoning: parsed.reasoning, revisedResponse: text.trim() || original, parseSuccess: false };
  const revisedResponse = parsed.decision === "STAND" ? original : (parsed.revisedResponse ?? original);
  return { decision: parsed.decision, reasoning: parsed.reasoning, revisedResponse, parseSuccess: true };
}
