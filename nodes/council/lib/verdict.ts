import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunContext } from "../../../ports/node-deps.js";
import { VerdictSchema, type Branch, type CouncilStateType, type JudgeRound, type Verdict } from "../../../state/council.js";
import { inParticipantOrder } from "../../../state/deliberation.js";
import type { Participant } from "../../../state/participants.js";
import { COUNCIL_PERSPECTIVES } from "../../../prompts/council.js";
import { extractJsonObject } from "../../../state/replies/json.js";

const upper = (v: unknown) => (typeof v === "string" ? v.trim().toUpperCase() : v);

/** A numeric confidence (0–1) as the verdict's HIGH/MEDIUM/LOW. */
function confidenceOf(v: unknown): unknown {
  if (typeof v !== "number") return upper(v);
  return v >= 0.75 ? "HIGH" : v >= 0.4 ? "MEDIUM" : "LOW";
}

/**
 * Reads a judge's JSON verdict (the block in its reply) against `VerdictSchema`. Repairs rather
 * than losing it: case of the enums, a numeric confidence, missing findings or recommendation.
 * `judge` is always the council's name for it (`judge-1 (correctness)`), never the model's own.
 * Also returns round 2's `r1_restatement` and `change_justification`.
 */
export function parseVerdict(text: string, judge: string):
  | { ok: true; verdict: Verdict; restatement?: string; changeJustification?: string }
  | { ok: false; reason: string } {
  const json = extractJsonObject(text);
  if (!json) return { ok: false, reason: "no JSON verdict in the answer" };
  const parsed = VerdictSchema.safeParse({
    key_insight: "",
    recommendation: "",
    ...json,
    // The council's name for the judge, whatever the model called itself: other judges read it.
    judge,
    verdict: upper(json.verdict),
    confidence: confidenceOf(json.confidence),
    findings: Array.isArray(json.findings)
      ? json.findings.map((f) => (f && typeof f === "object" ? { ...f, severity: String((f as { severity?: unknown }).severity ?? "minor").toLowerCase() } : f))
      : [],
  });
  if (!parsed.success) return { ok: false, reason: parsed.error.issues.map((i) => `${i.path.join(".") || "verdict"}: ${i.message}`).join("; ") };
  const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);
  return { ok: true, verdict: parsed.data, restatement: str(json.r1_restatement), changeJustification: str(json.change_justification) };
}

/** The perspective of the i-th judge (they repeat when there are more judges than perspectives). */
export function perspectiveOf(index: number): string {
  return COUNCIL_PERSPECTIVES[index % COUNCIL_PERSPECTIVES.length].name;
}

/** A judge's name in prompts and verdicts: `judge-1 (correctness)`; never the model's name. */
export function judgeName(index: number, perspective: string): string {
  return `judge-${index + 1} (${perspective})`;
}

/** Round 1's conversation of a judge: its perspective as the system prompt, then the claim. */
export function roundOneMessages(ctx: RunContext, judge: string, perspective: string, claim: string): BaseMessage[] {
  const focus = COUNCIL_PERSPECTIVES.find((p) => p.name === perspective)?.focus ?? "";
  return [
    new SystemMessage(ctx.prompts.render("council.judge.system", { judge, perspective, perspective_focus: focus, date: ctx.today() })),
    new HumanMessage(ctx.prompts.render("council.packet", { claim })),
  ];
}

/** Round 2 continues the SAME conversation: round 1's messages, the judge's own reply, then the round-2 message. */
export function roundTwoMessages(ctx: RunContext, round1: BaseMessage[], ownReply: string, branch: Branch, otherVerdicts: string): BaseMessage[] {
  return [...round1, new AIMessage(ownReply), new HumanMessage(ctx.prompts.render(`council.round2.${branch}`, { other_verdicts: otherVerdicts }))];
}

/** Who a judge is, for events and state. */
export function judgeOf(p: Participant, perspective: string) {
  return { modelKey: p.key, display: p.display, model: p.model, perspective };
}

/** A round's verdicts in the judges' order. */
export function roundOf(state: Pick<CouncilStateType, "members" | "rounds">, round: 1 | 2): JudgeRound[] {
  return inParticipantOrder(state, state.rounds.filter((r) => r.round === round), (r) => r.modelKey);
}

/** True when every verdict given is the same (PASS, WARN or FAIL). */
export function unanimous(rounds: readonly JudgeRound[]): boolean {
  const given = rounds.filter((r) => r.verdict).map((r) => r.verdict!.verdict);
  return given.length > 0 && given.every((v) => v === given[0]);
}
