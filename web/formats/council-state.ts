import type { ClientEvent } from "../../state/events.js";
import type { CouncilResult, JudgeRound } from "../../state/council.js";
import { memberOf, type Member, type RunPanel } from "./format-view.js";

/** A /council run as the page shows it: the verdict table, the consensus, the report. */
export interface CouncilState {
  kind: "council";
  claim: string;
  debate: boolean;
  judges: (Member & { perspective: string })[];
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

/** How the page follows a /council run: `council-start` begins it. */
export const COUNCIL_PANEL: RunPanel<CouncilState> = {
  kind: "council",
  start: (e) =>
    e.event === "council-start"
      ? {
          kind: "council",
          claim: e.data.claim,
          debate: e.data.debate,
          judges: e.data.judges.map((j) => ({ ...memberOf(j), perspective: j.perspective })),
          verdicts: {},
          round: 1,
          report: "",
          complete: false,
        }
      : undefined,
  reduce: reduceCouncil,
};

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
