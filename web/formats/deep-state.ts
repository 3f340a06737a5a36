import type { ClientEvent } from "../../state/events.js";
import type { DebaterTurn, DeepOutput, ModeratorAssessment, StopReason } from "../../state/deep.js";
import { notesFields } from "../../state/answer.js";
import type { CardRound } from "../card.js";
import { memberOf, type Member, type RunPanel } from "./format-view.js";

/** A /deep run as the page shows it: answers, rounds with the moderator's numbers, the synthesis. */
export interface DeepState {
  kind: "deep";
  question: string;
  participants: Member[];
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

/** How the page follows a /deep run: `deep-start` begins it. */
export const DEEP_PANEL: RunPanel<DeepState> = {
  kind: "deep",
  start: (e) =>
    e.event === "deep-start"
      ? {
          kind: "deep",
          question: e.data.question,
          participants: e.data.participants.map(memberOf),
          minRounds: e.data.minRounds,
          maxRounds: e.data.maxRounds,
          answers: {},
          debaters: {},
          rounds: [],
          arguing: 0,
          synthesis: "",
          complete: false,
        }
      : undefined,
  reduce: reduceDeep,
};

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
