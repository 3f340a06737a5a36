import type { CouncilResult, JudgeRound } from "../state/council.js";
import type { DebaterTurn, DeepOutput, ModeratorAssessment, StopReason } from "../state/deep.js";
import type { CardRound } from "./card.js";
import type { ArenaEvent } from "./stream.js";

type Who = { key: string; display: string; model: string };

/** A /deep run (seed 004) as the page shows it: answers, rounds with the moderator's numbers, the synthesis. */
export interface DeepState {
  kind: "deep";
  question: string;
  participants: Who[];
  minRounds: number;
  maxRounds: number;
  answers: Record<string, CardRound>;
  /** Label → who, once the answers are anonymised. */
  debaters: Record<string, { display: string; modelKey: string }>;
  rounds: { round: number; arguments: DebaterTurn[]; assessment: ModeratorAssessment | null; moderatorError?: string; stop: boolean; reason: StopReason | "no_arguments" }[];
  /** The round being argued, 0 before the first. */
  arguing: number;
  output?: DeepOutput;
  synthesis: string;
  synthesisFallback?: boolean;
  title?: string;
  complete: boolean;
}

/** A /council run (seed 002) as the page shows it: the verdict table, the consensus, the report. */
export interface CouncilState {
  kind: "council";
  claim: string;
  debate: boolean;
  judges: (Who & { perspective: string })[];
  /** Round → judge key → verdict. */
  verdicts: Record<number, Record<string, JudgeRound>>;
  round: number;
  branch?: "agreed" | "disagreed";
  result?: CouncilResult;
  report: string;
  reportFallback?: boolean;
  title?: string;
  complete: boolean;
}

/** The /deep and /council runs: each shown by its own panel. */
export type PanelState = DeepState | CouncilState;

/**
 * Applies one event to a /deep or /council run. `deep-start` and `council-start` begin one; their
 * other events update it; anything else leaves it as it is (the same object).
 */
export function reducePanel(s: PanelState | undefined, e: ArenaEvent): PanelState | undefined {
  const d = e.data as Record<string, any>;
  const who = (p: { modelKey: string; display: string; model: string }) => ({ key: p.modelKey, display: p.display, model: p.model });
  if (e.event === "deep-start") {
    return { kind: "deep", question: d.question, participants: d.participants.map(who), minRounds: d.minRounds, maxRounds: d.maxRounds, answers: {}, debaters: {}, rounds: [], arguing: 0, synthesis: "", complete: false };
  }
  if (e.event === "council-start") {
    return { kind: "council", claim: d.claim, debate: d.debate, judges: d.judges.map((j: any) => ({ ...who(j), perspective: j.perspective })), verdicts: {}, round: 1, report: "", complete: false };
  }
  if (!s) return s;
  if (e.event === "title-complete") return { ...s, title: d.data.title };
  if (e.event === "complete") return { ...s, complete: true };
  return s.kind === "deep" ? reduceDeep(s, e, d) : reduceCouncil(s, e, d);
}

function reduceDeep(s: DeepState, e: ArenaEvent, d: Record<string, any>): DeepState {
  switch (e.event) {
    case "answer-delta": {
      if (d.mode !== "deep") return s;
      if (d.stage === "synthesis") return { ...s, synthesis: s.synthesis + d.delta };
      if (d.stage !== "collect") return s;
      const prev = s.answers[d.modelKey] ?? { text: "", status: "speaking" as const };
      return { ...s, answers: { ...s.answers, [d.modelKey]: { ...prev, text: prev.text + d.delta } } };
    }
    case "stage1-complete": {
      const answers = { ...s.answers };
      for (const r of d.data) answers[r.modelKey] = { text: r.response, status: "ok", latencyMs: r.responseTimeMs };
      for (const f of d.failed) answers[f.modelKey] = { text: "", status: "error", error: f.error };
      return { ...s, answers };
    }
    case "deep-round-start":
      return { ...s, arguing: d.round, debaters: d.debaters };
    case "deep-round-complete":
      return { ...s, rounds: [...s.rounds, { round: d.round, arguments: d.arguments, assessment: d.assessment, moderatorError: d.moderatorError, stop: d.stop, reason: d.reason }] };
    case "deep-output":
      return { ...s, output: d.data };
    case "deep-synthesis-complete":
      return { ...s, synthesis: d.data.synthesis, synthesisFallback: d.data.fallback };
    default:
      return s;
  }
}

function reduceCouncil(s: CouncilState, e: ArenaEvent, d: Record<string, any>): CouncilState {
  switch (e.event) {
    case "answer-delta":
      return d.mode === "council" && d.stage === "report" ? { ...s, report: s.report + d.delta } : s;
    case "council-round-start":
      return { ...s, round: d.round, branch: d.branch ?? s.branch };
    case "council-verdict":
      return { ...s, verdicts: { ...s.verdicts, [d.round]: { ...s.verdicts[d.round], [d.modelKey]: d as JudgeRound } } };
    case "council-consolidation":
      return { ...s, result: d.data };
    case "council-report-complete":
      return { ...s, report: d.data.report, reportFallback: d.data.fallback };
    default:
      return s;
  }
}
