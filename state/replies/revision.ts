import type { RevisionDecision } from "../revise.js";

/**
 * The reply of a revision in /revise: a DECISION/REASONING block, then the revised response.
 * The constants are the parts of the prompts that ask for it (they differ only in what the
 * reasoning must hold), `parseRevision` and `resolveRevision` read it, `renderRevision` writes it.
 */
const revisionReply = (reasoning: string) => `DECISION: [REVISE|STAND|MERGE]
REASONING: [${reasoning}]

REVISED RESPONSE:
[Your final response — if STAND, repeat your original]`;

/** The revision's reply. */
export const REVISION_REPLY = revisionReply("1-2 sentences on why");

/** The reply under the anti-anchoring protocol: a change must cite what it fixes. */
export const REVISION_REPLY_CITING = revisionReply("1-2 sentences; for REVISE or MERGE, cite the specific error or omission");

/** A revision as a model should write it. */
export function renderRevision(decision: RevisionDecision, reasoning: string, response: string): string {
  return `DECISION: ${decision}\nREASONING: ${reasoning}\n\nREVISED RESPONSE:\n${response}`;
}

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
    if (last) revisedResponse = text.slice(last.index + last[0].length).trim() || null;
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
