import type { RevisionDecision } from "../revise.js";

/** The parts of a revision's text, each null when it was not found. */
export interface ParsedRevision {
  decision: RevisionDecision | null;
  reasoning: string | null;
  revisedResponse: string | null;
}

// The block's labels, matched tolerant of markdown around them ("**DECISION:** REVISE", "Decision: **REVISE**").
const M = String.raw`[*_\s]*`;
const DECISION = new RegExp(String.raw`DECISION${M}:${M}(REVISE|STAND|MERGE)\b`, "i");
const REASONING = new RegExp(String.raw`REASONING${M}:${M}(.+?)(?:\n\n|\n${M}REVISED RESPONSE)`, "is");
const REVISED = new RegExp(String.raw`REVISED RESPONSE${M}:[*_ \t]*\n?([\s\S]+)$`, "i");
const BLOCK_LINE = new RegExp(String.raw`^${M}(?:DECISION|REASONING)${M}:.*$`, "gim");

/**
 * Parses a revision's text: the DECISION, the REASONING (up to a blank line or the response) and
 * everything after `REVISED RESPONSE:`. Without that marker, the text after the DECISION/REASONING
 * block is the response.
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

/** What a revision amounts to: the parse, with the fallbacks of `resolveRevision` applied. */
export interface ResolvedRevision {
  decision: RevisionDecision | null;
  reasoning: string | null;
  revisedResponse: string;
  parseSuccess: boolean;
}

/**
 * Applies the fallbacks to a model's revision: no DECISION → decision null, the whole text as the
 * response (best effort), `parseSuccess: false`; STAND → the original, unchanged; a REVISE or
 * MERGE whose response cannot be found → the original.
 */
export function resolveRevision(text: string, original: string): ResolvedRevision {
  const parsed = parseRevision(text);
  if (!parsed.decision) return { decision: null, reasoning: parsed.reasoning, revisedResponse: text.trim() || original, parseSuccess: false };
  const revisedResponse = parsed.decision === "STAND" ? original : (parsed.revisedResponse ?? original);
  return { decision: parsed.decision, reasoning: parsed.reasoning, revisedResponse, parseSuccess: true };
}
