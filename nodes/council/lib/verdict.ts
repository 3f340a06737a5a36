import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunContext } from "../../../ports/node-deps.js";
import type { Branch, CouncilStateType, JudgeRound } from "../../../state/council.js";
import { inParticipantOrder } from "../../../state/deliberation.js";
import type { Participant } from "../../../state/participants.js";
import { COUNCIL_PERSPECTIVES } from "../../../prompts/council.js";

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
  return inParticipantOrder(
    state,
    state.rounds.filter((r) => r.round === round),
    (r) => r.modelKey,
  );
}

/** True when every verdict given is the same (PASS, WARN or FAIL). */
export function unanimous(rounds: readonly JudgeRound[]): boolean {
  const given = rounds.filter((r) => r.verdict).map((r) => r.verdict!.verdict);
  return given.length > 0 && given.every((v) => v === given[0]);
}
