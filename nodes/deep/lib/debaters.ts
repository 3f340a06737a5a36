import { answerOf, whoIs, type CollectedAnswer, type PanelState, type Who } from "../../../state/deliberation.js";
import type { DebaterArgument, DebaterTurn } from "../../../state/deep.js";
import type { Participant } from "../../../state/participants.js";
import { redactSelfIdentification, runIdentityNames } from "../../shared/anonymity.js";

/** The debaters' names: Debater A, B, C, … */
export const debaterLabel = (index: number): string => String.fromCharCode(65 + index);

/** What the debaters are read from: the members, their first answers and labels, the turns so far. */
interface DebateSoFar extends PanelState {
  answers: CollectedAnswer[];
  labels: Record<string, string>;
  turns: DebaterTurn[];
  round: number;
  question: string;
  timeout_ms: number;
}

/** The debaters of a /deep run, by label ("A" → who). */
export function debatersOf(state: PanelState & { labels: Record<string, string> }): Record<string, Who> {
  const byKey = new Map(state.members.map((p) => [p.key, p]));
  return Object.fromEntries(Object.entries(state.labels).map(([label, key]) => [label, whoIs(byKey.get(key)!)]));
}

/** A debater's argument as the next round and the moderator read it. */
export function renderArgument(a: DebaterArgument): string {
  const lines = [`Stance: ${a.stance} · Revision: ${a.revision} · Confidence: ${a.confidence}`];
  for (const k of a.key_points) lines.push(`- ${k}`);
  for (const c of a.counterpoints) lines.push(`- Against ${c.target}: ${c.point} (${c.evidence})`);
  if (a.revised_position) lines.push(`Position: ${a.revised_position}`);
  return lines.join("\n");
}

/** One debater's round, with its prompt's parts rendered (what deep_argue is sent). */
export interface ArgueTask {
  round: number;
  label: string;
  participant: Participant;
  question: string;
  ownResponse: string;
  /** The other debaters' first answers as `### Debater X`, the text and `---`. */
  otherResponses: string;
  /** From round 2: `## Previous Round Arguments` and every debater's last argument; else empty. */
  previousRound: string;
  /** The debater's position so far (its answer, or its last revised position). */
  position: string;
  timeoutMs: number;
}

/**
 * Every debater's task for the current round, each with its own prompt: its own answer, the
 * others' as `### Debater X`, and from round 2 every debater's previous argument.
 * Self-identification is removed from what other debaters read.
 */
export function argueTasks(state: DebateSoFar): ArgueTask[] {
  const round = state.round;
  const names = runIdentityNames(state);
  const byKey = new Map(state.members.map((p) => [p.key, p]));
  const previous = state.turns.filter((t) => t.round === round - 1 && t.argument);
  const previousRound = previous.length
    ? `\n## Previous Round Arguments\n${previous.map((t) => `### Debater ${t.label}\n${redactSelfIdentification(renderArgument(t.argument!), names)}\n---\n`).join("")}`
    : "";
  return Object.entries(state.labels).map(([label, key]) => {
    const others = Object.entries(state.labels).filter(([, k]) => k !== key);
    return {
      round,
      label,
      participant: byKey.get(key)!,
      question: state.question,
      ownResponse: answerOf(state, key),
      otherResponses: others.map(([l, k]) => `### Debater ${l}\n${redactSelfIdentification(answerOf(state, k), names)}\n---\n`).join(""),
      previousRound,
      position: lastPosition(state, label) ?? answerOf(state, key),
      timeoutMs: state.timeout_ms,
    };
  });
}

/** A debater's last argued position, if it has argued. */
export function lastPosition(state: { turns: DebaterTurn[] }, label: string): string | undefined {
  return lastArgument(state, label)?.revised_position;
}

/** A debater's last valid argument, if any. */
export function lastArgument(state: { turns: DebaterTurn[] }, label: string): DebaterArgument | undefined {
  return [...state.turns].reverse().find((t) => t.label === label && t.argument)?.argument;
}
