import type { Branch, CouncilStateType, Verdict } from "../../../state/council.js";
import type { Participant } from "../../../state/participants.js";
import { redactSelfIdentification, runIdentityNames } from "../../shared/anonymity.js";
import { roundOf } from "./verdict.js";

/** One judge's round 1, or its round 2 in the same conversation (what council_judge is sent). */
export interface JudgeTask {
  round: 1 | 2;
  participant: Participant;
  index: number;
  perspective: string;
  claim: string;
  timeoutMs: number;
  /** Round 2: the judge's own round-1 reply and verdict (its conversation so far). */
  ownReply?: string;
  ownVerdict?: Verdict;
  /** Round 2: the other judges' full round-1 JSON verdicts. */
  otherVerdicts?: string;
  branch?: Branch;
}

/** Every judge's round 1. */
export function roundOneTasks(state: CouncilStateType): JudgeTask[] {
  return state.members.map((participant, index) => ({
    round: 1,
    participant,
    index,
    perspective: state.perspectives[participant.key],
    claim: state.question,
    timeoutMs: state.timeout_ms,
  }));
}

/**
 * Round 2 for every judge with a round-1 verdict: its own conversation continued, with the
 * others' full verdicts. Self-identification in a verdict's text is removed: judges see each
 * other only as judge-N.
 */
export function roundTwoTasks(state: CouncilStateType, branch: Branch, timeoutMs: number): JudgeTask[] {
  const r1 = roundOf(state, 1).filter((r) => r.verdict);
  const byKey = new Map(state.members.map((p, i) => [p.key, { p, i }]));
  const names = runIdentityNames(state);
  return r1.map((own) => {
    const { p, i } = byKey.get(own.modelKey)!;
    return {
      round: 2,
      participant: p,
      index: i,
      perspective: own.perspective,
      claim: state.question,
      timeoutMs,
      ownReply: own.text,
      ownVerdict: own.verdict,
      otherVerdicts: r1
        .filter((o) => o !== own)
        .map((o) => `\`\`\`json\n${redactSelfIdentification(JSON.stringify(o.verdict, null, 2), names)}\n\`\`\``)
        .join("\n\n"),
      branch,
    };
  });
}
