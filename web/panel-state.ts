import type { CouncilResult, JudgeRound } from "../state/council.js";
import type { DebaterTurn, DeepOutput, ModeratorAssessment, StopReason } from "../state/deep.js";
import { notesFields } from "../state/answer.js";
import type { CardRound } from "./card.js";
import type { ClientEvent } from "../state/events.js";
import { reduceRank, startRank, type RankState } from "./formats/rank-state.js";

type Who = { key: string; display: string; model: string };

/** A /deep run as the page shows it: answers, rounds with the moderator's numbers, the synthesis. */
export interface DeepState {
  kind: "deep";
  question: string;
  participants: Who[];
  minRounds: number;
  maxRounds: number;
  answers: Record<string, CardRound>;
  /** Label → who, once the answers are anonymised. */
  debaters: Record<string, { display: string; modelKey: string }>;
  rounds: {
    round: number;
    arguments: DebaterTurn[];
    assessment: ModeratorAssessment | null;
    moderatorError?: string;
    stop: boolean;
    reason: StopReason | "no_arguments";
  }[];
  /** The round being argued, 0 before the first. */
  arguing: number;
  output?: DeepOutput;
  synthesis: string;
  synthesisFallback?: boolean;
  title?: string;
  complete: boolean;
}

/** A /council run as the page shows it: the verdict table, the consensus, the report. */
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

/** The /deep, /council and /rank runs: each shown by its own panel (/rank's state is in `formats/rank-state.ts`). */
export type PanelState = DeepState | CouncilState | RankState;

/**
 * Applies one event to a /deep, /council or /rank run. `deep-start`, `council-start` and
 * `rank-start` begin one; their other events update it; anything else leaves it as it is (the same
 * object).
 */
export function reducePanel(s: PanelState | undefined, e: ClientEvent): PanelState | undefined {
  const who = (p: { modelKey: string; display: string; model: string }) => ({ key: p.modelKey, display: p.display, model: p.model });
  if (e.event === "deep-start") {
    return {
      kind: "deep",
      question: e.data.question,
      participants: e.data.participants.map(who),
      minRounds: e.data.minRounds,
      maxRounds: e.data.maxRounds,
      answers: {},
      debaters: {},
      rounds: [],
      arguing: 0,
      synthesis: "",
      complete: false,
    };
  }
  if (e.event === "council-start") {
    return {
      kind: "council",
      claim: e.data.claim,
      debate: e.data.debate,
      judges: e.data.judges.map((j) => ({ ...who(j), perspective: j.perspective })),
      verdicts: {},
      round: 1,
      report: "",
      complete: false,
    };
  }
  if (e.event === "rank-start") return startRank(e);
  if (!s) return s;
  if (e.event === "title-complete") return { ...s, title: e.data.data.title };
  if (e.event === "complete") return { ...s, complete: true };
  switch (s.kind) {
    case "deep":
      return reduceDeep(s, e);
    case "council":
      return reduceCouncil(s, e);
    case "rank":
      return reduceRank(s, e);
    default:
      return s satisfies never;
  }
}

function reduceDeep(s: DeepState, e: ClientEvent): DeepState {
  switch (e.event) {
    case "answer-delta": {
      if (e.data.mode !== "deep") return s;
      if (e.data.stage === "synthesis") return { ...s, synthesis: s.synthesis + e.data.delta };
      if (e.data.stage !== "collect") return s;
      const prev = s.answers[e.data.modelKey] ?? { text: "", status: "speaking" as const };
      return { ...s, answers: { ...s.answers, [e.data.modelKey]: { ...prev, text: prev.text + e.data.delta } } };
    }
    case "stage1-complete": {
      const answers = { ...s.answers };
      for (const r of e.data.data) answers[r.modelKey] = { text: r.response, status: "ok", latencyMs: r.responseTimeMs, ...notesFields(r) };
      for (const f of e.data.failed) answers[f.modelKey] = { text: "", status: "error", error: f.error };
      return { ...s, answers };
    }
    case "deep-round-start":
      return { ...s, arguing: e.data.round, debaters: e.data.debaters };
    case "deep-round-complete":
      return {
        ...s,
        rounds: [
          ...s.rounds,
          {
            round: e.data.round,
            arguments: e.data.arguments,
            assessment: e.data.assessment,
            moderatorError: e.data.moderatorError,
            stop: e.data.stop,
            reason: e.data.reason,
          },
        ],
      };
    case "deep-output":
      return { ...s, output: e.data.data };
    case "deep-synthesis-complete":
      return { ...s, synthesis: e.data.data.synthesis, synthesisFallback: e.data.data.fallback };
    default:
      return s;
  }
}

function reduceCouncil(s: CouncilState, e: ClientEvent): CouncilState {
  switch (e.event) {
    case "answer-delta":
      return e.data.mode === "council" && e.data.stage === "report" ? { ...s, report: s.report + e.data.delta } : s;
    case "council-round-start":
      return { ...s, round: e.data.round, branch: e.data.branch ?? s.branch };
    case "council-verdict":
      return { ...s, verdicts: { ...s.verdicts, [e.data.round]: { ...s.verdicts[e.data.round], [e.data.modelKey]: e.data } } };
    case "council-consolidation":
      return { ...s, result: e.data.data };
    case "council-report-complete":
      return { ...s, report: e.data.data.report, reportFallback: e.data.data.fallback };
    default:
      return s;
  }
}
